package mcphttp_test

import (
	"bufio"
	"context"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync/atomic"
	"syscall"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// entered counts the requests that reached the handler, so that a test
// knows when the server holds the requests it sent before it probes.
type entered struct {
	n    atomic.Int64
	next http.Handler
}

func (e *entered) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	e.n.Add(1)
	e.next.ServeHTTP(w, r)
}

// await waits until n requests reached the handler.
func (e *entered) await(t *testing.T, n int64) {
	t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for e.n.Load() < n {
		if time.Now().After(deadline) {
			t.Fatalf("%d of %d requests reached the handler", e.n.Load(), n)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// startCounted is start with the requests counted as they reach the
// handler.
func startCounted(t *testing.T, srv *mcp.Server, opts *mcphttp.Options) (*fixture, *entered) {
	t.Helper()
	before := leakcheck.Snapshot()
	f := &fixture{t: t, srv: srv, log: &syncbuf.Buffer{}}
	opts.Logger = slog.New(slog.NewTextHandler(f.log, nil))
	f.h = mcphttp.NewHandler(srv, opts)
	e := &entered{next: f.h}
	f.ts = httptest.NewServer(e)
	t.Cleanup(func() {
		f.h.Close()
		f.ts.Close()
		leakcheck.Check(t, before)
	})
	return f, e
}

// rawPost opens a connection of its own and sends a POST's head (and
// whatever of its body is given), then leaves it as it is. recvBuf, when
// positive, shrinks the connection's receive buffer first, so that an
// answer the test never reads stops the server's writes soon.
func rawPost(t *testing.T, url string, head []string, body string, recvBuf int) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 5 * time.Second}
	if recvBuf > 0 {
		d.Control = func(_, _ string, c syscall.RawConn) error {
			var serr error
			err := c.Control(func(fd uintptr) {
				serr = syscall.SetsockoptInt(int(fd), syscall.SOL_SOCKET, syscall.SO_RCVBUF, recvBuf)
			})
			if err != nil {
				return err
			}
			return serr
		}
	}
	conn, err := d.Dial("tcp", strings.TrimPrefix(url, "http://"))
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { conn.Close() })
	req := "POST / HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\n" +
		"Accept: application/json, text/event-stream\r\n" + strings.Join(head, "\r\n") + "\r\n\r\n" + body
	if _, err := conn.Write([]byte(req)); err != nil {
		t.Fatal(err)
	}
	return conn
}

// statusOn reads the status line a raw connection gets, within wait.
func statusOn(t *testing.T, conn net.Conn, wait time.Duration) string {
	t.Helper()
	_ = conn.SetReadDeadline(time.Now().Add(wait))
	line, err := bufio.NewReader(conn).ReadString('\n')
	if err != nil {
		return "no answer: " + err.Error()
	}
	return strings.TrimSpace(line)
}

