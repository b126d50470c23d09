package mcphttp_test

import (
	"context"
	"io"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// probe calls a health handler and returns its status and body.
func probe(t *testing.T, h http.Handler, method string) (int, string) {
	t.Helper()
	w := httptest.NewRecorder()
	h.ServeHTTP(w, httptest.NewRequest(method, "http://10.0.0.7:8080/readyz", nil))
	if cc := w.Header().Get("Cache-Control"); cc != "no-store" {
		t.Errorf("Cache-Control %q", cc)
	}
	return w.Code, strings.TrimSpace(w.Body.String())
}

// Liveness is 200 throughout; readiness is 200 until Drain, then 503
// (draining) while requests are still served, and 503 (closed) after
// Close. Neither checks the Host (a probe names the instance by address).
func TestHealthLifecycle(t *testing.T) {
	f := start(t, newServer(t, progressTool()), nil)
	live, ready := f.h.LiveHandler(), f.h.ReadyHandler()
	want := func(what string, h http.Handler, status int, body string) {
		t.Helper()
		if gotStatus, gotBody := probe(t, h, http.MethodGet); gotStatus != status || gotBody != body {
			t.Errorf("%s: %d %s, want %d %s", what, gotStatus, gotBody, status, body)
		}
	}
	want("live", live, 200, `{"status":"ok"}`)
	want("ready", ready, 200, `{"status":"ok"}`)
	if status, body := probe(t, ready, http.MethodHead); status != 200 || body != "" {
		t.Errorf("HEAD: %d %q", status, body)
	}
	if status, _ := probe(t, ready, http.MethodPost); status != http.StatusMethodNotAllowed {
		t.Errorf("POST: %d", status)
	}

	f.h.Drain()
	f.h.Drain() // idempotent
	want("ready while draining", ready, 503, `{"status":"draining"}`)
	want("live while draining", live, 200, `{"status":"ok"}`)
	if r := f.postRead(modernHeaders("tools/list", ""), cheapList); r.status != http.StatusOK {
		t.Errorf("a request while draining: %d %s", r.status, r.body)
	}

	f.h.Close()
	want("ready once closed", ready, 503, `{"status":"closed"}`)
	want("live once closed", live, 200, `{"status":"ok"}`)
}

// With UnreadyWhenFull readiness is 503 while MaxRequests POSTs are in
// flight, and 200 again once one ends; without it, 200 throughout.
func TestReadyWhenFull(t *testing.T) {
	for _, unready := range []bool{true, false} {
		started, release := make(chan struct{}, 1), make(chan struct{})
		f := start(t, newServer(t, holding("a", started, release)), &mcphttp.Options{MaxRequests: 1, UnreadyWhenFull: unready})
		held := f.postAsync(modernHeaders("tools/call", "a"), modernBody(1, "tools/call", map[string]any{"name": "a"}, nil))
		<-started
		status, body := probe(t, f.h.ReadyHandler(), http.MethodGet)
		if unready && (status != 503 || body != `{"status":"full"}`) || !unready && status != 200 {
			t.Errorf("UnreadyWhenFull %v, full: %d %s", unready, status, body)
		}
		close(release)
		<-held
		if status, body := probe(t, f.h.ReadyHandler(), http.MethodGet); status != 200 {
			t.Errorf("UnreadyWhenFull %v, after: %d %s", unready, status, body)
		}
	}
}

// overloads is an mcp.Observer that keeps the overloads and the session
// ids of the requests it sees.
type overloads struct {
	mu       sync.Mutex
	got      []mcp.Overload
	sessions []string
}

func (o *overloads) StartRequest(ctx context.Context, r *mcp.ObservedRequest) context.Context {
	o.mu.Lock()
	o.sessions = append(o.sessions, r.SessionID)
	o.mu.Unlock()
	return ctx
}
func (o *overloads) EndRequest(context.Context, *mcp.ObservedRequest, mcp.RequestEnd) {}
func (o *overloads) Overload(_ context.Context, ov mcp.Overload) {
	o.mu.Lock()
	o.got = append(o.got, ov)
	o.mu.Unlock()
}

// The 503s of the handler's own limits reach the server's observer, and
// a legacy session's requests carry its id.
func TestOverloadsObserved(t *testing.T) {
	obs := &overloads{}
	started, release := make(chan struct{}, 1), make(chan struct{})
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, &mcp.Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Observer: obs, ShutdownGrace: 200 * time.Millisecond,
	})
	srv.MustAddTool(holding("a", started, release))
	f := start(t, srv, &mcphttp.Options{MaxRequests: 1, MaxSessions: 1})
	sid := f.initialize(`{}`)
	obs.mu.Lock()
	if len(obs.sessions) != 1 || obs.sessions[0] != sid {
		t.Errorf("session ids %q, want [%s]", obs.sessions, sid)
	}
	obs.mu.Unlock()

	r := f.postRead(legacyHeaders(""), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if r.status != http.StatusServiceUnavailable {
		t.Fatalf("second session: %d %s", r.status, r.body)
	}
	held := f.postAsync(modernHeaders("tools/call", "a"), modernBody(1, "tools/call", map[string]any{"name": "a"}, nil))
	<-started
	wantOverloaded(t, f.postRead(modernHeaders("tools/list", ""), cheapList), "beyond MaxRequests")
	close(release)
	<-held

	obs.mu.Lock()
	defer obs.mu.Unlock()
	want := []mcp.Overload{
		{Limit: "MaxSessions", Method: "initialize", Transport: mcp.TransportHTTP},
		{Limit: "MaxRequests", Method: "tools/list", Transport: mcp.TransportHTTP},
	}
	if len(obs.got) != len(want) || obs.got[0] != want[0] || obs.got[1] != want[1] {
		t.Errorf("overloads %+v, want %+v", obs.got, want)
	}
}

// Serve answers the health checks beside its endpoint, and once its
// context ends keeps serving for DrainDelay with readiness at 503.
func TestServeDrains(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithCancel(context.Background())
	urls := make(chan string, 1)
	done := make(chan error, 1)
	go func() {
		done <- mcphttp.Serve(ctx, ln, newServer(t, progressTool()), &mcphttp.ServeOptions{
			Options: mcphttp.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))},
			Grace:   100 * time.Millisecond, DrainDelay: 300 * time.Millisecond, OnListen: func(u string) { urls <- u },
		})
	}()
	url := <-urls
	base := strings.TrimSuffix(url, "/mcp")
	client := &http.Client{Transport: &http.Transport{}}
	defer client.CloseIdleConnections()
	get := func(path string) int {
		t.Helper()
		resp, err := client.Get(base + path)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode
	}
	if live, ready := get("/livez"), get("/readyz"); live != 200 || ready != 200 {
		t.Fatalf("before: live %d, ready %d", live, ready)
	}
	cancel()
	deadline := time.Now().Add(250 * time.Millisecond)
	for get("/readyz") != http.StatusServiceUnavailable {
		if time.Now().After(deadline) {
			t.Fatal("readiness still 200 after the context ended")
		}
		time.Sleep(5 * time.Millisecond)
	}
	if live := get("/livez"); live != 200 {
		t.Errorf("live while draining: %d", live)
	}
	req, _ := http.NewRequest(http.MethodPost, url, strings.NewReader(modernBody(1, "server/discover", nil, nil)))
	req.Header = modernHeaders("server/discover", "")
	resp, err := client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	io.Copy(io.Discard, resp.Body)
	resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("a request while draining: %d", resp.StatusCode)
	}
	client.CloseIdleConnections()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(3 * time.Second):
		t.Fatal("Serve did not return after draining")
	}
}
