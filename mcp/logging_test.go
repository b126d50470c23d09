package mcp_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// A chatty tool cannot flood the pipe: forwarded log messages are
// rate-limited per connection (here 5 a second, bursts of 10), while the
// call itself still succeeds.
func TestClientLogIsRateLimited(t *testing.T) {
	srv := newServer(t, &mcp.Options{LogRate: 5}, rawTool("chatty", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		log := mcp.Logger(ctx)
		for i := 0; i < 200; i++ {
			log.Info("chatter", "i", i)
		}
		return tool.TextResult("done"), nil
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	result(t, c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "chatty"}))
	n := 0
	for _, note := range c.notes {
		if note.Method == "notifications/message" {
			n++
		}
	}
	if n < 5 || n > 12 {
		t.Errorf("forwarded %d of 200 log messages, want about the burst of 10", n)
	}
}
