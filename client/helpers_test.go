package client_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// quiet is a logger that drops everything.
var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// bounded is a context that ends with the test or in 30 s.
func bounded(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

// Pair is add's arguments.
type Pair struct {
	A int `json:"a"`
	B int `json:"b"`
}

// Sum is add's result.
type Sum struct {
	Sum int `json:"sum"`
}

// testServer has tools (add, typed; slow, which waits to be cancelled;
// survey, which asks for elicitation and roots; steps, which reports
// progress), a resource and a prompt; page size 1, so lists have pages.
func testServer() *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"},
		&mcp.Options{Logger: quiet, PageSize: 1, ShutdownGrace: 50 * time.Millisecond})
	srv.MustAddTool(tool.New("add", "Adds.", func(_ context.Context, p Pair) (Sum, error) { return Sum{p.A + p.B}, nil }))
	srv.MustAddTool(tool.New("slow", "Waits to be cancelled.", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}))
	srv.MustAddTool(tool.New("survey", "Asks.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err1 := ask.Elicit(ctx, "ok?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"ok": {Boolean: &protocol.BooleanSchema{}}}}, ask.Key("ok"))
		roots, err2 := ask.Roots(ctx, ask.Key("roots"))
		if err := errors.Join(err1, err2); err != nil {
			return "", err
		}
		return fmt.Sprintf("%v %s", reply.Content["ok"], roots[0].URI), nil
	}))
	srv.MustAddTool(tool.New("steps", "Reports progress.", func(ctx context.Context, _ struct{}) (string, error) {
		for i := 1; i <= 3; i++ {
			mcp.ReportProgress(ctx, float64(i), 3, "step")
		}
		return "done", nil
	}))
	srv.MustAddResource(mcp.Resource{URI: "file:///readme", Name: "readme", MimeType: "text/plain", Read: mcp.StaticRead("hello")})
	srv.MustAddPrompt(mcp.NewPrompt("greet", "Greets.", func(_ context.Context, in struct {
		Name string `json:"name"`
	}) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("Hello, " + in.Name)}}, nil
	}))
	return srv
}

// connect serves srv over a pipe and connects a client to it; the test's
// cleanup closes the client and checks that Serve returned.
func connect(t testing.TB, srv *mcp.Server, opts *client.Options) *client.Client {
	t.Helper()
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	served := make(chan error, 1)
	ctx, stop := context.WithCancel(context.Background())
	go func() { served <- srv.Serve(ctx, serverEnd) }()
	if opts == nil {
		opts = &client.Options{}
	}
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	c, err := client.Connect(bounded(t), client.Conn{Conn: clientEnd}, opts)
	if err != nil {
		stop()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		stop()
		select {
		case err := <-served:
			if err != nil && !errors.Is(err, context.Canceled) {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(10 * time.Second):
			t.Error("Serve did not return")
		}
	})
	return c
}

// eras are the pinned eras and detection.
var eras = []struct {
	name string
	era  protocol.Era
}{{"legacy", protocol.Legacy}, {"modern", protocol.Modern}, {"auto", 0}}

// collect drains an iterator.
func collect[T any](t testing.TB, seq func(func(T, error) bool)) []T {
	t.Helper()
	var out []T
	for v, err := range seq {
		if err != nil {
			t.Fatal(err)
		}
		out = append(out, v)
	}
	return out
}
