package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// askTool sends the client one roots/list request and answers with what
// came back, or with the error as an isError result.
func askTool(name string) tool.Tool {
	return rawTool(name, func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		c := callctx.From(ctx).(interface {
			ClientRequest(context.Context, string, any) (json.RawMessage, error)
		})
		raw, err := c.ClientRequest(ctx, "roots/list", map[string]any{})
		if err != nil {
			var ce *mcp.ClientError
			switch {
			case errors.As(err, &ce):
				return tool.ErrorResult("client error %d", ce.Code), nil
			case errors.Is(err, mcp.ErrClientTimeout):
				return tool.ErrorResult("timeout"), nil
			}
			return nil, err
		}
		return tool.TextResult(string(raw)), nil
	})
}

// serverRequest reads messages until the server's next request.
func (c *client) serverRequest() *jsonrpc.Request {
	c.t.Helper()
	for {
		switch m := c.next(2 * time.Second).(type) {
		case *jsonrpc.Request:
			return m
		case *jsonrpc.Notification:
			c.notes = append(c.notes, m)
		default:
			b, _ := jsonrpc.Marshal(m)
			c.t.Fatalf("waiting for a server request, got %s", b)
		}
	}
}

func TestClientRequestAnswered(t *testing.T) {
	c := start(t, newServer(t, nil, askTool("ask")))
	c.initialize("2025-11-25")
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"ask"}`)})
	req := c.serverRequest()
	if req.Method != "roots/list" || req.ID.String() != `"s1"` {
		t.Fatalf("server request: %s %s", req.Method, req.ID)
	}
	// An answer to an id never sent, then the real one twice: only one counts.
	c.send(&jsonrpc.Response{ID: jsonrpc.StringID("s99"), Result: json.RawMessage(`{}`)})
	c.send(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{"roots":[{"uri":"file:///w"}]}`)})
	c.send(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{"roots":[]}`)})
	r := c.await(jsonrpc.Int64ID(1))
	if !strings.Contains(string(r.Result), `file:///w`) {
		t.Errorf("tool result: %s %v", r.Result, r.Error)
	}
	// The client's error reaches the handler as a ClientError, not as the
	// tool's own JSON-RPC error.
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call", Params: json.RawMessage(`{"name":"ask"}`)})
	req = c.serverRequest()
	c.send(&jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: -32601, Message: "no roots"}})
	r = c.await(jsonrpc.Int64ID(2))
	if r.Error != nil || !strings.Contains(string(r.Result), "client error -32601") {
		t.Errorf("client error: %s %v", r.Result, r.Error)
	}
	if res := c.request(jsonrpc.Int64ID(3), "ping", nil); res.Error != nil {
		t.Errorf("server after stray answers: %v", res.Error)
	}
}

// Cancelling the originating call cancels the server's request to the
// client; so does the timeout.
func TestClientRequestCancelledAndTimedOut(t *testing.T) {
	c := start(t, newServer(t, &mcp.Options{ClientRequestTimeout: 100 * time.Millisecond}, askTool("ask")))
	c.initialize("2025-11-25")
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"ask"}`)})
	req := c.serverRequest()
	c.send(&jsonrpc.Notification{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":1,"reason":"stop"}`)})
	n, ok := c.next(2 * time.Second).(*jsonrpc.Notification)
	if !ok || n.Method != "notifications/cancelled" || !strings.Contains(string(n.Params), `"requestId":`+req.ID.String()) {
		t.Fatalf("cancellation of the server's request: %+v", n)
	}
	c.quiet(50 * time.Millisecond) // the cancelled call gets no response

	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call", Params: json.RawMessage(`{"name":"ask"}`)})
	req = c.serverRequest()
	n, ok = c.next(2 * time.Second).(*jsonrpc.Notification)
	if !ok || n.Method != "notifications/cancelled" || !strings.Contains(string(n.Params), "did not answer in time") {
		t.Fatalf("timeout: %+v", n)
	}
	if r := c.await(jsonrpc.Int64ID(2)); !strings.Contains(string(r.Result), "timeout") {
		t.Errorf("tool after the timeout: %s %v", r.Result, r.Error)
	}
	c.send(&jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)}) // too late: ignored
	if r := c.request(jsonrpc.Int64ID(3), "ping", nil); r.Error != nil {
		t.Errorf("ping: %v", r.Error)
	}
}

