package harness

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"strings"
	"sync"
	"time"
)

// Exchange is one HTTP request the client made and what it got back, as
// far as the checks need it. The JSON-RPC messages of its bodies are lines
// of the Wire whose Exchange is N.
type Exchange struct {
	N          int    // 1-based, in the order the client sent them
	Method     string // GET, POST, DELETE
	SessionID  string // the Mcp-Session-Id the client sent, or ""
	Version    string // the MCP-Protocol-Version header the client sent, or ""
	Requests   int    // JSON-RPC requests in the request body
	Messages   int    // JSON-RPC messages in the request body
	Status     int    // the response status, 0 when the request failed
	Type       string // the response Content-Type, without parameters
	NewSession string // the Mcp-Session-Id the response carried, or ""
	Err        string // the transport error, when there was no response
	Body       string // the start of a body that is neither JSON nor SSE
	// ClosedEarly is when the client closed a text/event-stream response
	// before its end (how an SDK drops a stream it no longer wants); zero
	// otherwise.
	ClosedEarly time.Time
}

// String describes the exchange for transcripts and reports.
func (e Exchange) String() string {
	var b strings.Builder
	fmt.Fprintf(&b, "#%d %s", e.N, e.Method)
	if e.SessionID != "" {
		fmt.Fprintf(&b, " [Mcp-Session-Id %s]", e.SessionID)
	}
	if e.Version != "" {
		fmt.Fprintf(&b, " [MCP-Protocol-Version %s]", e.Version)
	}
	if e.Method == http.MethodPost {
		fmt.Fprintf(&b, " (%d messages, %d requests)", e.Messages, e.Requests)
	}
	if e.Err != "" {
		fmt.Fprintf(&b, " → error %s", e.Err)
		return b.String()
	}
	fmt.Fprintf(&b, " → %d %s", e.Status, e.Type)
	if e.NewSession != "" {
		fmt.Fprintf(&b, " [Mcp-Session-Id %s]", e.NewSession)
	}
	if e.Body != "" {
		fmt.Fprintf(&b, " %q", e.Body)
	}
	if !e.ClosedEarly.IsZero() {
		b.WriteString("; the client closed the response before its end")
	}
	return b.String()
}

// HTTPClient returns an HTTP client whose transport records, in w, every
// exchange and every JSON-RPC message of the request bodies it sends and of
// the response bodies (application/json, or each event of a
// text/event-stream) as the SDK reads them.
func HTTPClient(w *Wire) *http.Client {
	return &http.Client{Transport: &httpTap{w: w, next: http.DefaultTransport}}
}

type httpTap struct {
	w    *Wire
	next http.RoundTripper
}

func (t *httpTap) RoundTrip(req *http.Request) (*http.Response, error) {
	ex := Exchange{Method: req.Method, SessionID: req.Header.Get("Mcp-Session-Id"), Version: req.Header.Get("Mcp-Protocol-Version")}
	var body []byte
	if req.Body != nil && req.Body != http.NoBody {
		var err error
		body, err = io.ReadAll(req.Body)
		req.Body.Close()
		if err != nil {
			return nil, err
		}
		clone := req.Clone(req.Context())
		clone.Body = io.NopCloser(bytes.NewReader(body))
		clone.ContentLength = int64(len(body))
		req = clone
	}
	msgs := splitMessages(body)
	for _, m := range msgs {
		ex.Messages++
		if l := parseLine(0, ClientToServer, m); l.IsRequest() {
			ex.Requests++
		}
	}
	n := t.w.startExchange(ex)
	for _, m := range msgs {
		t.w.add(ClientToServer, m, n)
	}
	resp, err := t.next.RoundTrip(req)
	if err != nil {
		t.w.endExchange(n, func(e *Exchange) { e.Err = err.Error() })
		return nil, err
	}
	ct, _, _ := strings.Cut(resp.Header.Get("Content-Type"), ";")
	ct = strings.TrimSpace(strings.ToLower(ct))
	t.w.endExchange(n, func(e *Exchange) {
		e.Status = resp.StatusCode
		e.Type = ct
		e.NewSession = resp.Header.Get("Mcp-Session-Id")
	})
	resp.Body = &tapBody{rc: resp.Body, w: t.w, n: n, sse: ct == "text/event-stream", json: ct == "application/json", ctx: req.Context()}
	return resp, nil
}