// probeUntilServed posts a cheap modern request until it is answered 200,
// and fails when that takes longer than within.
func probeUntilServed(t *testing.T, f *fixture, within time.Duration) time.Duration {
	t.Helper()
	began := time.Now()
	for {
		r := f.postRead(modernHeaders("tools/list", ""), cheapList)
		if r.status == http.StatusOK {
			return time.Since(began)
		}
		if time.Since(began) > within {
			t.Fatalf("another client was not served within %v: %d %s", within, r.status, r.body)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Bodies that arrive slowly, or never, hold no admission room: sixteen
// POSTs that declare no length and send nothing (curl -T - from a pipe
// that stays open) and sixteen that send 1 byte of a declared 100 leave
// MaxRequests and MaxRequestBytes to everyone else, and BodyTimeout ends
// them with 408.
func TestSlowBodiesHoldNoRoom(t *testing.T) {
	f, e := startCounted(t, newServer(t), &mcphttp.Options{
		MaxRequests: 8, MaxBodyBytes: 64 << 10, MaxRequestBytes: 256 << 10,
		BodyTimeout: 2 * time.Second,
	})
	var conns []net.Conn
	for range 16 {
		conns = append(conns, rawPost(t, f.ts.URL, []string{"Transfer-Encoding: chunked"}, "", 0))
	}
	for range 16 {
		conns = append(conns, rawPost(t, f.ts.URL, []string{"Content-Length: 100"}, "{", 0))
	}
	e.await(t, int64(len(conns)))
	if took := probeUntilServed(t, f, 20*time.Second); took > time.Second {
		t.Errorf("the probe waited %v beside the slow bodies", took)
	}
	for i, c := range conns {
		if got := statusOn(t, c, 10*time.Second); !strings.HasPrefix(got, "HTTP/1.1 408") {
			t.Errorf("slow body %d: %q, want 408 after BodyTimeout", i, got)
		}
	}
}

// A body that keeps arriving at MinBodyRate or faster is read whatever it
// takes in all; one that stops arriving is cut off.
func TestBodyRate(t *testing.T) {
	f := start(t, newServer(t), &mcphttp.Options{BodyTimeout: 2 * time.Second, MinBodyRate: 1 << 10})
	body := modernBody(1, "tools/list", map[string]any{"pad": strings.Repeat("x", 4<<10)}, nil)
	conn := rawPost(t, f.ts.URL, []string{
		"Content-Length: " + fmt.Sprint(len(body)), "MCP-Protocol-Version: 2026-07-28", "Mcp-Method: tools/list",
	}, "", 0)
	// 512 bytes every 300 ms: about 2.7 s in all, past BodyTimeout, but
	// above the rate.
	for i := 0; i < len(body); i += 512 {
		time.Sleep(300 * time.Millisecond)
		if _, err := conn.Write([]byte(body[i:min(i+512, len(body))])); err != nil {
			t.Fatal(err)
		}
	}
	if got := statusOn(t, conn, 10*time.Second); !strings.HasPrefix(got, "HTTP/1.1 200") {
		t.Errorf("a body arriving at the minimum rate: %q, want 200", got)
	}
	stalled := rawPost(t, f.ts.URL, []string{"Content-Length: " + fmt.Sprint(len(body))}, body[:10], 0)
	began := time.Now()
	if got := statusOn(t, stalled, 10*time.Second); !strings.HasPrefix(got, "HTTP/1.1 408") {
		t.Errorf("a stalled body: %q, want 408", got)
	}
	if took := time.Since(began); took > 8*time.Second {
		t.Errorf("a stalled body was cut off after %v; BodyTimeout is 2 s", took)
	}
}

// bigAnswer is a tool whose answer is size bytes of text, from a request
// of a few bytes.
func bigAnswer(size int, answered chan<- struct{}) tool.Tool {
	text := strings.Repeat("x", size)
	return rawTool("big", func(context.Context, json.RawMessage) (*tool.Result, error) {
		answered <- struct{}{}
		return tool.TextResult(text), nil
	})
}

// Answers their clients do not read are dropped after WriteTimeout, and
// their POSTs give their room back: with MaxRequests held by four unread
// 12 MiB answers, another client is served once WriteTimeout passed, not
// never.
func TestUnreadAnswersAreDropped(t *testing.T) {
	answered := make(chan struct{}, 4)
	f, e := startCounted(t, newServer(t, bigAnswer(12<<20, answered)), &mcphttp.Options{
		MaxRequests: 4, WriteTimeout: time.Second,
	})
	body := modernBody(1, "tools/call", map[string]any{"name": "big"}, nil)
	head := []string{"Content-Length: " + fmt.Sprint(len(body)), "MCP-Protocol-Version: 2026-07-28",
		"Mcp-Method: tools/call", "Mcp-Name: big"}
	var conns []net.Conn
	for range 4 {
		conns = append(conns, rawPost(t, f.ts.URL, head, body, 4<<10))
	}
	e.await(t, 4)
	for range 4 {
		<-answered
	}
	probeUntilServed(t, f, 20*time.Second)
	if !strings.Contains(f.log.String(), "response dropped") {
		t.Errorf("no dropped response was logged:\n%s", f.log.String())
	}
}
