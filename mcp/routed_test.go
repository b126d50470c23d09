package mcp_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// HandleRouted shows every request and notification to the check once it
// is read, before anything is refused: a message the check takes is
// dropped unanswered, one it lets through is served as Handle serves it.
func TestHandleRouted(t *testing.T) {
	const meta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	srv := newServer(t, nil)
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true, RunOnCaller: true})
	defer ep.Close()
	for _, tt := range []struct {
		name    string
		msg     jsonrpc.Message
		era     protocol.Era
		named   string
		value   string // Name as sent
		version string // Version as sent
	}{
		{"modern", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "prompts/get", Params: json.RawMessage(`{"name":"p",` + meta + `}`)},
			protocol.Modern, "name", `"p"`, `"2026-07-28"`},
		{"task", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tasks/get", Params: json.RawMessage(`{"taskId":"t1",` + meta + `}`)},
			protocol.Modern, "taskId", `"t1"`, `"2026-07-28"`},
		{"legacy", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "resources/read", Params: json.RawMessage(`{"uri":"a://b"}`)},
			protocol.Legacy, "uri", `"a://b"`, ""},
		{"no target", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/list", Params: json.RawMessage(`{` + meta + `}`)},
			protocol.Modern, "", "", `"2026-07-28"`},
		{"params not an object", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`[1]`)},
			protocol.Legacy, "name", "", ""},
		{"_meta not an object", &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"x","_meta":1}`)},
			protocol.Legacy, "name", `"x"`, ""},
		{"notification", &jsonrpc.Notification{Method: "notifications/initialized", Params: json.RawMessage(`{` + meta + `}`)},
			protocol.Modern, "", "", `"2026-07-28"`},
	} {
		var got *mcp.Routed
		ep.HandleRouted(context.Background(), tt.msg, func(r *mcp.Routed) bool { got = r; return false },
			func(m jsonrpc.Message) { t.Errorf("%s: a message the check took was answered: %v", tt.name, m) })
		switch {
		case got == nil:
			t.Errorf("%s: the check was not called", tt.name)
		case got.Era != tt.era || got.Named != tt.named || string(got.Name) != tt.value || string(got.Version) != tt.version:
			t.Errorf("%s: routed %+v", tt.name, got)
		}
	}
	// A request the check lets through is answered.
	var resp *jsonrpc.Response
	ep.HandleRouted(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/list", Params: json.RawMessage(`{` + meta + `}`)},
		func(*mcp.Routed) bool { return true },
		func(m jsonrpc.Message) { resp, _ = m.(*jsonrpc.Response) })
	if resp == nil || resp.Error != nil {
		t.Errorf("tools/list let through: %+v", resp)
	}
	// A closed endpoint shows the message to the check too, before it
	// refuses it.
	closed := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	closed.Close()
	checked := false
	closed.HandleRouted(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(3), Method: "tools/list"},
		func(*mcp.Routed) bool { checked = true; return false },
		func(m jsonrpc.Message) { t.Errorf("a closed endpoint answered a message the check took: %v", m) })
	if !checked {
		t.Error("a closed endpoint did not call the check")
	}
}
