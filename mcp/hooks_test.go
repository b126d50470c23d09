package mcp_test

import (
	"context"
	"errors"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// The hooks of packages tool and ask reach the call a real server runs:
// they read it as one callctx.Call, which mcp's call is asserted to
// implement (so a renamed method fails to compile), and this test shows
// that what they read is the call and not a silent no-op.
func TestHooksReachTheCall(t *testing.T) {
	srv := newServer(t, nil, rawTool("hooks", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		info := mcp.RequestFrom(ctx)
		if info == nil || info.Era != protocol.Legacy || info.Revision != protocol.Revision20251125 {
			return nil, errors.New("RequestFrom does not describe the request")
		}
		if err := mcp.ReportProgress(ctx, 1, 2, "half"); err != nil {
			return nil, err
		}
		if err := ask.Remember(ctx, "seen", true); err != nil {
			return nil, err
		}
		if found, err := ask.Recall(ctx, "seen", nil); !found || err != nil {
			return nil, errors.New("Recall does not find what Remember kept")
		}
		return tool.TextResult("ok"), nil
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	r := c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "hooks", "_meta": map[string]any{"progressToken": "tok"}})
	if res := result(t, r); res["isError"] == true {
		t.Fatalf("tool failed: %s", r.Result)
	}
	if len(c.notes) != 1 || c.notes[0].Method != "notifications/progress" {
		t.Fatalf("got %d notifications before the response, want 1 progress", len(c.notes))
	}
}