// splitMessages returns the messages of a JSON-RPC body: the body itself,
// or each element of a batch.
func splitMessages(body []byte) [][]byte {
	body = bytes.TrimSpace(body)
	if len(body) == 0 {
		return nil
	}
	if body[0] == '[' {
		var batch []json.RawMessage
		if json.Unmarshal(body, &batch) == nil {
			out := make([][]byte, len(batch))
			for i, m := range batch {
				out[i] = m
			}
			return out
		}
	}
	return [][]byte{body}
}

// tapBody passes a response body through and records its messages as they
// are read.
type tapBody struct {
	rc   io.ReadCloser
	w    *Wire
	n    int
	sse  bool
	json bool
	// ctx is the request's context: a read that fails once it has ended
	// failed because the client ended the stream, not the server.
	ctx context.Context

	mu     sync.Mutex
	buf    []byte
	data   [][]byte // the data lines of the event being read
	closed bool
	eof    bool
}

func (b *tapBody) Read(p []byte) (int, error) {
	n, err := b.rc.Read(p)
	b.mu.Lock()
	defer b.mu.Unlock()
	if b.closed {
		return n, err
	}
	b.buf = append(b.buf, p[:n]...)
	if b.sse {
		b.events()
	}
	if err != nil {
		if b.sse && err != io.EOF && b.ctx.Err() != nil {
			b.closedEarly()
		}
		b.eof = true
		b.finish()
	}
	return n, err
}

// closedEarly notes that the client ended an event stream before the
// server did: by closing the body, or by ending the request's context
// while a read waited (which fails the read before any Close).
func (b *tapBody) closedEarly() {
	now := time.Now()
	b.w.endExchange(b.n, func(e *Exchange) { e.ClosedEarly = now })
}

func (b *tapBody) Close() error {
	b.mu.Lock()
	if !b.closed {
		b.finish()
	}
	if !b.eof && b.sse {
		b.eof = true
		b.closedEarly()
	}
	b.mu.Unlock()
	return b.rc.Close()
}

// events records every complete event in buf.
func (b *tapBody) events() {
	for {
		i := bytes.IndexByte(b.buf, '\n')
		if i < 0 {
			return
		}
		line := bytes.TrimSuffix(b.buf[:i], []byte("\r"))
		b.buf = b.buf[i+1:]
		switch {
		case len(line) == 0:
			if len(b.data) > 0 {
				if msg := bytes.Join(b.data, []byte("\n")); len(bytes.TrimSpace(msg)) > 0 {
					b.w.add(ServerToClient, msg, b.n)
				}
			}
			b.data = nil
		case bytes.HasPrefix(line, []byte("data:")):
			d := bytes.TrimPrefix(line[5:], []byte(" "))
			b.data = append(b.data, append([]byte(nil), d...))
		}
	}
}

// finish records what is left once the body ends or is closed.
func (b *tapBody) finish() {
	b.closed = true
	switch {
	case b.json:
		for _, m := range splitMessages(b.buf) {
			b.w.add(ServerToClient, m, b.n)
		}
	case !b.sse && len(bytes.TrimSpace(b.buf)) > 0:
		body := head(bytes.TrimSpace(b.buf))
		b.w.endExchange(b.n, func(e *Exchange) { e.Body = body })
	}
	b.buf = nil
}

// startExchange records a new exchange and returns its number.
func (w *Wire) startExchange(ex Exchange) int {
	w.mu.Lock()
	defer w.mu.Unlock()
	ex.N = len(w.exchanges) + 1
	w.exchanges = append(w.exchanges, ex)
	return ex.N
}

// endExchange updates exchange n with what its response said, and notes it
// in the transcript where it happened.
func (w *Wire) endExchange(n int, f func(*Exchange)) {
	w.mu.Lock()
	defer w.mu.Unlock()
	f(&w.exchanges[n-1])
	w.notes = append(w.notes, note{at: len(w.lines), text: w.exchanges[n-1].String(), t: time.Now()})
}

// add records one whole message that travelled in direction d in exchange n.
func (w *Wire) add(d Dir, msg []byte, n int) {
	w.mu.Lock()
	defer w.mu.Unlock()
	l := parseLine(len(w.lines), d, msg)
	l.Exchange = n
	w.lines = append(w.lines, l)
}

// Exchanges returns a copy of the HTTP exchanges recorded so far.
func (w *Wire) Exchanges() []Exchange {
	w.mu.Lock()
	defer w.mu.Unlock()
	return append([]Exchange(nil), w.exchanges...)
}
