package mcp_test

import (
	"context"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// outSeen is what a middleware saw of one notification from the server.
type outSeen struct {
	method, caller string
	era            protocol.Era
	tools          []string
	known          bool
}

// The middleware sees each tools/list_changed the server sends, as the
// client it goes to: FromServer, the caller that initialized the session,
// its era, and the tool that changed (a change another instance made:
// not known); what it does not pass on is not sent. A client's own
// requests are not FromServer.
func TestMiddlewareSeesToolsListChanged(t *testing.T) {
	var mu sync.Mutex
	var seen []outSeen
	drop := false
	record := func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			if !req.FromServer() {
				if _, known := req.ChangedTools(); known {
					t.Errorf("%s from the client has changed tools", req.Method)
				}
				return next(ctx, req)
			}
			tools, known := req.ChangedTools()
			s := outSeen{method: req.Method, era: req.Era, known: known}
			if req.Caller != nil {
				s.caller = req.Caller.Subject
			}
			for _, tl := range tools {
				s.tools = append(s.tools, tl.Name)
			}
			mu.Lock()
			seen = append(seen, s)
			mu.Unlock()
			if drop {
				return nil, nil
			}
			return next(ctx, req)
		}
	}
	var mem fanout.Memory
	noop := func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }
	other := newServer(t, &mcp.Options{Broker: &mem}, rawTool("o", noop))
	t.Cleanup(func() { other.Close() })
	srv := newServer(t, &mcp.Options{Broker: &mem, Middleware: []mcp.Middleware{record}}, rawTool("t", noop))
	t.Cleanup(func() { srv.Close() })

	sent := make(chan struct{}, 8)
	ep := srv.NewEndpoint(mcp.EndpointOptions{Unsolicited: func(m jsonrpc.Message) {
		if n, ok := m.(*jsonrpc.Notification); ok && n.Method == protocol.NotificationToolListChanged {
			sent <- struct{}{}
		}
	}})
	t.Cleanup(ep.Close)
	ctx := auth.WithPrincipal(t.Context(), &auth.Principal{Subject: "alice"})
	ep.Handle(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "initialize",
		Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)}, func(jsonrpc.Message) {})
	ep.Handle(ctx, &jsonrpc.Notification{Method: "notifications/initialized"}, nil)
	otherEp := other.NewEndpoint(mcp.EndpointOptions{}) // the other instance serves someone: it publishes
	t.Cleanup(otherEp.Close)

	srv.MustAddTool(rawTool("added", noop))
	<-sent
	other.MustAddTool(rawTool("elsewhere", noop))
	select {
	case <-sent:
	case <-time.After(10 * time.Second):
		t.Fatal("the other instance's change never came")
	}
	drop = true
	srv.RemoveTool("added")
	select {
	case <-sent:
		t.Fatal("a notification the middleware kept was sent")
	default: // told before RemoveTool returned
	}

	mu.Lock()
	defer mu.Unlock()
	want := []outSeen{
		{method: protocol.NotificationToolListChanged, caller: "alice", era: protocol.Legacy, tools: []string{"added"}, known: true},
		{method: protocol.NotificationToolListChanged, caller: "alice", era: protocol.Legacy},
		{method: protocol.NotificationToolListChanged, caller: "alice", era: protocol.Legacy, tools: []string{"added"}, known: true},
	}
	if len(seen) != len(want) {
		t.Fatalf("saw %+v, want %+v", seen, want)
	}
	for i := range want {
		if seen[i].method != want[i].method || seen[i].caller != want[i].caller || seen[i].era != want[i].era ||
			seen[i].known != want[i].known || len(seen[i].tools) != len(want[i].tools) || (len(want[i].tools) > 0 && seen[i].tools[0] != want[i].tools[0]) {
			t.Errorf("notification %d: saw %+v, want %+v", i, seen[i], want[i])
		}
	}
}
