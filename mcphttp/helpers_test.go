package mcphttp_test

import (
	"bufio"
	"context"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// fixture is a Handler behind a real loopback HTTP server.
type fixture struct {
	t   *testing.T
	srv *mcp.Server
	h   *mcphttp.Handler
	ts  *httptest.Server
	log *syncbuf.Buffer // the handler's log
	// logged is closed (and replaced) at every line of the log, for a
	// test waiting for one (see waitLog).
	loggedMu sync.Mutex
	logged   chan struct{}
}

// Write tells the waiters of waitLog that a line was logged.
func (f *fixture) Write(p []byte) (int, error) {
	f.loggedMu.Lock()
	close(f.logged)
	f.logged = make(chan struct{})
	f.loggedMu.Unlock()
	return len(p), nil
}

// waitLog waits up to 5 s for the handler's log to hold n lines that
// contain text.
func (f *fixture) waitLog(text string, n int) {
	f.t.Helper()
	deadline := time.After(5 * time.Second)
	for {
		f.loggedMu.Lock()
		ch := f.logged // taken before the log is read, so that no line is missed
		f.loggedMu.Unlock()
		if strings.Count(f.log.String(), text) >= n {
			return
		}
		select {
		case <-ch:
		case <-deadline:
			f.t.Fatalf("the log did not have %d lines with %q within 5s:\n%s", n, text, f.log.String())
		}
	}
}

// start serves srv with opts (nil for the defaults, Logger always set to a
// buffer) and checks at the end that no goroutine was left behind.
func start(t *testing.T, srv *mcp.Server, opts *mcphttp.Options) *fixture {
	t.Helper()
	before := leakcheck.Snapshot()
	if opts == nil {
		opts = &mcphttp.Options{}
	}
	f := &fixture{t: t, srv: srv, log: &syncbuf.Buffer{}, logged: make(chan struct{})}
	opts.Logger = slog.New(slog.NewTextHandler(io.MultiWriter(f.log, f), nil))
	f.h = mcphttp.NewHandler(srv, opts)
	f.ts = httptest.NewServer(f.h)
	t.Cleanup(func() {
		f.h.Close()
		f.ts.Close()
		leakcheck.Check(t, before)
	})
	return f
}

func newServer(t testing.TB, tools ...tool.Tool) *mcp.Server {
	t.Helper()
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, &mcp.Options{
		Logger:        slog.New(slog.NewTextHandler(io.Discard, nil)),
		ShutdownGrace: 200 * time.Millisecond,
		DynamicTools:  true,
	})
	for _, tl := range tools {
		if err := srv.AddTool(tl); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

func rawTool(name string, h tool.Handler) tool.Tool {
	return tool.Tool{Name: name, Description: name, InputSchema: json.RawMessage(`{"type":"object"}`), Handler: h}
}

// progressTool reports three steps, then answers "done".
func progressTool() tool.Tool {
	return rawTool("steps", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		for i := range 3 {
			mcp.ReportProgress(ctx, float64(i+1), 3, "")
		}
		return tool.TextResult("done"), nil
	})
}

// modernBody is a 2026-07-28 request; extraMeta joins its _meta.
func modernBody(id any, method string, params map[string]any, extraMeta map[string]any) string {
	if params == nil {
		params = map[string]any{}
	}
	meta := map[string]any{
		protocol.MetaProtocolVersion:    "2026-07-28",
		protocol.MetaClientCapabilities: map[string]any{},
		protocol.MetaClientInfo:         map[string]any{"name": "t", "version": "1"},
	}
	for k, v := range extraMeta {
		if v == nil {
			delete(meta, k)
		} else {
			meta[k] = v
		}
	}
	params["_meta"] = meta
	m := map[string]any{"jsonrpc": "2.0", "method": method, "params": params}
	if id != nil {
		m["id"] = id
	}
	b, _ := json.Marshal(m)
	return string(b)
}

// modernHeaders are the headers a 2026-07-28 client sends for method
// (and name, for tools/call, prompts/get and resources/read).
func modernHeaders(method, name string) http.Header {
	hd := http.Header{}
	hd.Set("Accept", "application/json, text/event-stream")
	hd.Set("Content-Type", "application/json")
	hd.Set("MCP-Protocol-Version", "2026-07-28")
	hd.Set("Mcp-Method", method)
	if name != "" {
		hd.Set("Mcp-Name", name)
	}
	return hd
}

// post sends body with hd and returns the response, its body unread.
func (f *fixture) post(ctx context.Context, hd http.Header, body string) *http.Response {
	f.t.Helper()
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, f.ts.URL, strings.NewReader(body))
	if err != nil {
		f.t.Fatal(err)
	}
	if hd != nil {
		req.Header = hd.Clone()
	}
	return f.do(req)
}

func (f *fixture) do(req *http.Request) *http.Response {
	f.t.Helper()
	resp, err := f.ts.Client().Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	return resp
}

