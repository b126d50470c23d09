package gateway_test

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"os"
	"slices"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/internal/testsupport/pipeclient"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

var quiet = slog.New(slog.NewTextHandler(io.Discard, nil))

// TestMain serves as a stdio upstream when the test binary is run with
// GATEWAY_TEST_UPSTREAM set: the test's stdio upstream is this binary.
func TestMain(m *testing.M) {
	if os.Getenv("GATEWAY_TEST_UPSTREAM") != "" {
		if block := os.Getenv("GATEWAY_TEST_BLOCK"); block != "" {
			if _, err := os.Stat(block); err == nil {
				os.Exit(3) // a server that cannot start, while the file exists
			}
		}
		srv := mcp.NewServer(mcp.Implementation{Name: "stdio-upstream", Version: "1"}, &mcp.Options{Logger: quiet})
		srv.MustAddTool(tool.New("whoami", "Says which upstream answers.", func(context.Context, struct{}) (string, error) {
			return "stdio " + os.Getenv("GATEWAY_TEST_UPSTREAM"), nil
		}))
		srv.MustAddTool(tool.New("crash", "Dies mid-call.", func(context.Context, struct{}) (string, error) {
			os.Exit(1)
			return "", nil
		}))
		if err := mcp.RunStdio(context.Background(), srv, nil); err != nil {
			os.Exit(1)
		}
		os.Exit(0)
	}
	os.Exit(m.Run())
}

type text struct {
	Text string `json:"text"`
}

// upstreamServer is an in-process upstream named name: tools read (its
// own answer), steps (progress) and wait (until cancelled), a prompt, a
// resource at uri and a template whose {id} completes.
func upstreamServer(name, uri string, cancelled chan<- struct{}) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: name, Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("read", "Reads.", func(_ context.Context, in text) (string, error) { return name + " read " + in.Text, nil }))
	srv.MustAddTool(tool.New("steps", "Reports progress.", func(ctx context.Context, _ struct{}) (string, error) {
		for i := 1; i <= 3; i++ {
			mcp.ReportProgress(ctx, float64(i), 3, "step")
		}
		return "done", nil
	}))
	srv.MustAddTool(tool.New("wait", "Waits to be cancelled.", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		if cancelled != nil {
			cancelled <- struct{}{}
		}
		return "", ctx.Err()
	}))
	srv.MustAddTool(tool.New("fail", "Fails.", func(context.Context, struct{}) (string, error) { return "", errors.New(name + " failed") }))
	srv.MustAddPrompt(mcp.NewPrompt("greet", "Greets.", func(_ context.Context, in struct {
		Who string `json:"who"`
	}) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage(name + " greets " + in.Who)}}, nil
	}))
	srv.MustAddResource(mcp.Resource{URI: uri, Name: "readme", MimeType: "text/plain", Read: mcp.StaticRead(name + " readme")})
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://" + name + "/{id}", Name: "item",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextContents(uri, "text/plain", name+" item "+vars["id"])}, nil
		},
		Complete: map[string]mcp.CompleteFunc{"id": mcp.CompletePrefix("alpha", "beta")}})
	return srv
}

// serveGateway serves g's server over a pipe to a client of era.
func serveGateway(t *testing.T, g *gateway.Gateway, era protocol.Era) *client.Client {
	t.Helper()
	return pipeclient.Connect(t, g.Server(), &client.Options{Era: era, Logger: quiet})
}

func bounded(t *testing.T) context.Context {
	ctx, cancel := context.WithTimeout(t.Context(), 30*time.Second)
	t.Cleanup(cancel)
	return ctx
}

func newGateway(t *testing.T, cfg *gateway.Config) *gateway.Gateway {
	t.Helper()
	g, err := gateway.New(bounded(t), cfg, &gateway.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { g.Close() })
	return g
}

func names[T any](t *testing.T, seq func(func(T, error) bool), name func(T) string) []string {
	t.Helper()
	var out []string
	var failed error
	for v, err := range seq {
		if err != nil {
			failed = err
			break
		}
		out = append(out, name(v))
	}
	if failed != nil {
		t.Fatal(failed)
	}
	slices.Sort(out)
	return out
}

