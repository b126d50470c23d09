package mcphttp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"strconv"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// initBody is a legacy client's initialize.
const initBody = `{"jsonrpc":"2.0","id":"i1","method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// trustLoopback makes the handler read X-Forwarded-For from the test's
// own requests, so that one test plays callers at many addresses.
var trustLoopback = []string{"127.0.0.1", "::1"}

// open sends initialize as a client at addr ("" for the test's own
// address; any other is forwarded, see trustLoopback) and, when handshake
// is set and it succeeded, notifications/initialized. It returns the
// initialize's reply.
func (f *fixture) open(addr string, handshake bool) reply {
	f.t.Helper()
	hd := legacyHeaders("")
	if addr != "" {
		hd.Set("X-Forwarded-For", addr)
	}
	r := f.postRead(hd, initBody)
	if sid := r.header.Get("Mcp-Session-Id"); handshake && r.status == http.StatusOK {
		if r := f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != http.StatusAccepted {
			f.t.Fatalf("initialized: %d %s", r.status, r.body)
		}
	}
	return r
}

// ping checks that session sid answers (200) or is gone (404).
func (f *fixture) ping(sid string, want int, what string) {
	f.t.Helper()
	if r := f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","id":"p","method":"tools/list"}`); r.status != want {
		f.t.Errorf("%s: %d %s, want %d", what, r.status, r.body, want)
	}
}

// observedServer is a server whose observer keeps the overloads.
func observedServer(t *testing.T) (*mcp.Server, *overloads) {
	obs := &overloads{}
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, &mcp.Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), Observer: obs, ShutdownGrace: 200 * time.Millisecond,
	})
	srv.MustAddTool(progressTool())
	return srv, obs
}

// retryAfterIn checks that r's Retry-After is a number of seconds within
// [lo, hi].
func retryAfterIn(t *testing.T, r reply, lo, hi int, what string) {
	t.Helper()
	n, err := strconv.Atoi(r.header.Get("Retry-After"))
	if err != nil || n < lo || n > hi {
		t.Errorf("%s: Retry-After %q, want %d to %d", what, r.header.Get("Retry-After"), lo, hi)
	}
}

// Failure 3 of the review: initializes that never complete the handshake
// no longer lock legacy clients out. One address opening sessions over and
// over ends its own oldest unfinished ones (MaxSessionsPerCaller), many
// addresses together end the table's oldest (MaxSessions); either way a
// new client is served at once, and the sessions in use go on.
func TestLegacySessionFlood(t *testing.T) {
	srv, obs := observedServer(t)
	f := start(t, srv, &mcphttp.Options{MaxSessions: 8, MaxSessionsPerCaller: 4, TrustedProxies: trustLoopback})
	for i := range 100 {
		if r := f.open("", false); r.status != http.StatusOK {
			t.Fatalf("initialize %d from one address: %d %s", i, r.status, r.body)
		}
	}
	mine := f.initialize(`{}`) // from the flooding address
	f.ping(mine, http.StatusOK, "a new client at the flooding address")

	for i := range 100 {
		if r := f.open(fmt.Sprintf("10.0.0.%d", i+1), false); r.status != http.StatusOK {
			t.Fatalf("initialize %d from many addresses: %d %s", i, r.status, r.body)
		}
	}
	r := f.open("10.1.0.1", true)
	theirs := r.header.Get("Mcp-Session-Id")
	if r.status != http.StatusOK {
		t.Fatalf("a new client at another address: %d %s", r.status, r.body)
	}
	f.ping(theirs, http.StatusOK, "the new client's session")
	f.ping(mine, http.StatusOK, "the first client's session, after the second flood")
	obs.mu.Lock()
	defer obs.mu.Unlock()
	if len(obs.got) != 0 {
		t.Errorf("overloads %+v: nothing was refused", obs.got)
	}
}