// reply is a response read whole.
type reply struct {
	status int
	header http.Header
	body   string
	msg    map[string]any // the body decoded, when it is JSON
}

// postRead posts and reads the whole response.
func (f *fixture) postRead(hd http.Header, body string) reply {
	f.t.Helper()
	return readReply(f.t, f.post(context.Background(), hd, body))
}

func readReply(t *testing.T, resp *http.Response) reply {
	t.Helper()
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatal(err)
	}
	r := reply{status: resp.StatusCode, header: resp.Header, body: string(b)}
	if strings.HasPrefix(resp.Header.Get("Content-Type"), "application/json") {
		if err := json.Unmarshal(b, &r.msg); err != nil {
			t.Fatalf("body %q: %v", b, err)
		}
	}
	return r
}

// errorCode returns the JSON-RPC error code of a JSON reply, 0 for none.
func (r reply) errorCode() int64 {
	e, _ := r.msg["error"].(map[string]any)
	n, _ := e["code"].(float64)
	return int64(n)
}

func (r reply) errorMessage() string {
	e, _ := r.msg["error"].(map[string]any)
	s, _ := e["message"].(string)
	return s
}

// sseEvent is one event, or a comment when comment is set.
type sseEvent struct {
	id, event, data, comment, retry string
}

// sseReader reads events from a stream.
type sseReader struct {
	t  *testing.T
	sc *bufio.Scanner
	ch chan sseEvent
}

func newSSEReader(t *testing.T, body io.Reader) *sseReader {
	r := &sseReader{t: t, sc: bufio.NewScanner(body), ch: make(chan sseEvent, 64)}
	go func() {
		defer close(r.ch)
		var ev sseEvent
		for r.sc.Scan() {
			line := r.sc.Text()
			switch {
			case line == "":
				if ev != (sseEvent{}) {
					r.ch <- ev
				}
				ev = sseEvent{}
			case strings.HasPrefix(line, ":"):
				r.ch <- sseEvent{comment: strings.TrimSpace(line[1:])}
			case strings.HasPrefix(line, "id: "):
				ev.id = line[4:]
			case strings.HasPrefix(line, "retry: "):
				ev.retry = line[7:]
			case strings.HasPrefix(line, "event: "):
				ev.event = line[7:]
			case strings.HasPrefix(line, "data: "):
				ev.data += line[6:]
			}
		}
	}()
	return r
}

// next returns the next event (comments too); ok is false at the end of
// the stream.
func (r *sseReader) next() (sseEvent, bool) {
	r.t.Helper()
	select {
	case ev, ok := <-r.ch:
		return ev, ok
	case <-time.After(5 * time.Second):
		r.t.Fatal("no SSE event within 5s")
		return sseEvent{}, false
	}
}

// nextMessage skips comments and returns the next event's message.
func (r *sseReader) nextMessage() map[string]any {
	r.t.Helper()
	for {
		ev, ok := r.next()
		if !ok {
			r.t.Fatal("the stream ended")
		}
		if ev.comment != "" {
			continue
		}
		var m map[string]any
		if err := json.Unmarshal([]byte(ev.data), &m); err != nil {
			r.t.Fatalf("event %q: %v", ev.data, err)
		}
		return m
	}
}

// legacyHeaders are the headers of a legacy client in session sid.
func legacyHeaders(sid string) http.Header {
	hd := http.Header{}
	hd.Set("Accept", "application/json, text/event-stream")
	hd.Set("Content-Type", "application/json")
	if sid != "" {
		hd.Set("Mcp-Session-Id", sid)
		hd.Set("MCP-Protocol-Version", "2025-11-25")
	}
	return hd
}

// initialize opens a legacy session with caps and returns its id.
func (f *fixture) initialize(caps string) string {
	f.t.Helper()
	r := f.postRead(legacyHeaders(""), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":`+caps+`,"clientInfo":{"name":"t","version":"1"}}}`)
	sid := r.header.Get("Mcp-Session-Id")
	if r.status != http.StatusOK || sid == "" {
		f.t.Fatalf("initialize: %d %q %s", r.status, sid, r.body)
	}
	if r := f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","method":"notifications/initialized"}`); r.status != http.StatusAccepted {
		f.t.Fatalf("initialized: %d %s", r.status, r.body)
	}
	return sid
}

// asCaller serves h behind a stand-in for an authentication middleware:
// a request's X-Test-Caller header names its principal, as a middleware
// would after checking a token; a request without it has none.
func asCaller(t *testing.T, h http.Handler) *httptest.Server {
	t.Helper()
	ts := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		if who := r.Header.Get("X-Test-Caller"); who != "" {
			r = r.WithContext(auth.WithPrincipal(r.Context(), &auth.Principal{Subject: who}))
		}
		h.ServeHTTP(w, r)
	}))
	t.Cleanup(ts.Close)
	return ts
}