// Two upstreams in process and one over stdio, served as one in both
// eras: namespaced tools and prompts, resources under their URIs,
// templates with completion routed to their upstream.
func TestGateway(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	g := newGateway(t, &gateway.Config{Upstreams: []gateway.Upstream{
		{Name: "files", Server: upstreamServer("files", "file:///readme", nil)},
		{Name: "notes", Server: upstreamServer("notes", "note://readme", nil)},
		{Name: "proc", Command: []string{exe, "-test.run=^$"}, Env: map[string]string{"GATEWAY_TEST_UPSTREAM": "one"}},
	}})
	for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
		t.Run(era.String(), func(t *testing.T) {
			c := serveGateway(t, g, era)
			ctx := bounded(t)
			tools := names(t, c.Tools(ctx), func(t *protocol.Tool) string { return t.Name })
			want := []string{"files_fail", "files_read", "files_steps", "files_wait", "notes_fail", "notes_read", "notes_steps", "notes_wait", "proc_crash", "proc_whoami"}
			if !slices.Equal(tools, want) {
				t.Fatalf("tools %v, want %v", tools, want)
			}
			for name, want := range map[string]string{"files_read": "files read x", "notes_read": "notes read x", "proc_whoami": "stdio one"} {
				var args any = text{"x"}
				if name == "proc_whoami" {
					args = nil
				}
				r, err := c.CallTool(ctx, name, args)
				if err != nil || r.Content[0].Text.Text != want {
					t.Fatalf("%s: %+v, %v; want %q", name, r, err, want)
				}
			}
			if r, err := c.CallTool(ctx, "files_fail", nil); err != nil || r.IsError == nil || !strings.Contains(r.Content[0].Text.Text, "files failed") {
				t.Fatalf("files_fail: %+v, %v", r, err)
			}
			if p, err := c.GetPrompt(ctx, "notes_greet", map[string]string{"who": "ada"}); err != nil || p.Messages[0].Content.Text.Text != "notes greets ada" {
				t.Fatalf("notes_greet: %+v, %v", p, err)
			}
			res := names(t, c.Resources(ctx), func(r *protocol.Resource) string { return r.URI })
			if !slices.Equal(res, []string{"file:///readme", "note://readme"}) {
				t.Fatalf("resources %v", res)
			}
			if r, err := c.ReadResource(ctx, "note://readme"); err != nil || r.Contents[0].Text.Text != "notes readme" {
				t.Fatalf("note://readme: %+v, %v", r, err)
			}
			if r, err := c.ReadResource(ctx, "test://files/7"); err != nil || r.Contents[0].Text.Text != "files item 7" {
				t.Fatalf("test://files/7: %+v, %v", r, err)
			}
			comp, err := c.Complete(ctx, protocol.CompletionReference{Resource: &protocol.ResourceTemplateReference{URI: "test://notes/{id}"}}, "id", "al")
			if err != nil || fmt.Sprint(comp.Values) != "[alpha]" {
				t.Fatalf("completion: %+v, %v", comp, err)
			}
			if _, err := c.CallTool(ctx, "nope_read", nil); err == nil {
				t.Fatal("nope_read answered")
			}
		})
	}
}

// Progress goes back to the caller; a cancelled call is cancelled
// upstream.
func TestGatewayProgressAndCancel(t *testing.T) {
	cancelled := make(chan struct{}, 1)
	g := newGateway(t, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "a", Server: upstreamServer("a", "a://r", cancelled)}}})
	c := serveGateway(t, g, protocol.Legacy)
	var mu sync.Mutex
	var got []float64
	ctx := client.WithProgress(bounded(t), func(p protocol.ProgressNotificationParams) {
		mu.Lock()
		got = append(got, p.Progress)
		mu.Unlock()
	})
	if _, err := c.CallTool(ctx, "a_steps", nil); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	if fmt.Sprint(got) != "[1 2 3]" {
		t.Fatalf("progress %v", got)
	}
	mu.Unlock()
	cctx, cancel := context.WithCancel(bounded(t))
	errc := make(chan error, 1)
	go func() {
		_, err := c.CallTool(cctx, "a_wait", nil)
		errc <- err
	}()
	time.Sleep(100 * time.Millisecond) // let the call reach the upstream; the wait below is the real check
	cancel()
	select {
	case <-cancelled:
	case <-time.After(10 * time.Second):
		t.Fatal("the upstream's call was never cancelled")
	}
	if err := <-errc; err == nil {
		t.Fatal("the cancelled call answered")
	}
}