// A caller holding MaxSessionsPerCaller sessions, all initialized, gets
// 429 with the quota error and the initialize's id, and a Retry-After
// saying when one can expire; other callers are served, and so is the
// caller once it ended one.
func TestLegacySessionQuota(t *testing.T) {
	srv, obs := observedServer(t)
	f := start(t, srv, &mcphttp.Options{MaxSessionsPerCaller: 2, SessionIdleTimeout: time.Minute, TrustedProxies: trustLoopback})
	first := f.initialize(`{}`)
	f.initialize(`{}`)
	r := f.open("", false)
	if r.status != http.StatusTooManyRequests || r.errorCode() != mcp.CodeQuotaExceeded || r.msg["id"] != "i1" || r.header.Get("Mcp-Session-Id") != "" {
		t.Fatalf("beyond MaxSessionsPerCaller: %d %s", r.status, r.body)
	}
	data, _ := r.msg["error"].(map[string]any)["data"].(map[string]any)
	if data["reason"] != "quota" || data["limit"] != "MaxSessionsPerCaller" || data["max"] != float64(2) {
		t.Errorf("error data: %v", data)
	}
	retryAfterIn(t, r, 55, 60, "beyond MaxSessionsPerCaller") // both idle just now, SessionIdleTimeout 1 min
	if r := f.open("10.0.0.1", true); r.status != http.StatusOK {
		t.Errorf("another caller: %d %s", r.status, r.body)
	}
	if st := f.delete(first); st != http.StatusNoContent {
		t.Fatalf("DELETE: %d", st)
	}
	if r := f.open("", true); r.status != http.StatusOK {
		t.Errorf("after ending one: %d %s", r.status, r.body)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	want := mcp.Overload{Limit: "MaxSessionsPerCaller", Method: "initialize", Transport: mcp.TransportHTTP}
	if len(obs.got) != 1 || obs.got[0] != want {
		t.Errorf("overloads %+v, want [%+v]", obs.got, want)
	}
}

// With every session initialized or in use, an initialize gets 503 with a
// Retry-After saying when the soonest can end: a session in use counts as
// if it were released now, so one that never completed its handshake can
// end HandshakeTimeout after its initialize, an initialized one
// SessionIdleTimeout after its last use.
func TestLegacySessionsFullRetryAfter(t *testing.T) {
	srv, obs := observedServer(t)
	f := start(t, srv, &mcphttp.Options{MaxSessions: 2, HandshakeTimeout: 5 * time.Second, SessionIdleTimeout: time.Minute, TrustedProxies: trustLoopback})
	f.initialize(`{}`)
	r := f.open("10.0.0.1", false)
	pending := r.header.Get("Mcp-Session-Id")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := f.get(ctx, pending) // in use: not ended to make room
	defer stream.Body.Close()
	if stream.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d", stream.StatusCode)
	}
	r = f.open("10.0.0.2", false)
	if r.status != http.StatusServiceUnavailable || r.errorCode() != -32603 || r.msg["id"] != "i1" {
		t.Fatalf("beyond MaxSessions: %d %s", r.status, r.body)
	}
	retryAfterIn(t, r, 4, 5, "the pending session in use")
	f.ping(pending, http.StatusOK, "the pending session in use, after the refusal")
	obs.mu.Lock()
	defer obs.mu.Unlock()
	want := mcp.Overload{Limit: "MaxSessions", Method: "initialize", Transport: mcp.TransportHTTP}
	if len(obs.got) != 1 || obs.got[0] != want {
		t.Errorf("overloads %+v, want [%+v]", obs.got, want)
	}
}

// A session whose client never sends notifications/initialized ends
// HandshakeTimeout after its initialize was answered, unless in use; an
// initialized one does not.
func TestLegacyHandshakeTimeout(t *testing.T) {
	const timeout = 200 * time.Millisecond
	f := start(t, newServer(t, progressTool()), &mcphttp.Options{HandshakeTimeout: timeout})
	done := f.initialize(`{}`)
	busy := f.open("", false).header.Get("Mcp-Session-Id")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	stream := f.get(ctx, busy)
	defer stream.Body.Close()
	began := time.Now()
	idle := f.open("", false).header.Get("Mcp-Session-Id")
	if idle == "" || busy == "" {
		t.Fatal("initialize failed")
	}
	f.waitLog("handshake not completed", 1)
	if waited := time.Since(began); waited < timeout {
		t.Errorf("the session ended %v after its initialize, before HandshakeTimeout (%v)", waited, timeout)
	}
	f.ping(idle, http.StatusNotFound, "the idle session that never completed its handshake")
	// Opened before idle, so over their timeout too if they were to end:
	// the janitor's pass that ended idle would have ended them.
	f.ping(done, http.StatusOK, "the initialized session")
	f.ping(busy, http.StatusOK, "the session in use")
	cancel()
	f.waitLog("handshake not completed", 2) // idle once its GET is gone
	f.ping(busy, http.StatusNotFound, "the session no longer in use")
}
