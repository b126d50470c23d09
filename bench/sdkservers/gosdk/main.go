// Command gosdk is a benchmark comparison server: an MCP stdio server built on
// github.com/modelcontextprotocol/go-sdk that exposes a single tool, echo,
// which returns its "text" argument unchanged as one text block.
package main

import (
	"context"
	"log"

	"github.com/modelcontextprotocol/go-sdk/mcp"
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
	server := mcp.NewServer(&mcp.Implementation{Name: "gosdk-echo", Version: "0"}, nil)
	mcp.AddTool(server, &mcp.Tool{
		Name:        "echo",
		Description: "Return the given text unchanged.",
	}, echo)
	// The default StdioTransport line limit (16 MiB) already admits the
	// 8 MiB benchmark message, so the transport is used as shipped.
	if err := server.Run(context.Background(), &mcp.StdioTransport{}); err != nil {
		log.Printf("gosdk: %v", err)
	}
}
