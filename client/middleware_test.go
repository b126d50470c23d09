package client_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// The chain sees every request in order, outermost first, with the
// connection's era; it can rewrite params, answer, refuse, and its
// answers still pass the gates.
func TestClientMiddleware(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			var mu sync.Mutex
			var seen []string
			note := func(name string) client.Middleware {
				return func(next client.Handler) client.Handler {
					return func(ctx context.Context, req *client.Request) (json.RawMessage, error) {
						mu.Lock()
						seen = append(seen, fmt.Sprintf("%s %s %s %v", name, req.Method, req.Era, req.IsNotification()))
						mu.Unlock()
						return next(ctx, req)
					}
				}
			}
			policy := func(next client.Handler) client.Handler {
				return func(ctx context.Context, req *client.Request) (json.RawMessage, error) {
					if req.Method != protocol.MethodCallTool {
						return next(ctx, req)
					}
					var p struct {
						Name string `json:"name"`
					}
					json.Unmarshal(req.Params, &p)
					switch p.Name {
					case "forbidden":
						return nil, errors.New("policy: not this one")
					case "double":
						req.Params = json.RawMessage(`{"name":"add","arguments":{"a":2,"b":2}}`)
					case "fake":
						return json.RawMessage(`{"content":"not a list"}`), nil // the Consume gate refuses it
					}
					return next(ctx, req)
				}
			}
			c := connect(t, testServer(), &client.Options{Era: e.era, Roots: []protocol.Root{{URI: "file:///a"}},
				Middleware: []client.Middleware{note("outer"), note("inner"), policy}})
			ctx := bounded(t)
			if _, err := c.CallTool(ctx, "forbidden", nil); err == nil || !strings.Contains(err.Error(), "policy: not this one") {
				t.Fatalf("forbidden: %v", err)
			}
			if r, err := c.CallTool(ctx, "double", nil); err != nil || string(r.StructuredContent) != `{"sum":4}` {
				t.Fatalf("double: %+v, %v", r, err)
			}
			if _, err := c.CallTool(ctx, "fake", nil); err == nil {
				t.Fatal("a middleware's malformed result passed the Consume gate")
			}
			if err := c.SetRoots(ctx, []protocol.Root{{URI: "file:///b"}}); err != nil {
				t.Fatal(err)
			}
			mu.Lock()
			got := strings.Join(seen, "\n")
			mu.Unlock()
			era := c.Info().Era.String()
			for _, want := range []string{
				"outer tools/call " + era + " false\ninner tools/call " + era + " false",
				"outer tools/list " + era + " false\ninner tools/list " + era + " false",
			} {
				if !strings.Contains(got, want) {
					t.Fatalf("the chain saw:\n%s\nwant a run of:\n%s", got, want)
				}
			}
			if c.Info().Era == protocol.Legacy && !strings.Contains(got, "outer notifications/roots/list_changed legacy true") {
				t.Fatalf("SetRoots' notification did not go through the chain:\n%s", got)
			}
		})
	}
}

// An error a middleware returns is the call's, as it returned it; a
// server's error response reaches it as a *jsonrpc.Error.
func TestClientMiddlewareErrors(t *testing.T) {
	var fromServer error
	mw := func(next client.Handler) client.Handler {
		return func(ctx context.Context, req *client.Request) (json.RawMessage, error) {
			raw, err := next(ctx, req)
			if req.Method == protocol.MethodReadResource {
				fromServer = err
			}
			return raw, err
		}
	}
	c := connect(t, testServer(), &client.Options{Middleware: []client.Middleware{mw}})
	_, err := c.ReadResource(bounded(t), "file:///nothing")
	var je *jsonrpc.Error
	if !errors.As(fromServer, &je) || !errors.Is(err, fromServer) {
		t.Fatalf("the middleware saw %v, the caller %v", fromServer, err)
	}
}

// Progress still reaches the caller through a chain.
func TestClientMiddlewareProgress(t *testing.T) {
	pass := func(next client.Handler) client.Handler { return next }
	c := connect(t, testServer(), &client.Options{Middleware: []client.Middleware{pass}})
	var mu sync.Mutex
	var got []float64
	ctx := client.WithProgress(bounded(t), func(p protocol.ProgressNotificationParams) {
		mu.Lock()
		got = append(got, p.Progress)
		mu.Unlock()
	})
	if _, err := c.CallTool(ctx, "steps", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	defer mu.Unlock()
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("progress %v, want [1 2 3]", got)
	}
}
