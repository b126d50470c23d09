package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// realServer is an mcp.Server with an adding tool, a slow one and one that
// asks the client three questions.
func realServer(t testing.TB) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "real", Version: "1"},
		&mcp.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), PageSize: 1, ShutdownGrace: 50 * time.Millisecond})
	type in struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type out struct {
		Sum int `json:"sum"`
	}
	srv.MustAddTool(tool.New("add", "Adds.", func(_ context.Context, x in) (out, error) { return out{x.A + x.B}, nil }))
	srv.MustAddTool(tool.New("slow", "Waits to be cancelled.", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		return "", ctx.Err()
	}))
	srv.MustAddTool(tool.New("survey", "Asks.", func(ctx context.Context, _ struct{}) (string, error) {
		reply, err1 := ask.Elicit(ctx, "ok?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"ok": {Boolean: &protocol.BooleanSchema{}}}}, ask.Key("ok"))
		roots, err2 := ask.Roots(ctx, ask.Key("roots"))
		name, err3 := ask.SampleText(ctx, "Name it.", 5, ask.Key("name"))
		if err := errors.Join(err1, err2, err3); err != nil {
			return "", err
		}
		return fmt.Sprintf("%v %s %s", reply.Content["ok"], roots[0].URI, name), nil
	}))
	return srv
}

// serveReal serves srv over a pipe and connects a session to it.
func serveReal(t testing.TB, srv *mcp.Server, opts Options) *Session {
	t.Helper()
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	served := make(chan error, 1)
	go func() { served <- srv.Serve(context.Background(), serverEnd) }()
	sess, err := Connect(bounded(t), clientEnd, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		sess.Close()
		if err := <-served; err != nil {
			t.Errorf("Serve: %v", err)
		}
	})
	return sess
}

func TestRealServer(t *testing.T) {
	handlers := Handlers{Elicit: acceptAll, Roots: rootsAnswer, Sample: sampleAnswer}
	for _, tt := range []struct {
		opts Options
		era  protocol.Era
	}{
		{Options{Handlers: handlers}, protocol.Modern},
		// A legacy version is only what Auto's fallback asks for.
		{Options{Handlers: handlers, ProtocolVersion: "2025-06-18"}, protocol.Modern},
		{Options{Handlers: handlers, Era: protocol.Legacy, ProtocolVersion: "2025-06-18"}, protocol.Legacy},
		{Options{Handlers: handlers, Era: protocol.Legacy}, protocol.Legacy},
	} {
		t.Run(fmt.Sprint(tt.opts.Era, tt.opts.ProtocolVersion), func(t *testing.T) {
			before := leakcheck.Snapshot()
			t.Cleanup(func() { leakcheck.Check(t, before) }) // after the session's cleanup
			sess := serveReal(t, realServer(t), tt.opts)
			if sess.Era() != tt.era || sess.ServerInfo().Name != "real" {
				t.Fatalf("era %v, server %+v (%s)", sess.Era(), sess.ServerInfo(), sess.Detection())
			}
			if want := tt.opts.ProtocolVersion; tt.era == protocol.Legacy && want != "" && sess.Revision() != want {
				t.Errorf("revision %s, want %s", sess.Revision(), want)
			}
			pages, err := sess.ListPages(bounded(t), "tools/list")
			if err != nil || len(pages) != 3 {
				t.Fatalf("%d pages, %v; want 3 (page size 1)", len(pages), err)
			}
			result, rpcErr, err := sess.Call(bounded(t), "tools/call", map[string]any{"name": "survey"})
			if err != nil || rpcErr != nil {
				t.Fatalf("survey: %v %v", rpcErr, err)
			}
			if !strings.Contains(string(result), `true file:///src hi`) {
				t.Errorf("survey result %s", result)
			}
			if p := sess.Problems(); len(p) != 0 {
				t.Errorf("problems %v", p)
			}
		})
	}
}

// Many goroutines call at once while others give up; then Close ends the
// calls still waiting. Run with -race.
func TestConcurrentCalls(t *testing.T) {
	before := leakcheck.Snapshot()
	t.Cleanup(func() { leakcheck.Check(t, before) })
	for _, era := range []protocol.Era{protocol.Modern, protocol.Legacy} {
		sess := serveReal(t, realServer(t), Options{Era: era})
		var wg sync.WaitGroup
		errs := make(chan error, 64)
		for g := range 16 {
			wg.Add(1)
			go func() {
				defer wg.Done()
				for i := range 8 {
					args := map[string]any{"name": "add", "arguments": map[string]int{"a": g, "b": i}}
					result, rpcErr, err := sess.Call(bounded(t), "tools/call", args)
					if err != nil || rpcErr != nil {
						errs <- fmt.Errorf("add: %v %v", rpcErr, err)
						return
					}
					var r protocol.CallToolResult
					if json.Unmarshal(result, &r) != nil || string(r.StructuredContent) != fmt.Sprintf(`{"sum":%d}`, g+i) {
						errs <- fmt.Errorf("add %d %d: %s", g, i, result)
						return
					}
				}
			}()
		}
		for range 4 { // give up on slow calls, concurrently
			wg.Add(1)
			go func() {
				defer wg.Done()
				ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
				defer cancel()
				if _, _, err := sess.Call(ctx, "tools/call", map[string]any{"name": "slow"}); !errors.Is(err, context.DeadlineExceeded) {
					errs <- fmt.Errorf("slow: %v", err)
				}
			}()
		}
		wg.Wait()
		waiting := make(chan error, 1)
		go func() {
			_, _, err := sess.Call(bounded(t), "tools/call", map[string]any{"name": "slow"})
			waiting <- err
		}()
		time.Sleep(10 * time.Millisecond)
		sess.Close()
		if err := <-waiting; !errors.Is(err, ErrClosed) {
			t.Errorf("%v: a call waiting at Close: %v, want ErrClosed", era, err)
		}
		close(errs)
		for err := range errs {
			t.Errorf("%v: %v", era, err)
		}
		if p := sess.Problems(); len(p) != 0 {
			t.Errorf("%v: problems %v", era, p)
		}
	}
}
