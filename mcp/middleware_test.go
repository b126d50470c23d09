package mcp_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// mwSeen records what middleware saw, safely across goroutines.
type mwSeen struct {
	mu    sync.Mutex
	lines []string
}

func (s *mwSeen) add(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.lines = append(s.lines, fmt.Sprintf(format, args...))
}

func (s *mwSeen) all() []string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return append([]string(nil), s.lines...)
}

// recorder notes each request as name: method target era notification.
func mwRecorder(name string, s *mwSeen) mcp.Middleware {
	return func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			s.add("%s %s %q %s %v", name, req.Method, req.Target, req.Era, req.IsNotification())
			return next(ctx, req)
		}
	}
}

var mwEcho = tool.New("echo", "Echoes.", func(_ context.Context, in struct {
	Text string `json:"text"`
}) (string, error) {
	return in.Text, nil
})

// Middleware runs in order, outermost first, for requests and
// notifications of both eras, and sees them routed.
func TestMiddlewareOrderAndRequest(t *testing.T) {
	var s mwSeen
	srv := newServer(t, &mcp.Options{Middleware: []mcp.Middleware{mwRecorder("outer", &s), mwRecorder("inner", &s)}}, mwEcho)
	c := start(t, srv)
	c.initialize("2025-11-25")
	if r := c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}}); r.Error != nil {
		t.Fatal(r.Error)
	}
	if r := c.request(jsonrpc.Int64ID(2), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "hi"}, "_meta": modernMeta(nil)}); r.Error != nil {
		t.Fatal(r.Error)
	}
	c.request(jsonrpc.Int64ID(3), "ping", nil)
	want := []string{
		`outer initialize "" legacy false`, `inner initialize "" legacy false`,
		`outer notifications/initialized "" legacy true`, `inner notifications/initialized "" legacy true`,
		`outer tools/call "echo" legacy false`, `inner tools/call "echo" legacy false`,
		`outer tools/call "echo" modern false`, `inner tools/call "echo" modern false`,
		`outer ping "" legacy false`, `inner ping "" legacy false`,
	}
	if got := s.all(); strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Fatalf("middleware saw:\n%s\nwant:\n%s", strings.Join(got, "\n"), strings.Join(want, "\n"))
	}
}

// A middleware can answer, refuse, rewrite the params, and change the
// result; the server keeps serving after one panics or answers nothing.
func TestMiddlewareAnswersRefusesRewrites(t *testing.T) {
	var ran int
	counted := tool.New("counted", "Counts.", func(context.Context, struct{}) (string, error) {
		ran++
		return "ran", nil
	})
	mw := func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			switch req.Target {
			case "refused":
				return nil, jsonrpc.NewError(-32001, "refused by policy")
			case "plain-error":
				return nil, errors.New("something failed")
			case "answered":
				return json.RawMessage(`{"content":[{"type":"text","text":"from the middleware"}]}`), nil
			case "nothing":
				return nil, nil
			case "panics":
				panic("boom")
			case "alias":
				req.Params = json.RawMessage(`{"name":"echo","arguments":{"text":"rewritten"}}`)
			case "garbled":
				req.Params = json.RawMessage(`{"name":`)
			}
			raw, err := next(ctx, req)
			if req.Target == "counted" && err == nil {
				raw = json.RawMessage(strings.Replace(string(raw), `"ran"`, `"ran, mwSeen"`, 1))
			}
			return raw, err
		}
	}
	srv := newServer(t, &mcp.Options{Middleware: []mcp.Middleware{mw}}, mwEcho, counted)
	c := start(t, srv)
	c.initialize("2025-11-25")
	call := func(id int64, name string) *jsonrpc.Response {
		return c.request(jsonrpc.Int64ID(id), "tools/call", map[string]any{"name": name, "arguments": map[string]any{}})
	}
	for name, want := range map[string]int64{"refused": -32001, "plain-error": jsonrpc.CodeInternalError, "nothing": jsonrpc.CodeInternalError,
		"panics": jsonrpc.CodeInternalError, "garbled": jsonrpc.CodeInvalidParams} {
		if r := call(1, name); r.Error == nil || r.Error.Code != want {
			t.Errorf("%s: %+v, want error %d", name, r, want)
		}
	}
	if r := call(2, "answered"); !strings.Contains(string(r.Result), "from the middleware") {
		t.Errorf("answered: %s", r.Result)
	}
	if r := call(3, "alias"); !strings.Contains(string(r.Result), `"text":"rewritten"`) {
		t.Errorf("alias: %s %+v", r.Result, r.Error)
	}
	if r := call(4, "counted"); !strings.Contains(string(r.Result), `ran, mwSeen`) || ran != 1 {
		t.Errorf("counted: %s (ran %d)", r.Result, ran)
	}
	if r := c.request(jsonrpc.Int64ID(5), "ping", nil); r.Error != nil {
		t.Fatalf("ping after all that: %v", r.Error)
	}
}

// The result a middleware gets back is the one the client gets: on
// 2026-07-28 with its envelope filled in.
func TestMiddlewareSeesTheEnvelope(t *testing.T) {
	var got json.RawMessage
	mw := func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			raw, err := next(ctx, req)
			if req.Method == protocol.MethodCallTool {
				got = raw
			}
			return raw, err
		}
	}
	c := start(t, newServer(t, &mcp.Options{Middleware: []mcp.Middleware{mw}}, mwEcho))
	r := c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "echo", "arguments": map[string]any{"text": "x"}, "_meta": modernMeta(nil)})
	if r.Error != nil || string(got) != string(r.Result) || !strings.Contains(string(got), `"resultType":"complete"`) {
		t.Fatalf("middleware saw %s, the client got %s", got, r.Result)
	}
}

// A middleware that drops notifications/cancelled keeps a call from being
// cancelled: notifications go through it too.
func TestMiddlewareNotifications(t *testing.T) {
	release := make(chan struct{})
	slow := tool.New("slow", "Waits.", func(ctx context.Context, _ struct{}) (string, error) {
		select {
		case <-ctx.Done():
			return "", ctx.Err()
		case <-release:
			return "done", nil
		}
	})
	var s mwSeen
	drop := func(next mcp.Handler) mcp.Handler {
		return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
			if req.Method == "notifications/cancelled" {
				s.add("dropped %s", req.Params)
				defer close(release)
				return nil, nil
			}
			return next(ctx, req)
		}
	}
	c := start(t, newServer(t, &mcp.Options{Middleware: []mcp.Middleware{drop}}, slow))
	c.initialize("2025-11-25")
	c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"slow","arguments":{}}`)})
	c.send(&jsonrpc.Notification{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":1}`)})
	r := c.await(jsonrpc.Int64ID(1))
	if !strings.Contains(string(r.Result), `"done"`) || len(s.all()) != 1 {
		t.Fatalf("the call: %s %+v; middleware: %q", r.Result, r.Error, s.all())
	}
}

// A Middleware returning a nil Handler is a programming error NewServer
// reports at once.
func TestMiddlewareNilHandlerPanics(t *testing.T) {
	defer func() {
		if p := recover(); p == nil || !strings.Contains(fmt.Sprint(p), "Options.Middleware[0]") {
			t.Fatalf("recovered %v", p)
		}
	}()
	mcp.NewServer(mcp.Implementation{Name: "s", Version: "1"}, &mcp.Options{Middleware: []mcp.Middleware{func(mcp.Handler) mcp.Handler { return nil }}})
}
