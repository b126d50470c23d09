// Command mcpgo is a benchmark comparison server: an MCP stdio server built on
// github.com/mark3labs/mcp-go that exposes a single tool, echo, which returns
// its "text" argument unchanged as one text block.
package main

import (
	"context"
	"log"

	"github.com/mark3labs/mcp-go/mcp"
	"github.com/mark3labs/mcp-go/server"
)

func echo(_ context.Context, req mcp.CallToolRequest) (*mcp.CallToolResult, error) {
	text, err := req.RequireString("text")
	if err != nil {
		return mcp.NewToolResultError(err.Error()), nil
	}
	return mcp.NewToolResultText(text), nil
}

func main() {
	s := server.NewMCPServer("mcpgo-echo", "0", server.WithToolCapabilities(false))
	s.AddTool(mcp.NewTool("echo",
		mcp.WithDescription("Return the given text unchanged."),
		mcp.WithString("text", mcp.Required(), mcp.Description("the text to return unchanged")),
	), echo)
	if err := server.ServeStdio(s); err != nil {
		log.Printf("mcpgo: %v", err)
	}
}
