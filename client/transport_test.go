package client_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"os"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
)

// serverEnv makes the test binary a stdio server (see TestMain): "test"
// serves testServer, "stderr" writes to stderr first, "deaf" reads
// nothing and never exits on its stdin's end.
const serverEnv = "MCPWIRE_CLIENT_TEST_SERVER"

func TestMain(m *testing.M) {
	switch os.Getenv(serverEnv) {
	case "":
		os.Exit(m.Run())
	case "stderr":
		fmt.Fprintln(os.Stderr, "starting up\nsecond line")
		fallthrough
	case "test":
		if err := mcp.RunStdio(context.Background(), testServer(), nil); err != nil {
			fmt.Fprintln(os.Stderr, err)
			os.Exit(1)
		}
		os.Exit(0)
	case "deaf":
		time.Sleep(time.Hour)
	}
}

// self is the command that runs this test binary as a server of kind.
func self(t testing.TB, kind string) client.Stdio {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	return client.Stdio{Command: []string{exe}, Env: append(os.Environ(), serverEnv+"="+kind), Grace: 500 * time.Millisecond}
}

func TestStdio(t *testing.T) {
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			before := leakcheck.Snapshot()
			ctx := bounded(t)
			c, err := client.Connect(ctx, self(t, "test"), &client.Options{Era: e.era, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			sum, err := client.CallToolAs[Sum](ctx, c, "add", Pair{40, 2})
			if err != nil || sum.Sum != 42 {
				t.Fatalf("add over stdio = %v, %v", sum, err)
			}
			// Arguments given as JSON that spans lines still make one
			// line of the stdio transport.
			sum, err = client.CallToolAs[Sum](ctx, c, "add", json.RawMessage("{\n  \"a\": 1,\r\n  \"b\": 2\n}"))
			if err != nil || sum.Sum != 3 {
				t.Fatalf("add with arguments over three lines = %v, %v", sum, err)
			}
			if got := c.Findings(); len(got) != 0 {
				t.Errorf("findings: %v", got)
			}
			if err := c.Close(); err != nil {
				t.Fatalf("Close: %v", err)
			}
			leakcheck.Check(t, before)
		})
	}
}

// lines is a slog handler that keeps the messages' line attributes.
type lines struct {
	mu  sync.Mutex
	got []string
}

func (l *lines) Enabled(context.Context, slog.Level) bool { return true }
func (l *lines) WithAttrs([]slog.Attr) slog.Handler       { return l }
func (l *lines) WithGroup(string) slog.Handler            { return l }
func (l *lines) Handle(_ context.Context, r slog.Record) error {
	r.Attrs(func(a slog.Attr) bool {
		if a.Key == "line" {
			l.mu.Lock()
			l.got = append(l.got, a.Value.String())
			l.mu.Unlock()
		}
		return true
	})
	return nil
}

func TestStdioStderr(t *testing.T) {
	h := &lines{}
	c, err := client.Connect(bounded(t), self(t, "stderr"), &client.Options{Logger: slog.New(h)})
	if err != nil {
		t.Fatal(err)
	}
	c.Close() // waits for the process, so its stderr is read
	h.mu.Lock()
	defer h.mu.Unlock()
	if len(h.got) < 2 || h.got[0] != "starting up" || h.got[1] != "second line" {
		t.Fatalf("stderr logged as %q", h.got)
	}

	var buf syncBuffer
	st := self(t, "stderr")
	st.Stderr = &buf
	c, err = client.Connect(bounded(t), st, &client.Options{Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	c.Close()
	if !strings.HasPrefix(buf.String(), "starting up\n") {
		t.Fatalf("stderr handed on as %q", buf.String())
	}
}

// syncBuffer is a bytes.Buffer safe for a writer and a reader.
type syncBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *syncBuffer) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *syncBuffer) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// A server that never answers: the handshake ends with the caller's
// context, and what Connect started is ended (SIGTERM, then SIGKILL).
func TestStdioDeafServer(t *testing.T) {
	ctx, cancel := context.WithTimeout(t.Context(), 3*time.Second)
	defer cancel()
	start := time.Now()
	_, err := client.Connect(ctx, self(t, "deaf"), &client.Options{Logger: quiet, DiscoverTimeout: 200 * time.Millisecond})
	if err == nil {
		t.Fatal("connected to a server that never answers")
	}
	if d := time.Since(start); d > 20*time.Second {
		t.Fatalf("Connect took %v", d)
	}
}

func TestStdioNoCommand(t *testing.T) {
	if _, err := client.Connect(bounded(t), client.Stdio{}, nil); err == nil || !strings.Contains(err.Error(), "Command") {
		t.Fatalf("no command: %v", err)
	}
	if _, err := client.Connect(bounded(t), client.Stdio{Command: []string{"/nonexistent/server"}}, nil); err == nil {
		t.Fatal("a command that does not exist connected")
	}
}

func TestHTTP(t *testing.T) {
	srv := httptest.NewServer(mcphttp.NewHandler(testServer(), nil))
	defer srv.Close()
	for _, e := range eras {
		t.Run(e.name, func(t *testing.T) {
			ctx := bounded(t)
			c, err := client.Connect(ctx, client.HTTP{URL: srv.URL, Header: http.Header{"X-Test": {"1"}}}, &client.Options{
				Era: e.era, Logger: quiet,
				Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
					return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": []byte("false")}}, nil
				},
				Roots: []protocol.Root{{URI: "file:///h"}},
			})
			if err != nil {
				t.Fatal(err)
			}
			defer c.Close()
			if len(collect(t, c.Tools(ctx))) != 4 {
				t.Fatal("tools over HTTP")
			}
			sum, err := client.CallToolAs[Sum](ctx, c, "add", Pair{1, 2})
			if err != nil || sum.Sum != 3 {
				t.Fatalf("add over HTTP = %v, %v", sum, err)
			}
			res, err := c.CallTool(ctx, "survey", nil)
			if err != nil || res.Content[0].Text.Text != "false file:///h" {
				t.Fatalf("survey over HTTP = %+v, %v", res, err)
			}
			if err := c.Ping(ctx); err != nil {
				t.Fatal(err)
			}
		})
	}
}

