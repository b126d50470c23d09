package mcphttp_test

import (
	"context"
	"errors"
	"fmt"
	"net/http"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// resumeGet opens a GET resuming a stream after lastID.
func (f *fixture) resumeGet(ctx context.Context, sid, lastID string) *http.Response {
	req, _ := http.NewRequestWithContext(ctx, http.MethodGet, f.ts.URL, nil)
	req.Header.Set("Accept", "text/event-stream")
	req.Header.Set("Mcp-Session-Id", sid)
	req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	req.Header.Set("Last-Event-ID", lastID)
	return f.do(req)
}

// nextEvent skips comments and returns the next event.
func (r *sseReader) nextEvent() sseEvent {
	r.t.Helper()
	for {
		ev, ok := r.next()
		if !ok {
			r.t.Fatal("the stream ended")
		}
		if ev.comment == "" {
			return ev
		}
	}
}

// drain reads a stream to its end, failing on events other than comments.
func (r *sseReader) drain() {
	r.t.Helper()
	for {
		ev, ok := r.next()
		if !ok {
			return
		}
		if ev.comment == "" {
			r.t.Errorf("unexpected event: %+v", ev)
		}
	}
}

// gate is a tool that reports progress once, then waits for release (or
// its cancellation, which it reports on cancelled) and answers "released".
type gate struct {
	started   chan struct{}
	release   chan struct{}
	cancelled chan error
}

func newGate() *gate {
	return &gate{started: make(chan struct{}), release: make(chan struct{}), cancelled: make(chan error, 1)}
}

func (g *gate) tool(closeStream bool) tool.Tool {
	return rawTool("gate", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		if closeStream {
			if !mcphttp.CloseStream(ctx) {
				return tool.TextResult("not closed"), nil
			}
		} else {
			mcp.ReportProgress(ctx, 1, 2, "half")
		}
		close(g.started)
		select {
		case <-g.release:
			return tool.TextResult("released"), nil
		case <-ctx.Done():
			g.cancelled <- context.Cause(ctx)
			return nil, ctx.Err()
		}
	})
}

const gateCall = `{"jsonrpc":"2.0","id":7,"method":"tools/call","params":{"name":"gate","_meta":{"progressToken":"p"}}}`

func isGateResult(m map[string]any) bool {
	return m["id"] == float64(7) && strings.Contains(fmt.Sprint(m["result"]), "released")
}

// A client whose POST stream drops after its first event does not cancel
// the call (2025 transports: disconnection is not cancellation); resuming
// with GET and Last-Event-ID, it gets the response on the GET, which then
// ends. Every event id names its stream.
func TestLegacyResumeAfterDroppedPost(t *testing.T) {
	g := newGate()
	store := mcphttp.NewMemoryEventStore(0, 0, 0)
	f := start(t, newServer(t, g.tool(false)), &mcphttp.Options{EventStore: store})
	sid := f.initialize(`{}`)
	ctx, drop := context.WithCancel(context.Background())
	resp := f.post(ctx, legacyHeaders(sid), gateCall)
	sse := newSSEReader(t, resp.Body)
	ev := sse.nextEvent()
	if !strings.Contains(ev.data, protocol.NotificationProgress) || !strings.HasPrefix(ev.id, "p") || !strings.Contains(ev.id, "-") {
		t.Fatalf("first event: %+v", ev)
	}
	<-g.started
	drop()
	resp.Body.Close()
	time.Sleep(50 * time.Millisecond) // let the server see the client leave
	close(g.release)

	get := f.resumeGet(context.Background(), sid, ev.id)
	defer get.Body.Close()
	if get.StatusCode != 200 || get.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("resume: %d %q", get.StatusCode, get.Header.Get("Content-Type"))
	}
	resumed := newSSEReader(t, get.Body)
	got := resumed.nextEvent()
	var m map[string]any
	_ = json.Unmarshal([]byte(got.data), &m)
	if !isGateResult(m) || !strings.HasPrefix(got.id, strings.SplitN(ev.id, "-", 2)[0]+"-") {
		t.Errorf("resumed event: %+v (first was %s)", got, ev.id)
	}
	resumed.drain() // the stream ends after the response
	select {
	case err := <-g.cancelled:
		t.Errorf("the call was cancelled: %v", err)
	default:
	}
	// Resuming again replays the response from the store.
	again := newSSEReader(t, f.resumeGet(context.Background(), sid, ev.id).Body)
	if m := again.nextMessage(); !isGateResult(m) {
		t.Errorf("replayed: %v", m)
	}
	again.drain()

	if st := f.delete(sid); st != http.StatusNoContent {
		t.Fatalf("DELETE: %d", st)
	}
	if n := mcphttp.SessionsHeld(store); n != 0 {
		t.Errorf("the store holds %d sessions after the session ended", n)
	}
}

