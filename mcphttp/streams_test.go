package mcphttp_test

import (
	"context"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// resumeRequest is a GET resuming a stream after lastID.
func (f *fixture) resumeRequest(ctx context.Context, sid, lastID string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Last-Event-ID", lastID)
	return req
}

// Failure 5 of the review: many GETs resuming one POST stream at once are
// not all held. Each replaces the one before, which ends (or, replaced
// before it began, or finding the session's streams taken, is refused with
// 409 or 429); one is left following the stream, and it gets the response.
func TestLegacyResumeReplaces(t *testing.T) {
	const n = 100
	g := newGate()
	f := start(t, newServer(t, g.tool(true)), nil)
	sid := f.initialize(`{}`)
	resp := f.post(context.Background(), legacyHeaders(sid), gateCall)
	sse := newSSEReader(t, resp.Body)
	prime := sse.nextEvent()
	sse.drain() // CloseStream ended the POST's stream
	resp.Body.Close()
	<-g.started

	type outcome struct {
		status int
		body   string
		err    error
	}
	ended := make(chan outcome, n)
	for range n {
		go func() {
			resp, err := f.ts.Client().Do(f.resumeRequest(context.Background(), sid, prime.id))
			if err != nil {
				ended <- outcome{err: err}
				return
			}
			defer resp.Body.Close()
			b, err := io.ReadAll(resp.Body) // to the end of the stream
			ended <- outcome{status: resp.StatusCode, body: string(b), err: err}
		}()
	}
	timeout := time.After(10 * time.Second)
	statuses := map[int]int{}
	for i := range n - 1 {
		select {
		case o := <-ended:
			statuses[o.status]++
			switch {
			case o.err != nil:
				t.Fatalf("resumption: %v", o.err)
			case o.status == http.StatusOK && strings.Contains(o.body, "released"):
				t.Fatalf("a resumption got the response before it was released: %s", o.body)
			case o.status != http.StatusOK && o.status != http.StatusConflict && o.status != http.StatusTooManyRequests:
				t.Errorf("resumption: %d %s", o.status, o.body)
			}
		case <-timeout:
			t.Fatalf("%d of %d resumptions ended within 10s; all but one should have", i, n)
		}
	}
	t.Logf("the %d resumptions that ended, by status: %v", n-1, statuses)
	if held := mcphttp.SessionStreams(f.h, sid); held != 1 {
		t.Errorf("%d GET streams held, want 1", held)
	}
	close(g.release)
	select {
	case o := <-ended:
		var m map[string]any
		data := strings.TrimSpace(o.body[strings.LastIndex(o.body, "data: ")+len("data: "):])
		if o.status != http.StatusOK || json.Unmarshal([]byte(data), &m) != nil || !isGateResult(m) {
			t.Errorf("the last resumption: %d %q", o.status, o.body)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the last resumption did not get the response")
	}
}

// pollTool closes its call's stream (SSE polling), then waits for release
// and answers "released".
func pollTool(release <-chan struct{}) tool.Tool {
	return rawTool("poll", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		if !mcphttp.CloseStream(ctx) {
			return tool.TextResult("not closed"), nil
		}
		select {
		case <-release:
			return tool.TextResult("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

// A session holds at most MaxSessionStreams GET streams, its stream of
// unsolicited messages and its resumptions together: one more gets 429
// with the quota error, except a resumption replacing one of them.
func TestLegacySessionStreamsBound(t *testing.T) {
	srv, obs := observedServer(t)
	release := make(chan struct{})
	srv.MustAddTool(pollTool(release))
	f := start(t, srv, &mcphttp.Options{MaxSessionStreams: 2})
	sid := f.initialize(`{}`)
	primed := func(id string) string {
		resp := f.post(context.Background(), legacyHeaders(sid), `{"jsonrpc":"2.0","id":"`+id+`","method":"tools/call","params":{"name":"poll"}}`)
		defer resp.Body.Close()
		sse := newSSEReader(t, resp.Body)
		ev := sse.nextEvent()
		sse.drain()
		return ev.id
	}
	a, b := primed("a"), primed("b")
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	open := func(req *http.Request, what string) *http.Response {
		t.Helper()
		resp := f.do(req)
		t.Cleanup(func() { resp.Body.Close() })
		if resp.StatusCode != http.StatusOK {
			t.Fatalf("%s: %d", what, resp.StatusCode)
		}
		return resp
	}
	first := open(f.resumeRequest(ctx, sid, a), "resuming a")
	unsolicited := f.get(ctx, sid)
	defer unsolicited.Body.Close()
	if unsolicited.StatusCode != http.StatusOK {
		t.Fatalf("GET: %d", unsolicited.StatusCode)
	}
	// Bounded: a stream opened by mistake would never end.
	bounded, stop := context.WithTimeout(ctx, 5*time.Second)
	defer stop()
	r := readReply(t, f.do(f.resumeRequest(bounded, sid, b)))
	data, _ := r.msg["error"].(map[string]any)["data"].(map[string]any)
	if r.status != http.StatusTooManyRequests || r.errorCode() != mcp.CodeQuotaExceeded ||
		data["reason"] != "quota" || data["limit"] != "MaxSessionStreams" || data["max"] != float64(2) {
		t.Errorf("a third stream: %d %s", r.status, r.body)
	}
	again := open(f.resumeRequest(ctx, sid, a), "resuming a again, at the bound")
	newSSEReader(t, first.Body).drain() // replaced: it ended
	close(release)
	if m := newSSEReader(t, again.Body).nextMessage(); m["id"] != "a" {
		t.Errorf("the second resumption of a: %v", m)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	want := mcp.Overload{Limit: "MaxSessionStreams", Transport: mcp.TransportHTTP}
	if len(obs.got) != 1 || obs.got[0] != want {
		t.Errorf("overloads %+v, want [%+v]", obs.got, want)
	}
}

// While fewer than MinFreeDescriptors descriptors are free, a GET stream,
// new or resumed, gets 503 and its connection is closed; with room again
// it opens.
func TestStreamsRefusedWhenDescriptorsLow(t *testing.T) {
	srv, obs := observedServer(t)
	f := start(t, srv, &mcphttp.Options{MinFreeDescriptors: 100})
	sid := f.initialize(`{}`)
	mcphttp.SetDescriptorCounter(f.h, func() (int, int, bool) { return 950, 1000, true }) // 50 free
	// Bounded: a stream opened by mistake would never end.
	bounded, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	for _, req := range []*http.Request{f.resumeRequest(bounded, sid, "p0-1"), f.resumeRequest(bounded, sid, "")} {
		resp := f.do(req)
		r := readReply(t, resp)
		if r.status != http.StatusServiceUnavailable || r.errorCode() != -32603 || !resp.Close || r.header.Get("Retry-After") == "" {
			t.Errorf("GET (Last-Event-ID %q) with 50 descriptors free: %d close %v %s", req.Header.Get("Last-Event-ID"), r.status, resp.Close, r.body)
		}
	}
	mcphttp.SetDescriptorCounter(f.h, func() (int, int, bool) { return 900, 1000, true }) // 100 free
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp := f.get(ctx, sid)
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Errorf("GET with 100 descriptors free: %d", resp.StatusCode)
	}
	obs.mu.Lock()
	defer obs.mu.Unlock()
	want := mcp.Overload{Limit: "MinFreeDescriptors", Transport: mcp.TransportHTTP}
	if len(obs.got) != 2 || obs.got[0] != want || obs.got[1] != want {
		t.Errorf("overloads %+v, want 2 of %+v", obs.got, want)
	}
}

// The count of open descriptors follows the files opened, where it can be
// made (Linux).
func TestCountDescriptors(t *testing.T) {
	before, limit, ok := mcphttp.CountDescriptors()
	if !ok {
		t.Skip("descriptors are not counted on this system")
	}
	if before <= 0 || limit < before {
		t.Fatalf("%d open of %d", before, limit)
	}
	dir := t.TempDir()
	for i := range 5 {
		file, err := os.Create(filepath.Join(dir, string(rune('a'+i))))
		if err != nil {
			t.Fatal(err)
		}
		defer file.Close()
	}
	// Other goroutines of the test binary may open or close a descriptor
	// meanwhile (the runtime's poller, say): a little slack.
	if after, _, _ := mcphttp.CountDescriptors(); after < before+3 || after > before+7 {
		t.Errorf("%d open before 5 files were opened, %d after", before, after)
	}
}

// A subscriptions/listen is a stream too: refused while descriptors are
// short, served once they are not.
func TestListenRefusedWhenDescriptorsLow(t *testing.T) {
	f := start(t, newServer(t, progressTool()), &mcphttp.Options{MinFreeDescriptors: 100})
	mcphttp.SetDescriptorCounter(f.h, func() (int, int, bool) { return 950, 1000, true }) // 50 free
	listen := modernBody(1, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	bounded, stop := context.WithTimeout(context.Background(), 5*time.Second)
	defer stop()
	resp := f.post(bounded, modernHeaders("subscriptions/listen", ""), listen)
	r := readReply(t, resp)
	if r.status != http.StatusServiceUnavailable || r.errorCode() != -32603 || !resp.Close || r.msg["id"] != float64(1) {
		t.Errorf("listen with 50 descriptors free: %d close %v %s", r.status, resp.Close, r.body)
	}
	mcphttp.SetDescriptorCounter(f.h, func() (int, int, bool) { return 900, 1000, true }) // 100 free
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	resp = f.post(ctx, modernHeaders("subscriptions/listen", ""), listen)
	defer resp.Body.Close()
	if ev := newSSEReader(t, resp.Body).nextMessage(); resp.StatusCode != http.StatusOK || ev["method"] != "notifications/subscriptions/acknowledged" {
		t.Errorf("listen with 100 descriptors free: %d %v", resp.StatusCode, ev)
	}
}