// A client that goes away with requests pending releases every handler at
// once: Serve returns (start's cleanup checks it, and that no goroutine is
// left behind).
func TestClientRequestDisconnect(t *testing.T) {
	c := start(t, newServer(t, nil, askTool("ask")))
	c.initialize("2025-11-25")
	for i := range 5 {
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i)), Method: "tools/call", Params: json.RawMessage(`{"name":"ask"}`)})
	}
	for range 5 {
		c.serverRequest()
	}
	began := time.Now()
	c.conn.Close()
	select {
	case err := <-c.done:
		if err != nil {
			t.Errorf("Serve: %v", err)
		}
		c.done <- nil // for start's cleanup
	case <-time.After(2 * time.Second):
		t.Fatal("Serve held by pending client requests")
	}
	if d := time.Since(began); d > time.Second {
		t.Errorf("Serve took %v to return", d)
	}
}

// Many calls wait at once, each on its own request, answered out of order.
func TestClientRequestsOutOfOrder(t *testing.T) {
	c := start(t, newServer(t, nil, askTool("ask")))
	c.initialize("2025-11-25")
	const n = 20
	for i := range n {
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i)), Method: "tools/call", Params: json.RawMessage(`{"name":"ask"}`)})
	}
	reqs := make([]*jsonrpc.Request, 0, n)
	for range n {
		reqs = append(reqs, c.serverRequest())
	}
	var wg sync.WaitGroup
	for i := n - 1; i >= 0; i-- {
		wg.Go(func() {
			c.send(&jsonrpc.Response{ID: reqs[i].ID, Result: json.RawMessage(fmt.Sprintf(`{"roots":[{"uri":"file:///%s"}]}`, strings.Trim(reqs[i].ID.String(), `"`)))})
		})
	}
	wg.Wait()
	seen := map[string]bool{}
	for range n {
		m := c.next(2 * time.Second)
		r, ok := m.(*jsonrpc.Response)
		if !ok || r.Error != nil {
			t.Fatalf("response: %+v", m)
		}
		seen[string(r.Result)] = true
	}
	if len(seen) != n {
		t.Errorf("%d distinct answers for %d calls", len(seen), n)
	}
}

func TestClientRequestModernEra(t *testing.T) {
	c := start(t, newServer(t, nil, askTool("ask")))
	r := c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "ask", "_meta": modernMeta(nil)})
	if !strings.Contains(string(r.Result), "2026-07-28 era has no server-to-client requests") {
		t.Errorf("modern: %s %v", r.Result, r.Error)
	}
}

// A handler that asks again after its call was cancelled sends nothing
// more: the second ask fails at once.
func TestClientRequestAfterCancel(t *testing.T) {
	second := make(chan error, 1)
	twice := rawTool("twice", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		c := callctx.From(ctx).(interface {
			ClientRequest(context.Context, string, any) (json.RawMessage, error)
		})
		c.ClientRequest(ctx, "roots/list", map[string]any{})
		_, err := c.ClientRequest(ctx, "roots/list", map[string]any{})
		second <- err
		return nil, err
	})
	c := start(t, newServer(t, nil, twice))
	c.initialize("2025-11-25")
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"twice"}`)})
	c.serverRequest()
	c.send(&jsonrpc.Notification{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":1}`)})
	if n, ok := c.next(2 * time.Second).(*jsonrpc.Notification); !ok || n.Method != "notifications/cancelled" {
		t.Fatalf("want the cancellation of s1, got %+v", n)
	}
	if err := <-second; err == nil {
		t.Error("the second ask succeeded")
	}
	c.quiet(100 * time.Millisecond) // no second request, no response
}