// A client that leaves before any event was sent cannot resume: the call
// is cancelled, as before.
func TestLegacyDropBeforeAnyEventCancels(t *testing.T) {
	started := make(chan struct{})
	cancelled := make(chan error, 1)
	block := rawTool("block", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		close(started)
		<-ctx.Done()
		cancelled <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	f := start(t, newServer(t, block), nil)
	sid := f.initialize(`{}`)
	ctx, drop := context.WithCancel(context.Background())
	go func() {
		if resp, err := f.ts.Client().Do(mustRequest(ctx, f.ts.URL, legacyHeaders(sid), `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"block"}}`)); err == nil {
			resp.Body.Close()
		}
	}()
	<-started
	drop()
	select {
	case <-cancelled:
	case <-time.After(5 * time.Second):
		t.Fatal("the call was not cancelled")
	}
}

func mustRequest(ctx context.Context, url string, hd http.Header, body string) *http.Request {
	req, _ := http.NewRequestWithContext(ctx, http.MethodPost, url, strings.NewReader(body))
	req.Header = hd.Clone()
	return req
}

// CloseStream (SSE polling): the POST stream gets a priming event (an id,
// empty data) with the retry hint and ends; a GET with Last-Event-ID
// opened while the call still runs follows the stream and gets the
// response when it comes.
func TestLegacyCloseStream(t *testing.T) {
	g := newGate()
	f := start(t, newServer(t, g.tool(true)), &mcphttp.Options{RetryInterval: 250 * time.Millisecond})
	sid := f.initialize(`{}`)
	resp := f.post(context.Background(), legacyHeaders(sid), gateCall)
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	sse := newSSEReader(t, resp.Body)
	prime := sse.nextEvent()
	if prime.id == "" || prime.data != "" || prime.retry != "250" {
		t.Errorf("priming event: %+v", prime)
	}
	sse.drain() // the server ended the stream
	resp.Body.Close()
	<-g.started

	get := f.resumeGet(context.Background(), sid, prime.id)
	defer get.Body.Close()
	resumed := newSSEReader(t, get.Body)
	close(g.release)
	if m := resumed.nextMessage(); !isGateResult(m) {
		t.Errorf("resumed: %v", m)
	}
	resumed.drain()
}

// CloseStream does nothing in a session older than 2025-11-25 (its
// clients do not reconnect to a stream the server closed): the call is
// answered as usual.
func TestLegacyCloseStreamOldSession(t *testing.T) {
	g := newGate()
	close(g.release)
	f := start(t, newServer(t, g.tool(true)), nil)
	r := f.postRead(legacyHeaders(""), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	sid := r.header.Get("Mcp-Session-Id")
	hd := legacyHeaders(sid)
	hd.Set("MCP-Protocol-Version", "2025-06-18")
	if r := f.postRead(hd, gateCall); r.status != 200 || !strings.Contains(r.body, "not closed") {
		t.Errorf("call: %d %s", r.status, r.body)
	}
}

// The messages the GET stream missed are replayed to a client resuming it
// with Last-Event-ID, then the stream goes on.
func TestLegacyResumeUnsolicited(t *testing.T) {
	srv := newServer(t)
	f := start(t, srv, nil)
	sid := f.initialize(`{}`)
	ctx, drop := context.WithCancel(context.Background())
	resp := f.get(ctx, sid)
	sse := newSSEReader(t, resp.Body)
	add := func(name string) {
		srv.MustAddTool(rawTool(name, func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("x"), nil }))
	}
	add("one")
	first := sse.nextEvent()
	if !strings.Contains(first.data, protocol.NotificationToolListChanged) || !strings.HasPrefix(first.id, "g") {
		t.Fatalf("first: %+v", first)
	}
	drop()
	resp.Body.Close()
	add("two") // missed: the stream is gone (or going: then it is stored)
	// Until the server saw the client leave, the stream is still open (409).
	var get *http.Response
	for deadline := time.Now().Add(3 * time.Second); ; {
		get = f.resumeGet(context.Background(), sid, first.id)
		if get.StatusCode != http.StatusConflict {
			break
		}
		get.Body.Close()
		if time.Now().After(deadline) {
			t.Fatal("the dropped GET stream stayed open")
		}
		time.Sleep(20 * time.Millisecond)
	}
	defer get.Body.Close()
	resumed := newSSEReader(t, get.Body)
	if m := resumed.nextMessage(); m["method"] != protocol.NotificationToolListChanged {
		t.Errorf("missed message: %v", m)
	}
	add("three") // live
	if m := resumed.nextMessage(); m["method"] != protocol.NotificationToolListChanged {
		t.Errorf("live message: %v", m)
	}
	if second := readReply(t, f.get(context.Background(), sid)); second.status != http.StatusConflict {
		t.Errorf("a second GET: %d", second.status)
	}
}

// A Last-Event-ID older than the store's window, or unknown, gets 400 with
// a JSON-RPC error saying so.
func TestLegacyResumeRefused(t *testing.T) {
	steps := rawTool("many", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		for i := range 5 {
			mcp.ReportProgress(ctx, float64(i+1), 5, "")
		}
		return tool.TextResult("done"), nil
	})
	f := start(t, newServer(t, steps), &mcphttp.Options{MaxStoredEvents: 3})
	sid := f.initialize(`{}`)
	resp := f.post(context.Background(), legacyHeaders(sid), `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"many","_meta":{"progressToken":1}}}`)
	sse := newSSEReader(t, resp.Body)
	first := sse.nextEvent()
	sse.nextEvent()
	sse.nextEvent()
	fourth := sse.nextEvent()
	for range 2 {
		sse.nextEvent()
	}
	sse.drain()
	resp.Body.Close()

	r := readReply(t, f.resumeGet(context.Background(), sid, first.id))
	if r.status != http.StatusBadRequest || r.errorCode() != -32600 || !strings.Contains(r.errorMessage(), "older than") {
		t.Errorf("evicted: %d %s", r.status, r.body)
	}
	r = readReply(t, f.resumeGet(context.Background(), sid, "p0123-99"))
	if r.status != http.StatusBadRequest || !strings.Contains(r.errorMessage(), "no event") {
		t.Errorf("unknown: %d %s", r.status, r.body)
	}
	// Within the window: what followed the fourth event (the fifth and the
	// response).
	ok := newSSEReader(t, f.resumeGet(context.Background(), sid, fourth.id).Body)
	ok.nextMessage()
	if m := ok.nextMessage(); m["id"] != float64(2) {
		t.Errorf("last replayed: %v", m)
	}
	ok.drain()
}

