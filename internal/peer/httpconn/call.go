package httpconn

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptrace"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// call is one request in flight: its POST and the streams that carry its
// answer.
type call struct {
	id     jsonrpc.ID
	out    outgoing
	ctx    context.Context // ends with Close, or when the request is cancelled
	cancel context.CancelFunc
	sent   chan error // the outcome of sending: nil once written
	once   sync.Once

	answered bool // a response (or an invalid message) with id was delivered; the call's goroutine only
}

// signal tells the waiting Write how sending went, once. It reports
// whether this was the once: false means Write was told already.
func (cl *call) signal(err error) (first bool) {
	cl.once.Do(func() { cl.sent <- err; first = true })
	return first
}

// track registers a request in flight (enter was called).
func (c *Conn) track(id jsonrpc.ID, out outgoing) *call {
	ctx, cancel := context.WithCancel(c.life)
	cl := &call{id: id, out: out, ctx: ctx, cancel: cancel, sent: make(chan error, 1)}
	c.mu.Lock()
	c.inflight[id.Key()] = cl
	c.mu.Unlock()
	return cl
}

// untrack forgets a request that is done.
func (c *Conn) untrack(cl *call) {
	c.mu.Lock()
	if c.inflight[cl.id.Key()] == cl {
		delete(c.inflight, cl.id.Key())
	}
	c.mu.Unlock()
	cl.cancel()
	c.wg.Done()
}

// run POSTs a request and reads its answer; traced, it tells the Write
// waiting on another goroutine as soon as the request is written.
func (c *Conn) run(cl *call, traced bool) {
	defer c.untrack(cl)
	ctx := cl.ctx
	if traced {
		ctx = httptrace.WithClientTrace(ctx, &httptrace.ClientTrace{WroteRequest: func(w httptrace.WroteRequestInfo) {
			if w.Err == nil {
				cl.signal(nil)
			}
		}})
	}
	req, err := c.newRequest(ctx, http.MethodPost, bytes.NewReader(cl.out.body), cl.out.header)
	if err != nil {
		cl.signal(err)
		return
	}
	resp, err := c.client.Do(req)
	if err != nil {
		err = c.doError(cl.ctx, cl.ctx, err)
		if !cl.signal(err) && signInFailed(err) {
			// Write returned when the first attempt was written; the
			// sign-in that followed its 401 failed, and the Conn lives
			// on: the request fails through Read.
			cl.answered = true
			c.deliver(nil, &RequestError{ID: cl.id, Err: err})
		}
		return
	}
	cl.signal(nil)
	defer resp.Body.Close()
	c.answer(cl, resp)
}

// answer reads the HTTP response to a request.
func (c *Conn) answer(cl *call, resp *http.Response) {
	if cl.out.method == protocol.MethodInitialize && ok(resp.StatusCode) {
		if sid := resp.Header.Get(hdrSessionID); sid != "" {
			c.mu.Lock()
			c.sessionID = sid
			c.mu.Unlock()
		}
	}
	kind := mediaType(resp.Header.Get("Content-Type"))
	switch {
	case !ok(resp.StatusCode):
		c.refused(cl, resp)
	case kind == typeStream:
		c.stream(cl, resp.Body)
	case kind == typeJSON:
		c.jsonBody(cl, resp)
	default:
		b, _ := io.ReadAll(io.LimitReader(resp.Body, excerptBytes))
		c.unanswered(cl, "the HTTP response to %s was %s, where a request is answered with %s or %s", cl.out.method, describe(resp, b), typeJSON, typeStream)
	}
}

// broke handles an answer that could not be read: nothing, when the
// request was cancelled or the Conn closed; otherwise the connection is
// taken as lost, as a stdio server's exit is.
func (c *Conn) broke(cl *call, err error) {
	if cl.ctx.Err() != nil {
		return
	}
	c.fail(fmt.Errorf("reading the answer to %s: %w", cl.out.method, err))
}

// stream reads a text/event-stream answer until the request's response.
// A legacy stream that ends before it, having given an event id, is
// resumed with GET and Last-Event-ID after the retry hint, a few times.
func (c *Conn) stream(cl *call, body io.ReadCloser) {
	r := newSSEReader(body, c.opts.MaxMessageBytes)
	cur := body
	defer func() { cur.Close() }()
	for resumes := 0; ; resumes++ {
		err := c.events(cl, r)
		switch {
		case cl.answered || cl.ctx.Err() != nil || errors.Is(err, transport.ErrClosed):
			return
		case errors.Is(err, errEventTooLarge):
			c.unanswered(cl, "the %s answering %s: %v", typeStream, cl.out.method, err)
			return
		case err != io.EOF:
			c.broke(cl, err)
			return
		case cl.out.modern || r.lastID == "" || resumes == maxResumes:
			c.unanswered(cl, "the %s answering %s ended before the response to id %s%s", typeStream, cl.out.method, cl.id, cutShort(r))
			return
		}
		next, ok := c.resume(cl, r)
		if !ok {
			return
		}
		cur.Close()
		cur = next
		r.reset(next)
	}
}

// cutShort says that the stream ended in the middle of an event.
func cutShort(r *sseReader) string {
	if r.truncated {
		return " (it ended in the middle of an event, which is dropped)"
	}
	return ""
}

// events reads events and handles their messages until the request's
// response (nil), or the end of the stream (io.EOF or the read error).
func (c *Conn) events(cl *call, r *sseReader) error {
	for {
		ev, err := r.next()
		if err != nil {
			return err
		}
		if ev.typ != "" && ev.typ != "message" {
			c.problem("an SSE event of type %q, which MCP does not use, was ignored", clipString(ev.typ))
			continue
		}
		if len(bytes.TrimSpace(ev.data)) == 0 {
			continue // a priming event: an id to resume from
		}
		if !c.handle(cl, ev.data) {
			return transport.ErrClosed
		}
		if cl != nil && cl.answered {
			return nil
		}
	}
}
