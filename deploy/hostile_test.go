//go:build deploy

package deploy

import (
	"context"
	"encoding/json"
	"fmt"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The addresses of the hostile client and of a well-behaved one elsewhere:
// nginx forwards each (X-Forwarded-For), and the instances trust nginx
// (MCPWIRE_TRUSTED_PROXIES), so each is a caller of its own.
const (
	hostileAddr = "127.0.0.2"
	otherAddr   = "127.0.0.3"
)

// hostile is one client without credentials doing what an adversarial
// review found could lock every other client out (issue 25), while other
// clients, one at another address and one at the hostile client's own,
// go on being served.
func hostile(t *testing.T, ctx context.Context, d *deployment) {
	t.Run("slow-bodies", func(t *testing.T) { slowBodies(t, ctx, d) })
	t.Run("session-flood", func(t *testing.T) { sessionFlood(t, ctx, d) })
}

// slowPost opens a connection from from to addr and sends the head of a
// POST whose body then never comes: chunked with no chunk (curl -T - from
// a pipe that stays open), or 1 byte of a declared 100.
func slowPost(t *testing.T, from, addr string, chunked bool) net.Conn {
	t.Helper()
	d := net.Dialer{Timeout: 10 * time.Second, LocalAddr: &net.TCPAddr{IP: net.ParseIP(from)}}
	conn, err := d.Dial("tcp", addr)
	if err != nil {
		t.Fatal(err)
	}
	head := "Transfer-Encoding: chunked\r\n\r\n"
	if !chunked {
		head = "Content-Length: 100\r\n\r\n{"
	}
	if _, err := fmt.Fprintf(conn, "POST /mcp HTTP/1.1\r\nHost: 127.0.0.1\r\nContent-Type: application/json\r\nAccept: application/json, text/event-stream\r\n%s", head); err != nil {
		t.Fatal(err)
	}
	return conn
}

// served checks that a client gets modern calls and a whole legacy
// session (with its elicitation round trip) answered while the hostile
// client holds on.
func served(t *testing.T, ctx context.Context, c *client, who string, calls int) {
	t.Helper()
	for i := range calls {
		cctx, cancel := context.WithTimeout(ctx, 20*time.Second)
		a, err := c.call(cctx, i, "tools/call", "echo", map[string]any{"name": "echo", "arguments": map[string]any{"text": "still here"}})
		cancel()
		if err != nil || a.status != http.StatusOK || a.response() == nil || a.response().Error != nil {
			t.Fatalf("%s: call %d: %v, HTTP %d", who, i, err, statusOf(a))
		}
	}
	sctx, cancel := context.WithTimeout(ctx, 30*time.Second)
	defer cancel()
	if _, _, ok, err := legacySession(sctx, c, 0); !ok || err != nil {
		t.Fatalf("%s: a legacy session: %v", who, err)
	}
}

// slowBodies: the hostile client holds POSTs whose bodies never arrive,
// through nginx (which buffers request bodies, so they never reach an
// instance) and at one instance directly (where, before issue 25, 16 of
// them held every POST's room). The other clients are served meanwhile,
// through nginx and at that instance, and the instance ends the slow
// POSTs with 408 after its BodyTimeout (10 s).
func slowBodies(t *testing.T, ctx context.Context, d *deployment) {
	nginxAddr := strings.TrimSuffix(strings.TrimPrefix(d.nginxURL, "http://"), "/mcp")
	direct := d.instances[0]
	var viaNginx, atInstance []net.Conn
	// 48 undeclared bodies first (each was held at the most a body may
	// be, 16 MiB: 16 of them filled MaxRequestBytes), then 16 that send 1
	// byte of a declared 100.
	for i := range 64 {
		viaNginx = append(viaNginx, slowPost(t, hostileAddr, nginxAddr, i < 48))
		atInstance = append(atInstance, slowPost(t, hostileAddr, direct.Addr, i < 48))
	}
	defer func() {
		for _, c := range append(viaNginx, atInstance...) {
			c.Close()
		}
	}()
	time.Sleep(500 * time.Millisecond) // every head read: the POSTs are in the servers' hands
	for _, tc := range []struct {
		who, from, url string
	}{
		{"another client through nginx", otherAddr, d.nginxURL},
		{"a client at the hostile address through nginx", hostileAddr, d.nginxURL},
		{"another client at " + direct.Name, otherAddr, direct.URL()},
		{"a client at the hostile address at " + direct.Name, hostileAddr, direct.URL()},
	} {
		served(t, ctx, newClientFrom(tc.url, 4, tc.from), tc.who, 20)
	}
	var timedOut atomic.Int32
	var wg sync.WaitGroup
	for _, c := range atInstance {
		wg.Go(func() {
			c.SetReadDeadline(time.Now().Add(30 * time.Second))
			buf := make([]byte, 32)
			if n, _ := c.Read(buf); strings.HasPrefix(string(buf[:n]), "HTTP/1.1 408") {
				timedOut.Add(1)
			}
		})
	}
	wg.Wait()
	if n := timedOut.Load(); n != int32(len(atInstance)) {
		t.Errorf("%d of the %d slow POSTs at %s were ended with 408", n, len(atInstance), direct.Name)
	}
}

// sessionFlood: the hostile client opens legacy sessions through nginx as
// fast as it can, first never completing their handshakes (they make room
// for anyone's new session), then completing them (it is held to its
// quota, MaxSessionsPerCaller, 256 on each instance). Another client, and
// one at the hostile client's own address, still open sessions and work
// in them.
func sessionFlood(t *testing.T, ctx context.Context, d *deployment) {
	c := newClientFrom(d.nginxURL, 32, hostileAddr)
	init := request(0, "initialize", map[string]any{"protocolVersion": legacyVersion,
		"capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "flood", "version": "1"}})
	note, _ := json.Marshal(map[string]any{"jsonrpc": "2.0", "method": "notifications/initialized"})
	// flood opens n sessions, 32 at a time, and counts the statuses of the
	// initialize requests, and of the notifications/initialized sent for
	// each session opened when handshake is set (as status+1000).
	flood := func(n int, handshake bool) map[int]int {
		var mu sync.Mutex
		statuses := map[int]int{}
		var next atomic.Int64
		var wg sync.WaitGroup
		for range 32 {
			wg.Go(func() {
				for next.Add(1) <= int64(n) {
					a, err := c.post(ctx, legacyVersion, "", "", "", init, nil)
					status, noted := statusOf(a), 0
					if err == nil && handshake && status == http.StatusOK {
						r, _ := c.post(ctx, legacyVersion, a.session, "", "", note, nil)
						noted = 1000 + statusOf(r)
					}
					mu.Lock()
					statuses[status]++
					if noted != 0 {
						statuses[noted]++
					}
					mu.Unlock()
				}
			})
		}
		wg.Wait()
		return statuses
	}
	began := time.Now()
	got := flood(1200, false)
	t.Logf("1,200 sessions never initialized, in %v: %v", time.Since(began).Round(time.Millisecond), got)
	if got[http.StatusOK] != 1200 {
		t.Errorf("a flood of un-initialized sessions: %v, want every one served (each makes room for the next)", got)
	}
	served(t, ctx, newClientFrom(d.nginxURL, 4, otherAddr), "another client after the flood", 5)
	served(t, ctx, newClientFrom(d.nginxURL, 4, hostileAddr), "a client at the flooding address", 5)

	// Sessions past their handshake are never ended to make room: at most
	// 256 per instance complete it (1000+202), and the rest of the flood
	// is refused with 429. (A session still between its initialize and its
	// notifications/initialized may make room for another of the flood's:
	// its notification then gets 404.)
	began = time.Now()
	got = flood(1000, true)
	t.Logf("1,000 sessions initialized, in %v (statuses of initialize; of the notification as 1000+): %v",
		time.Since(began).Round(time.Millisecond), got)
	if got[http.StatusTooManyRequests] == 0 || got[1000+http.StatusAccepted] > 3*256 {
		t.Errorf("a flood of initialized sessions: %v, want at most 256 per instance initialized and then 429", got)
	}
	served(t, ctx, newClientFrom(d.nginxURL, 4, otherAddr), "another client beside the held sessions", 5)
}