// The in-memory store: ids name stream and position; old events are
// evicted by count and by bytes; an event larger than the byte bound is not
// held; events of other streams are never replayed; Forget drops all.
func TestMemoryEventStore(t *testing.T) {
	s := mcphttp.NewMemoryEventStore(3, 10, 0)
	ids := map[string]string{}
	for _, e := range []struct{ stream, data string }{{"a", "1"}, {"b", "2"}, {"a", "3"}, {"a", "4"}} {
		id, err := s.Append("s", e.stream, []byte(e.data))
		if err != nil {
			t.Fatal(err)
		}
		ids[e.data] = id
	}
	if ids["1"] != "a-1" || ids["2"] != "b-2" {
		t.Errorf("ids: %v", ids)
	}
	if _, err := s.Replay("s", ids["1"], nil); !errors.Is(err, mcphttp.ErrEventExpired) {
		t.Errorf("evicted by count: %v", err)
	}
	var got []string
	stream, err := s.Replay("s", ids["2"], func(id string, data []byte) error { got = append(got, id+"="+string(data)); return nil })
	if err != nil || stream != "b" || len(got) != 0 {
		t.Errorf("stream b: %q %v %v", stream, got, err)
	}
	stream, err = s.Replay("s", ids["3"], func(id string, data []byte) error { got = append(got, id+"="+string(data)); return nil })
	if err != nil || stream != "a" || fmt.Sprint(got) != "[a-4=4]" {
		t.Errorf("stream a: %q %v %v", stream, got, err)
	}
	if _, err := s.Replay("s", "b-3", nil); !errors.Is(err, mcphttp.ErrEventUnknown) {
		t.Errorf("another stream's position: %v", err)
	}
	for _, id := range []string{"a-9", "nope", "a-0", "-1"} {
		if _, err := s.Replay("s", id, nil); !errors.Is(err, mcphttp.ErrEventUnknown) {
			t.Errorf("%q: %v", id, err)
		}
	}
	if _, err := s.Replay("other", "a-3", nil); !errors.Is(err, mcphttp.ErrEventUnknown) {
		t.Errorf("another session: %v", err)
	}
	big, _ := s.Append("s", "a", []byte("0123456789"))
	if _, err := s.Replay("s", ids["4"], nil); !errors.Is(err, mcphttp.ErrEventExpired) {
		t.Errorf("evicted by bytes: %v", err)
	}
	if _, err := s.Replay("s", big, nil); err != nil {
		t.Errorf("an event of exactly the bound is held: %v", err)
	}
	huge, _ := s.Append("s", "a", []byte("0123456789x"))
	if _, err := s.Replay("s", huge, nil); !errors.Is(err, mcphttp.ErrEventExpired) {
		t.Errorf("an event larger than the bound is not held: %v", err)
	}
	s.Forget("s")
	if n := mcphttp.SessionsHeld(s); n != 0 {
		t.Errorf("after Forget: %d sessions", n)
	}
}