// A name two upstreams give after namespacing, and a URI two list, stop
// the start naming both; excluding the URI from one settles it.
func TestGatewayCollisions(t *testing.T) {
	two := func(flat bool, exclude []string) error {
		g, err := gateway.New(bounded(t), &gateway.Config{NoNamespace: flat, Upstreams: []gateway.Upstream{
			{Name: "a", Server: upstreamServer("a", "same://r", nil)},
			{Name: "b", Server: upstreamServer("b", "same://r", nil), ExcludeResources: exclude},
		}}, &gateway.Options{Logger: quiet})
		if err == nil {
			g.Close()
		}
		return err
	}
	if err := two(true, nil); err == nil || !strings.Contains(err.Error(), `tool "read" is served by both "a" and "b"`) {
		t.Fatalf("flat names: %v", err)
	}
	if err := two(false, nil); err == nil || !strings.Contains(err.Error(), `resource "same://r" is served by both "a" and "b"`) {
		t.Fatalf("one URI: %v", err)
	}
	if err := two(false, []string{"same://r"}); err != nil {
		t.Fatalf("excluded: %v", err)
	}
}

// A tool an upstream adds later appears, and the gateway's clients are
// told; one it removes goes.
func TestGatewayListChanged(t *testing.T) {
	up := upstreamServer("a", "a://r", nil)
	g := newGateway(t, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "a", Server: up}}})
	notified := make(chan struct{}, 8)
	a, b := transport.Pipe(transport.Options{})
	go g.Server().Serve(t.Context(), a)
	c, err := client.Connect(bounded(t), client.Conn{Conn: b}, &client.Options{Era: protocol.Legacy, Logger: quiet,
		OnNotification: func(n *jsonrpc.Notification) {
			if n.Method == protocol.NotificationToolListChanged {
				select {
				case notified <- struct{}{}:
				default: // one waiting is enough
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	names(t, c.Tools(bounded(t)), func(t *protocol.Tool) string { return t.Name })
	up.MustAddTool(tool.New("late", "Came late.", func(context.Context, struct{}) (string, error) { return "late", nil }))
	up.RemoveTool("fail")
	deadline := time.After(10 * time.Second)
	var tools []string
	for {
		select {
		case <-notified:
		case <-deadline:
			t.Fatalf("the tools never changed: %v", tools)
		}
		tools = names(t, c.Tools(bounded(t)), func(t *protocol.Tool) string { return t.Name })
		if slices.Contains(tools, "a_late") && !slices.Contains(tools, "a_fail") {
			return
		}
	}
}

// An upstream that cannot start stops the gateway's start, naming it.
func TestGatewayUpstreamFails(t *testing.T) {
	_, err := gateway.New(bounded(t), &gateway.Config{Upstreams: []gateway.Upstream{
		{Name: "gone", Command: []string{"/nonexistent/server"}},
	}}, &gateway.Options{Logger: quiet})
	if err == nil || !strings.Contains(err.Error(), `upstream "gone"`) {
		t.Fatalf("New: %v", err)
	}
}

// serveGatewayWith serves g's server over a pipe to a client with opts.
func serveGatewayWith(t *testing.T, g *gateway.Gateway, opts *client.Options) *client.Client {
	t.Helper()
	return pipeclient.Connect(t, g.Server(), opts)
}

func pipeclientConnect(tb testing.TB, srv *mcp.Server, era protocol.Era) *client.Client {
	return pipeclient.Connect(tb, srv, &client.Options{Era: era, Logger: quiet})
}
