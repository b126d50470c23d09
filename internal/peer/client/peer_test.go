package client

import (
	"bufio"
	"bytes"
	"context"
	"io"
	"strconv"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// peer is a scripted server at the far end of an in-memory pipe: it reads
// what the client sends, lets its script answer, and can write anything,
// garbage included.
type peer struct {
	t    testing.TB
	w    *io.PipeWriter // to the client
	mu   sync.Mutex
	got  []jsonrpc.Message // what the client sent, in order
	seen chan struct{}     // signalled on every message received
	done chan struct{}
}

// script answers one message from the client; it runs on the peer's
// reading goroutine.
type script func(p *peer, m jsonrpc.Message)

// newPeer starts a peer and returns the client's end of the pipe.
func newPeer(t testing.TB, s script) (*peer, transport.Conn) {
	cr, pw := io.Pipe()
	pr, cw := io.Pipe()
	conn := transport.NewStream(cr, cw, transport.Options{FlushTimeout: 100 * time.Millisecond})
	p := &peer{t: t, w: pw, seen: make(chan struct{}, 1), done: make(chan struct{})}
	go p.run(pr, s)
	t.Cleanup(func() {
		conn.Close()
		pw.Close()
		pr.Close()
		<-p.done
	})
	return p, conn
}

func (p *peer) run(r io.Reader, s script) {
	defer close(p.done)
	br := bufio.NewReader(r)
	for {
		line, err := br.ReadBytes('\n')
		if line = bytes.TrimSpace(line); len(line) > 0 {
			msg, derr := jsonrpc.Decode(line)
			if derr != nil {
				p.t.Errorf("the client wrote an invalid line %s: %v", line, derr)
			} else {
				p.mu.Lock()
				p.got = append(p.got, msg)
				p.mu.Unlock()
				select {
				case p.seen <- struct{}{}:
				default:
				}
				if s != nil {
					s(p, msg)
				}
			}
		}
		if err != nil {
			return
		}
	}
}

// write sends one raw line to the client.
func (p *peer) write(line string) { io.WriteString(p.w, line+"\n") }

// result answers id with a raw result.
func (p *peer) result(id jsonrpc.ID, result string) {
	p.write(`{"jsonrpc":"2.0","id":` + id.Raw() + `,"result":` + result + `}`)
}

// fail answers id with an error.
func (p *peer) fail(id jsonrpc.ID, code int64, data string) {
	line := `{"jsonrpc":"2.0","id":` + id.Raw() + `,"error":{"code":` + strconv.FormatInt(code, 10) + `,"message":"no"`
	if data != "" {
		line += `,"data":` + data
	}
	p.write(line + `}}`)
}

// hangUp closes the peer's output: the client reads EOF.
func (p *peer) hangUp() { p.w.Close() }

// sent returns what the client sent so far.
func (p *peer) sent() []jsonrpc.Message {
	p.mu.Lock()
	defer p.mu.Unlock()
	return append([]jsonrpc.Message(nil), p.got...)
}

// waitFor waits until the client sent a message that ok accepts.
func (p *peer) waitFor(ok func(jsonrpc.Message) bool) jsonrpc.Message {
	p.t.Helper()
	deadline := time.After(2 * time.Second)
	for {
		for _, m := range p.sent() {
			if ok(m) {
				return m
			}
		}
		select {
		case <-p.seen:
		case <-deadline:
			p.t.Fatalf("the client never sent the message awaited; it sent %d", len(p.sent()))
			return nil
		}
	}
}

// requests returns the requests the client sent for method.
func (p *peer) requests(method string) []*jsonrpc.Request {
	var out []*jsonrpc.Request
	for _, m := range p.sent() {
		if r, ok := m.(*jsonrpc.Request); ok && r.Method == method {
			out = append(out, r)
		}
	}
	return out
}

const discoverResult = `{"resultType":"complete","supportedVersions":["2026-07-28","2025-11-25"],` +
	`"capabilities":{"tools":{}},"ttlMs":0,"cacheScope":"private",` +
	`"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake-modern","version":"1"}}}`

const initializeResult = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{}},"serverInfo":{"name":"fake-legacy","version":"2"}}`

// modern answers server/discover, then every request through rest (or
// with a complete result echoing its params).
func modern(rest script) script {
	return func(p *peer, m jsonrpc.Message) {
		r, ok := m.(*jsonrpc.Request)
		switch {
		case !ok:
		case r.Method == "server/discover":
			p.result(r.ID, discoverResult)
		case rest != nil:
			rest(p, m)
		default:
			p.result(r.ID, `{"resultType":"complete","echo":`+string(r.Params)+`}`)
		}
	}
}

// legacy answers server/discover through onDiscover (nil: silence),
// initialize with initializeResult, then other messages through rest (or
// requests with an empty result).
func legacy(onDiscover func(p *peer, r *jsonrpc.Request), rest script) script {
	return func(p *peer, m jsonrpc.Message) {
		r, ok := m.(*jsonrpc.Request)
		switch {
		case ok && r.Method == "server/discover":
			if onDiscover != nil {
				onDiscover(p, r)
			}
		case ok && r.Method == "initialize":
			p.result(r.ID, initializeResult)
		case rest != nil:
			rest(p, m)
		case ok:
			p.result(r.ID, `{}`)
		}
	}
}

// connect connects a session to a peer running s.
func connect(t testing.TB, s script, opts Options) (*Session, *peer) {
	t.Helper()
	p, conn := newPeer(t, s)
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	defer cancel()
	sess, err := Connect(ctx, conn, opts)
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	t.Cleanup(func() { sess.Close() })
	return sess, p
}

// metaOf returns the members of a request's params._meta.
func metaOf(t testing.TB, r *jsonrpc.Request) map[string]json.RawMessage {
	t.Helper()
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if err := json.Unmarshal(r.Params, &p); err != nil {
		t.Fatalf("params %s: %v", r.Params, err)
	}
	return p.Meta
}

// bounded returns a context that ends after two seconds, so that a test
// of a broken client fails instead of hanging.
func bounded(t testing.TB) context.Context {
	ctx, cancel := context.WithTimeout(context.Background(), 2*time.Second)
	t.Cleanup(cancel)
	return ctx
}
