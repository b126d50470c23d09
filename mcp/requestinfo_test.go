package mcp_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// seen is what a handler learned from its request context.
type seen struct {
	Era        string
	Version    string
	ClientInfo string
	Caps       string
	Sampling   bool
}

// A handler reads era, version, client info and capabilities from its
// context: from the session in the legacy era, from the request alone in the
// modern era, never mixed and never carried over from earlier requests.
func TestRequestInfoPerEra(t *testing.T) {
	got := make(chan seen, 1)
	srv := newServer(t, nil, rawTool("who", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		info := mcp.RequestFrom(ctx)
		got <- seen{info.Era.String(), info.Revision.String(), string(info.ClientInfo), string(info.ClientCapabilities),
			ask.Declared(ctx, "sampling")}
		return tool.TextResult("ok"), nil
	}))
	c := start(t, srv)
	r := c.request(jsonrpc.Int64ID(1), "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{"sampling": map[string]any{}},
		"clientInfo": map[string]any{"name": "legacy-client", "version": "1"},
	})
	result(t, r)

	call := func(id int64, meta map[string]any) seen {
		t.Helper()
		params := map[string]any{"name": "who"}
		if meta != nil {
			params["_meta"] = meta
		}
		result(t, c.request(jsonrpc.Int64ID(id), "tools/call", params))
		return <-got
	}
	legacy := call(2, nil)
	modern := call(3, modernMeta(nil))
	bare := call(4, map[string]any{
		protocol.MetaProtocolVersion:    "2026-07-28",
		protocol.MetaClientCapabilities: map[string]any{"sampling": map[string]any{}},
	})

	want := []seen{
		{"legacy", "2025-06-18", `{"name":"legacy-client","version":"1"}`, `{"sampling":{}}`, true},
		{"modern", "2026-07-28", `{"name":"t","version":"1"}`, `{}`, false},
		{"modern", "2026-07-28", ``, `{"sampling":{}}`, true},
	}
	if d := cmp.Diff(want, []seen{legacy, modern, bare}); d != "" {
		t.Errorf("request info (-want +got):\n%s", d)
	}
}