func TestHTTPRefused(t *testing.T) {
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		http.Error(w, "no", http.StatusForbidden)
	}))
	defer srv.Close()
	_, err := client.Connect(bounded(t), client.HTTP{URL: srv.URL}, &client.Options{Logger: quiet, Era: protocol.Modern})
	if err == nil || !strings.Contains(err.Error(), "403") {
		t.Fatalf("a 403 endpoint: %v", err)
	}
	if _, err := client.Connect(bounded(t), client.HTTP{URL: "::bad"}, nil); err == nil {
		t.Fatal("a bad URL connected")
	}
}

// A legacy session the server ends (404 to its id) fails every later call
// with ErrSessionExpired, and a new Connect starts a new session.
func TestHTTPSessionExpired(t *testing.T) {
	var ended atomic.Bool
	h := mcphttp.NewHandler(testServer(), nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if ended.Load() && r.Header.Get("Mcp-Session-Id") != "" {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	ctx := bounded(t)
	c, err := client.Connect(ctx, client.HTTP{URL: srv.URL}, &client.Options{Era: protocol.Legacy, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if err := c.Ping(ctx); err != nil {
		t.Fatal(err)
	}
	ended.Store(true)
	for range 2 {
		if _, err := c.CallTool(ctx, "add", Pair{1, 1}); !errors.Is(err, client.ErrSessionExpired) {
			t.Fatalf("a call in an ended session: %v", err)
		}
	}
	ended.Store(false)
	c2, err := client.Connect(ctx, client.HTTP{URL: srv.URL}, &client.Options{Era: protocol.Legacy, Logger: quiet})
	if err != nil {
		t.Fatal(err)
	}
	defer c2.Close()
	if _, err := client.CallToolAs[Sum](ctx, c2, "add", Pair{1, 1}); err != nil {
		t.Fatalf("a new session: %v", err)
	}
}

// Many goroutines share one HTTP client in each era, and Close leaves no
// goroutine behind (the server, in the same process, is closed too).
func TestHTTPConcurrent(t *testing.T) {
	for _, e := range eras[:2] {
		t.Run(e.name, func(t *testing.T) {
			before := leakcheck.Snapshot()
			h := mcphttp.NewHandler(testServer(), nil)
			srv := httptest.NewServer(h)
			ctx := bounded(t)
			c, err := client.Connect(ctx, client.HTTP{URL: srv.URL}, &client.Options{Era: e.era, Logger: quiet})
			if err != nil {
				t.Fatal(err)
			}
			var wg sync.WaitGroup
			errs := make(chan error, 8)
			for i := range 8 {
				wg.Go(func() {
					for j := range 10 {
						sum, err := client.CallToolAs[Sum](ctx, c, "add", Pair{i, j})
						if err == nil && sum.Sum != i+j {
							err = fmt.Errorf("add(%d, %d) = %d", i, j, sum.Sum)
						}
						if err != nil {
							errs <- err
							return
						}
					}
				})
			}
			wg.Wait()
			close(errs)
			for err := range errs {
				t.Error(err)
			}
			if err := c.Close(); err != nil {
				t.Fatal(err)
			}
			srv.Close()
			h.Close()
			leakcheck.Check(t, before)
		})
	}
}

// With Options.Reinitialize, a call refused for an ended session starts a
// new session and is sent again in it, once for all the calls waiting.
func TestHTTPReinitialize(t *testing.T) {
	var mu sync.Mutex
	ended := map[string]bool{} // session ids the server ended
	var first string
	opened := 0 // POSTs without a session id: initialize
	h := mcphttp.NewHandler(testServer(), nil)
	srv := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		sid := r.Header.Get("Mcp-Session-Id")
		mu.Lock()
		if first == "" && sid != "" {
			first = sid
		}
		if sid == "" && r.Method == http.MethodPost {
			opened++
		}
		gone := ended[sid]
		mu.Unlock()
		if gone {
			http.Error(w, "no such session", http.StatusNotFound)
			return
		}
		h.ServeHTTP(w, r)
	}))
	defer srv.Close()
	defer h.Close()
	ctx := bounded(t)
	c, err := client.Connect(ctx, client.HTTP{URL: srv.URL}, &client.Options{Era: protocol.Legacy, Logger: quiet, Reinitialize: true})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	if _, err := client.CallToolAs[Sum](ctx, c, "add", Pair{1, 1}); err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	ended[first] = true
	mu.Unlock()
	var wg sync.WaitGroup
	for i := range 4 {
		wg.Go(func() {
			if sum, err := client.CallToolAs[Sum](ctx, c, "add", Pair{i, 1}); err != nil || sum.Sum != i+1 {
				t.Errorf("after the session ended: %v, %v", sum, err)
			}
		})
	}
	wg.Wait()
	mu.Lock()
	defer mu.Unlock()
	if opened != 2 {
		t.Fatalf("%d sessions initialized, want 2: the first and one new one", opened)
	}
}
