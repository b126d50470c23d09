// Command mcpgo is a benchmark comparison server built on
// github.com/mark3labs/mcp-go that exposes a single tool, echo, which
// returns its "text" argument unchanged as one text block.
//
//	mcpgo                       serve stdio
//	mcpgo -http 127.0.0.1:0     serve Streamable HTTP at http://ADDR/mcp
//
// Over HTTP the StreamableHTTPServer runs with its default options: it
// serves 2026-07-28 requests statelessly and legacy ones with session ids it
// mints but does not track.
package main

import (
	"context"
	"flag"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"

	"github.com/mcpwire/mcpwire/bench/sdkservers/internal/serve"
)

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(text), nil
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `FILE`")
	flag.Parse()
	stop := serve.CPUProfile(*cpuprofile)
	defer stop()

	s := server.NewMCPServer("mcpgo-echo", "0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo",
		mcp.WithDescription("Return the given text unchanged."),
		mcp.WithString("text", mcp.Required(), mcp.Description("the text to return unchanged")),
	), echo)
	var err error
	if *addr != "" {
		err = serve.HTTP("mcpgo", *addr, server.NewStreamableHTTPServer(s))
	} else {
		err = server.ServeStdio(s)
	}
	if err != nil {
		log.Printf("mcpgo: %v", err)
	}
}
