// Command gosdk is a benchmark comparison server built on
// github.com/modelcontextprotocol/go-sdk that exposes a single tool, echo,
// which returns its "text" argument unchanged as one text block.
//
//	gosdk                       serve stdio
//	gosdk -http 127.0.0.1:0     serve Streamable HTTP at http://ADDR/mcp
//
// Over HTTP the StreamableHTTPHandler runs in its stateless mode, the mode
// in which go-sdk serves 2026-07-28 requests (its stateful mode refuses
// them with -32022), and answers with application/json, as the other two
// servers of the benchmark do for a plain call (-sse keeps go-sdk's default
// of an event stream for every response).
package main

import (
	"context"
	"flag"
	"log"
	"net/http"

	"github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwire/mcpwire/bench/sdkservers/internal/serve"
)

// echoArgs is the input of the echo tool.
type echoArgs struct {
	Text string `json:"text" jsonschema:"the text to return unchanged"`
}

func echo(_ context.Context, _ *mcp.CallToolRequest, in echoArgs) (*mcp.CallToolResult, any, error) {
	return &mcp.CallToolResult{
		Content: []mcp.Content{&mcp.TextContent{Text: in.Text}},
	}, nil, nil
}

func main() {
	addr := flag.String("http", "", "serve Streamable HTTP at http://`ADDR`/mcp instead of stdio")
	sse := flag.Bool("sse", false, "with -http, answer every request with an event stream (go-sdk's default)")
	cpuprofile := flag.String("cpuprofile", "", "write a CPU profile to `FILE`")
	flag.Parse()
	stop := serve.CPUProfile(*cpuprofile)
	defer stop()

	server := mcp.NewServer(&mcp.Implementation{Name: "gosdk-echo", Version: "0"}, nil)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "echo",
		Description: "Return the given text unchanged.",
	}, echo)
	var err error
	if *addr != "" {
		h := mcp.NewStreamableHTTPHandler(func(*http.Request) *mcp.Server { return server },
			&mcp.StreamableHTTPOptions{Stateless: true, JSONResponse: !*sse})
		err = serve.HTTP("gosdk", *addr, h)
	} else {
		// The default StdioTransport line limit (16 MiB) already admits the
		// 8 MiB benchmark message, so the transport is used as shipped.
		err = server.Run(context.Background(), &mcp.StdioTransport{})
	}
	if err != nil {
		log.Printf("gosdk: %v", err)
	}
}
