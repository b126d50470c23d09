package tool_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/tool"
)

// compile checks tl as registration does and returns it with the error.
func compile(tl tool.Tool) (tool.Tool, error) {
	_, err := contract.Compile(tl, nil)
	return tl, err
}

// call runs the whole contract the way the server does: the arguments
// prepared, the handler run, the result checked. The error is the broken
// contract the server would log, or a JSON-RPC error the handler returned.
func call(t *testing.T, tl tool.Tool, args string) (*tool.Result, error) {
	t.Helper()
	c, err := contract.Compile(tl, nil)
	if err != nil {
		t.Fatalf("compile %s: %v", tl.Name, err)
	}
	out := c.Call(context.Background(), json.RawMessage(args))
	if out.RPCError != nil {
		return nil, out.RPCError
	}
	return out.Result, out.Broken
}

// text returns the first block's text, "" when it has none.
func text(r *tool.Result) string {
	if r == nil || len(r.Content) == 0 {
		return ""
	}
	if tb, ok := r.Content[0].(*tool.Text); ok {
		return tb.Text
	}
	return ""
}
