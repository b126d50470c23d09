package mcp_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// exchange collects what one Handle sends, until the response to id.
type exchange struct {
	mu   sync.Mutex
	msgs []jsonrpc.Message
	done chan struct{}
}

func newExchange() *exchange { return &exchange{done: make(chan struct{})} }

func (x *exchange) send(m jsonrpc.Message) {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.msgs = append(x.msgs, m)
	if _, ok := m.(*jsonrpc.Response); ok {
		close(x.done)
	}
}

func (x *exchange) wait(t *testing.T) []jsonrpc.Message {
	t.Helper()
	select {
	case <-x.done:
	case <-time.After(2 * time.Second):
		t.Fatal("no response")
	}
	x.mu.Lock()
	defer x.mu.Unlock()
	return append([]jsonrpc.Message(nil), x.msgs...)
}

func progressTool() tool.Tool {
	return rawTool("steps", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		for i := range 3 {
			mcp.ReportProgress(ctx, float64(i+1), 3, "")
		}
		return tool.TextResult("done"), nil
	})
}

func modernRequest(id int64, name string, extra map[string]any) *jsonrpc.Request {
	p := map[string]any{"name": name, "_meta": modernMeta(extra)}
	raw, _ := json.Marshal(p)
	return &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: raw}
}

// A stateless endpoint serves requests with the same id at once, each on
// its own exchange, with its progress before its response.
func TestEndpointStateless(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	srv := newServer(t, nil, progressTool())
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	var xs []*exchange
	for range 5 {
		x := newExchange()
		xs = append(xs, x)
		ep.Handle(context.Background(), modernRequest(1, "steps", map[string]any{"progressToken": "p"}), x.send)
	}
	for i, x := range xs {
		msgs := x.wait(t)
		if len(msgs) != 4 {
			t.Fatalf("exchange %d: %d messages, want 3 progress and the response", i, len(msgs))
		}
		for _, m := range msgs[:3] {
			if n, ok := m.(*jsonrpc.Notification); !ok || n.Method != "notifications/progress" {
				t.Errorf("exchange %d: %+v before the response", i, m)
			}
		}
		if r := msgs[3].(*jsonrpc.Response); !strings.Contains(string(r.Result), "done") {
			t.Errorf("exchange %d: %s", i, r.Result)
		}
	}
	// Legacy requests have no place on a stateless endpoint.
	x := newExchange()
	ep.Handle(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(9), Method: "initialize", Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)}, x.send)
	if r := x.wait(t)[0].(*jsonrpc.Response); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("initialize on a stateless endpoint: %s %+v", r.Result, r.Error)
	}
}

// Ending an exchange's context cancels its call: the handler sees
// ErrExchangeClosed and nothing is sent for it.
func TestEndpointExchangeClosed(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	cause := make(chan error, 1)
	block := rawTool("block", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	ep := newServer(t, nil, block).NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	ctx, cancel := context.WithCancel(context.Background())
	x := newExchange()
	ep.Handle(ctx, modernRequest(1, "block", nil), x.send)
	time.Sleep(20 * time.Millisecond)
	cancel()
	if err := <-cause; !errors.Is(err, mcp.ErrExchangeClosed) {
		t.Errorf("cause: %v", err)
	}
	time.Sleep(20 * time.Millisecond)
	x.mu.Lock()
	defer x.mu.Unlock()
	if len(x.msgs) != 0 {
		t.Errorf("sent after the exchange closed: %+v", x.msgs)
	}
}

// A legacy session on an endpoint: initialize, then a call whose question
// to the client goes out on the call's exchange and whose answer comes
// back through Handle; list changes go to Unsolicited.
func TestEndpointLegacySession(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	srv := newServer(t, nil, greetTool())
	unsolicited := make(chan jsonrpc.Message, 4)
	ep := srv.NewEndpoint(mcp.EndpointOptions{Unsolicited: func(m jsonrpc.Message) { unsolicited <- m }})
	defer ep.Close()
	init := newExchange()
	caps, _ := json.Marshal(askCaps)
	ep.Handle(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "initialize", Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":` + string(caps) + `,"clientInfo":{"name":"t","version":"1"}}`)}, init.send)
	init.wait(t)
	ep.Handle(context.Background(), &jsonrpc.Notification{Method: "notifications/initialized"}, nil)

	call := make(chan jsonrpc.Message, 8)
	ep.Handle(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(2), Method: "tools/call", Params: json.RawMessage(`{"name":"greet"}`)}, func(m jsonrpc.Message) { call <- m })
	for {
		m := <-call
		if req, ok := m.(*jsonrpc.Request); ok {
			answer := `{"roots":[]}`
			if req.Method == "elicitation/create" {
				answer = `{"action":"accept","content":{"name":"Ada"}}`
			}
			ep.Handle(context.Background(), &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(answer)}, nil)
			continue
		}
		if r := m.(*jsonrpc.Response); !strings.Contains(string(r.Result), "Hello, Ada!") {
			t.Fatalf("call: %s %+v", r.Result, r.Error)
		}
		break
	}
	srv.MustAddTool(progressTool())
	select {
	case m := <-unsolicited:
		if n, ok := m.(*jsonrpc.Notification); !ok || n.Method != "notifications/tools/list_changed" {
			t.Errorf("unsolicited: %+v", m)
		}
	case <-time.After(2 * time.Second):
		t.Error("no list_changed on the unsolicited stream")
	}
}

// Requests after Close are refused; Close twice is fine.
func TestEndpointClosed(t *testing.T) {
	ep := newServer(t, nil, progressTool()).NewEndpoint(mcp.EndpointOptions{Stateless: true})
	ep.Close()
	ep.Close()
	x := newExchange()
	ep.Handle(context.Background(), modernRequest(1, "steps", nil), x.send)
	if r := x.wait(t)[0].(*jsonrpc.Response); r.Error == nil || !strings.Contains(r.Error.Message, "shutting down") {
		t.Errorf("after Close: %+v", r)
	}
}
