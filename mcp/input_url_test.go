package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// urlTools: "visit" asks for a URL visit and reports the action; "needs"
// cannot go on without the visit.
func urlTools() []tool.Tool {
	return []tool.Tool{
		rawTool("visit", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
			r, err := ask.ElicitURL(ctx, "Sign in", "https://example.com/login")
			if err != nil {
				return nil, err
			}
			return tool.TextResult(string(r.Action) + " " + r.ElicitationID), nil
		}),
		rawTool("needs", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
			if err := ask.RequireURL(ctx, "Connect your account", "https://example.com/connect"); err != nil {
				return nil, err
			}
			return tool.TextResult("connected"), nil
		}),
	}
}

func TestURLElicitationLegacy(t *testing.T) {
	srv := newServer(t, nil, urlTools()...)
	c := start(t, srv)
	c.initializeWith("2025-11-25", map[string]any{"elicitation": map[string]any{"url": map[string]any{}}})
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"visit"}`)})
	req := c.serverRequest()
	var p struct {
		Mode, URL, ElicitationID string
	}
	json.Unmarshal(req.Params, &p)
	if req.Method != "elicitation/create" || p.Mode != "url" || p.ElicitationID == "" || p.URL != "https://example.com/login" {
		t.Fatalf("request: %s %s", req.Method, req.Params)
	}
	c.send(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{"action":"accept"}`)})
	if r := c.await(jsonrpc.Int64ID(1)); !strings.Contains(string(r.Result), "accept "+p.ElicitationID) {
		t.Fatalf("result: %s %+v", r.Result, r.Error)
	}
	if !srv.CompleteElicitation(p.ElicitationID) || srv.CompleteElicitation(p.ElicitationID) {
		t.Fatal("CompleteElicitation: want true once, then false")
	}
	n, ok := c.next(2 * time.Second).(*jsonrpc.Notification)
	if !ok || n.Method != protocol.NotificationElicitationComplete || !strings.Contains(string(n.Params), p.ElicitationID) {
		t.Fatalf("completion: %+v", n)
	}

	r := c.request(jsonrpc.Int64ID(2), "tools/call", map[string]any{"name": "needs"})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeURLElicitationRequired || !strings.Contains(string(r.Error.Data), `"mode":"url"`) || !strings.Contains(string(r.Error.Data), `"elicitationId":"`) {
		t.Fatalf("-32042: %s %+v", r.Result, r.Error)
	}
}

func TestURLElicitationModern(t *testing.T) {
	c := start(t, newServer(t, nil, urlTools()...))
	raw, _ := json.Marshal(map[string]any{"name": "needs", "_meta": modernMeta(map[string]any{
		protocol.MetaClientCapabilities: map[string]any{"elicitation": map[string]any{"url": map[string]any{}}}})})
	r := c.send2(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: raw})
	ir := inputRequired(t, r)
	for _, q := range ir.InputRequests {
		if q.Elicit == nil || q.Elicit.URL == nil || q.Elicit.URL.ElicitationID != "" {
			t.Fatalf("URL input request: %s", r.Result)
		}
	}
	// Declaring only the form mode is not enough.
	r = c.send2(modernCall(2, "visit", nil, nil))
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMissingRequiredClientCapability || !strings.Contains(string(r.Error.Data), `{"elicitation":{"url":{}}}`) {
		t.Fatalf("form-only client: %s %+v", r.Result, r.Error)
	}
}
