package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// Many legacy calls, each waiting on its own question to the client, are
// answered in reverse order; every call gets the answer to its question.
func TestInputLegacyConcurrent(t *testing.T) {
	who := rawTool("who", func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
		var a struct{ I int }
		json.Unmarshal(args, &a)
		r, err := ask.Elicit(ctx, fmt.Sprint("who is ", a.I), nameForm)
		if err != nil {
			return nil, err
		}
		return tool.TextResult(fmt.Sprint(a.I, "=", r.Content["name"])), nil
	})
	c := start(t, newServer(t, nil, who))
	c.initializeWith("2025-11-25", askCaps)
	const n = 20
	for i := range n {
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i)), Method: "tools/call", Params: json.RawMessage(fmt.Sprintf(`{"name":"who","arguments":{"I":%d}}`, i))})
	}
	var reqs []*jsonrpc.Request
	for len(reqs) < n {
		reqs = append(reqs, c.serverRequest())
	}
	for i := len(reqs) - 1; i >= 0; i-- {
		var p struct{ Message string }
		json.Unmarshal(reqs[i].Params, &p)
		name := "n" + strings.TrimPrefix(p.Message, "who is ")
		c.send(&jsonrpc.Response{ID: reqs[i].ID, Result: json.RawMessage(`{"action":"accept","content":{"name":"` + name + `"}}`)})
	}
	for range n {
		r := c.next(5 * time.Second).(*jsonrpc.Response)
		id := idNumber(t, r.ID)
		if want := fmt.Sprintf("%d=n%d", id, id); !strings.Contains(string(r.Result), want) {
			t.Errorf("call %d: %s %+v (want %s)", id, r.Result, r.Error, want)
		}
	}
}

// Many modern calls go through their two rounds at once.
func TestInputModernConcurrent(t *testing.T) {
	c := start(t, newServer(t, nil, greetTool()))
	const n = 20
	var mu sync.Mutex
	states := map[int64]string{}
	for i := range int64(n) {
		c.send(modernCall(i, "greet", map[string]any{"i": i}, nil))
	}
	for range n {
		r := c.next(5 * time.Second).(*jsonrpc.Response)
		id := idNumber(t, r.ID)
		mu.Lock()
		states[id] = inputRequired(t, r).RequestState
		mu.Unlock()
	}
	for i := range int64(n) {
		c.send(modernCall(100+i, "greet", map[string]any{"i": i}, map[string]any{"requestState": states[i], "inputResponses": map[string]any{
			"user_name":    map[string]any{"action": "accept", "content": map[string]any{"name": fmt.Sprint("u", i)}},
			"client_roots": protocol.ListRootsResult{},
		}}))
	}
	for range n {
		r := c.next(5 * time.Second).(*jsonrpc.Response)
		id := idNumber(t, r.ID)
		if want := fmt.Sprintf("Hello, u%d!", id-100); !strings.Contains(string(r.Result), want) {
			t.Errorf("call %d: %s %+v (want %s)", id, r.Result, r.Error, want)
		}
	}
}

func idNumber(t *testing.T, id jsonrpc.ID) int64 {
	var n int64
	if _, err := fmt.Sscan(id.String(), &n); err != nil {
		t.Fatalf("id %s: %v", id, err)
	}
	return n
}

// At shutdown a call waiting on the client is cancelled after the grace
// period: pending client requests never hold the process.
func TestInputShutdownWithPendingRequest(t *testing.T) {
	srv := newServer(t, &mcp.Options{ShutdownGrace: 100 * time.Millisecond}, greetTool())
	serverSide, clientSide := transport.Pipe(transport.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, serverSide) }()
	c := &client{t: t, conn: clientSide, done: done, srv: srv}
	c.initializeWith("2025-11-25", askCaps)
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"greet"}`)})
	c.serverRequest()
	began := time.Now()
	cancel()
	select {
	case <-done:
	case <-time.After(3 * time.Second):
		t.Fatal("Serve held past the grace period by a pending client request")
	}
	if d := time.Since(began); d > time.Second {
		t.Errorf("shutdown took %v with a 100ms grace", d)
	}
	clientSide.Close()
}
