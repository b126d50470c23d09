package mcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// A request that runs past Options.CallTimeout is answered with -32603
// (data.reason "timeout") and its handler's context ends with
// ErrCallTimeout; a quick one is unaffected.
func TestCallTimeout(t *testing.T) {
	cause := make(chan error, 1)
	slow := rawTool("slow", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	quick := rawTool("quick", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("ok"), nil })
	c := start(t, newServer(t, &mcp.Options{CallTimeout: 50 * time.Millisecond}, slow, quick))
	c.initialize("2025-11-25")
	r := c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "slow"})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError || !strings.Contains(string(r.Error.Data), `"timeout"`) {
		t.Fatalf("slow: %s %+v", r.Result, r.Error)
	}
	if err := <-cause; !errors.Is(err, mcp.ErrCallTimeout) {
		t.Errorf("cause %v", err)
	}
	if r := c.request(jsonrpc.Int64ID(2), "tools/call", map[string]any{"name": "quick"}); r.Error != nil {
		t.Errorf("quick: %+v", r.Error)
	}
	c.quiet(100 * time.Millisecond) // nothing more for either call
}
