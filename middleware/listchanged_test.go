package middleware_test

import (
	"context"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/middleware"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// heard counts the tools/list_changed notifications one client got.
type heard struct {
	mu sync.Mutex
	n  int
}

func (h *heard) take(m jsonrpc.Message) {
	if n, ok := m.(*jsonrpc.Notification); ok && n.Method == protocol.NotificationToolListChanged {
		h.mu.Lock()
		h.n++
		h.mu.Unlock()
	}
}

func (h *heard) count() int {
	h.mu.Lock()
	defer h.mu.Unlock()
	return h.n
}

func namedTool(name string) tool.Tool {
	return tool.New(name, "A tool.", func(context.Context, struct{}) (string, error) { return name, nil })
}

// A tool list change goes only to the callers a FilterTools filter lets
// see the tool that changed, in both eras (a legacy session as the
// caller that initialized it, a 2026-07-28 listen stream as the caller
// that opened it); a change of a tool every caller sees goes to all.
func TestFilterToolsListChanged(t *testing.T) {
	ownTools := func(caller *auth.Principal, tl *protocol.Tool) bool {
		return caller != nil && (strings.HasPrefix(tl.Name, caller.Subject+"_") || strings.HasPrefix(tl.Name, "shared_"))
	}
	for name, filter := range map[string][]mcp.Middleware{
		"filtered": {middleware.FilterTools(ownTools)},
		"none":     nil,
	} {
		t.Run(name, func(t *testing.T) {
			srv := mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, &mcp.Options{Logger: quiet, DynamicTools: true, Middleware: filter})
			srv.MustAddTool(namedTool("bob_old"))
			clients := map[string]*heard{}
			as := func(subject string) context.Context {
				return auth.WithPrincipal(t.Context(), &auth.Principal{Subject: subject})
			}
			for _, who := range []string{"alice", "bob"} {
				h := &heard{}
				clients["legacy "+who] = h
				ep := srv.NewEndpoint(mcp.EndpointOptions{Unsolicited: h.take})
				t.Cleanup(ep.Close)
				ep.Handle(as(who), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "initialize",
					Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)}, func(jsonrpc.Message) {})
				ep.Handle(as(who), &jsonrpc.Notification{Method: "notifications/initialized"}, nil)
			}
			modern := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
			t.Cleanup(modern.Close)
			for i, who := range []string{"alice", "bob"} {
				h := &heard{}
				clients["modern "+who] = h
				acked := make(chan struct{})
				var once sync.Once
				modern.Handle(as(who), &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(10 + i)), Method: "subscriptions/listen",
					Params: json.RawMessage(`{"notifications":{"toolsListChanged":true},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
						`"io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"t","version":"1"}}}`)},
					func(m jsonrpc.Message) {
						if n, ok := m.(*jsonrpc.Notification); ok && n.Method == protocol.NotificationSubscriptionsAcknowledged {
							once.Do(func() { close(acked) })
						}
						h.take(m)
					})
				<-acked
			}
			// Each change is told before AddTool and RemoveTool return.
			srv.MustAddTool(namedTool("alice_new"))
			srv.RemoveTool("bob_old")
			srv.MustAddTool(namedTool("shared_one"))
			want := map[string]int{"legacy alice": 2, "legacy bob": 2, "modern alice": 2, "modern bob": 2}
			if filter == nil {
				want = map[string]int{"legacy alice": 3, "legacy bob": 3, "modern alice": 3, "modern bob": 3}
			}
			for who, h := range clients {
				if got := h.count(); got != want[who] {
					t.Errorf("%s heard %d tools/list_changed, want %d", who, got, want[who])
				}
			}
		})
	}
}
