package mcphttp

import (
	"context"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// maxQueuedNotes bounds the notifications waiting to be written on one
// exchange; beyond it (a client that stopped reading) they are dropped.
// Requests to the client and the response are never dropped.
const maxQueuedNotes = 1024

// exchange is the way back of one POSTed request: the Endpoint sends to it
// from any goroutine, never blocking (listen notifications are sent under
// the server's locks), and the ServeHTTP goroutine writes what it queued.
type exchange struct {
	mu      sync.Mutex
	queue   []jsonrpc.Message
	notes   int           // notifications in queue
	wake    chan struct{} // capacity 1: something was queued
	over    bool          // ServeHTTP returned: drop everything
	dropped int
	abandon chan struct{} // closed when no response will come (see end)
	endOnce sync.Once

	// Where the writing loop runs, for serve: on the ServeHTTP goroutine
	// once the request was handed over, or on a goroutine of its own,
	// started by the first message that comes before the response while
	// the request still runs on the ServeHTTP goroutine.
	loop    loopPlace
	serving bool          // serve is handing the request over: a message before the response starts the loop elsewhere
	ran     chan struct{} // closed when a loop started elsewhere returned
	result  *jsonrpc.Response
	ctx     context.Context // serve's, for the loop started elsewhere
	w       http.ResponseWriter
	o       replyOpts
	// answered is set by the transport's check of the routed request,
	// before the request is served, when the check answered it itself
	// (or handed it elsewhere): serve then writes nothing.
	answered bool
}

// loopPlace says where an exchange's writing loop runs.
type loopPlace int

const (
	loopUndecided loopPlace = iota
	loopHere                // the ServeHTTP goroutine runs it
	loopElsewhere           // a goroutine of its own runs it
)

func newExchange() *exchange {
	return &exchange{wake: make(chan struct{}, 1), abandon: make(chan struct{})}
}

// send queues a message; it is the send function given to Endpoint.Handle.
func (x *exchange) send(m jsonrpc.Message) { x.put(m) }

// put queues a message and reports whether it was queued: false once
// ServeHTTP returned, or for a notification beyond maxQueuedNotes.
func (x *exchange) put(m jsonrpc.Message) bool {
	x.mu.Lock()
	if x.over {
		x.mu.Unlock()
		return false
	}
	if _, ok := m.(*jsonrpc.Notification); ok {
		if x.notes >= maxQueuedNotes {
			x.dropped++
			x.mu.Unlock()
			return false
		}
		x.notes++
	}
	x.queue = append(x.queue, m)
	if !isFinal(m) && x.loop == loopUndecided && x.serving {
		// The request runs on the ServeHTTP goroutine and has something to
		// say before its response: the writing cannot wait for it.
		x.loop = loopElsewhere
		x.ran = make(chan struct{})
		go x.runElsewhere()
	}
	x.mu.Unlock()
	select {
	case x.wake <- struct{}{}:
	default:
	}
	return true
}

// isFinal reports whether m ends an exchange: a response, or a batch's
// responses.
func isFinal(m jsonrpc.Message) bool {
	switch m.(type) {
	case *jsonrpc.Response, jsonrpc.BatchResponse:
		return true
	}
	return false
}

// end tells the exchange that no response will come (its request was
// cancelled by the client with notifications/cancelled).
func (x *exchange) end() { x.endOnce.Do(func() { close(x.abandon) }) }

// take returns what was queued and empties the queue.
func (x *exchange) take() []jsonrpc.Message {
	x.mu.Lock()
	defer x.mu.Unlock()
	q := x.queue
	x.queue, x.notes = nil, 0
	return q
}

// finish makes later sends no-ops and returns how many were dropped.
func (x *exchange) finish() int {
	x.mu.Lock()
	defer x.mu.Unlock()
	x.over = true
	x.queue = nil
	return x.dropped
}

// replyOpts shape how an exchange's messages become an HTTP response.
type replyOpts struct {
	sse       bool                               // the client accepts text/event-stream
	status    func(*jsonrpc.Response) int        // the status of a JSON response
	prepare   func(http.Header, jsonrpc.Message) // sets headers before the first write
	keepAlive time.Duration
	// unanswerable answers a request to the client that cannot be
	// delivered (the client does not accept a stream).
	unanswerable func(*jsonrpc.Request)
	log          *slog.Logger
}

// serve hands the request over with handle, which may run it on this
// goroutine to its end (mcp.EndpointOptions.RunOnCaller), and writes the
// exchange's messages to w as run does: here once handle returned, or,
// when a message came before the response while handle still ran, on a
// goroutine started for it, which serve waits for. It returns the
// response, nil when none was written.
func (x *exchange) serve(ctx context.Context, w http.ResponseWriter, o replyOpts, handle func()) *jsonrpc.Response {
	x.mu.Lock()
	x.serving, x.ctx, x.w, x.o = true, ctx, w, o
	x.mu.Unlock()
	handle()
	if x.answered {
		return nil
	}
	x.mu.Lock()
	if x.loop == loopElsewhere {
		x.mu.Unlock()
		<-x.ran
		return x.result
	}
	x.loop = loopHere
	x.mu.Unlock()
	return x.run(ctx, w, o)
}

// runElsewhere is the loop of serve started on a goroutine of its own.
func (x *exchange) runElsewhere() {
	defer close(x.ran)
	x.result = x.run(x.ctx, x.w, x.o)
}

// run writes the exchange's messages to w until the response, the client
// going away (ctx), or end. The first message decides the form: the
// response alone is answered as application/json; anything before it
// switches to text/event-stream when the client accepts it (otherwise the
// messages before the response are dropped). It returns the response, nil
// when none was written.
func (x *exchange) run(ctx context.Context, w http.ResponseWriter, o replyOpts) *jsonrpc.Response {
	defer func() {
		if n := x.finish(); n > 0 && o.log != nil {
			o.log.Warn("mcphttp: notifications dropped: the client did not read them in time", "dropped", n)
		}
	}()
	w2 := &writer{w: w, o: o}
	defer func() {
		if w2.ticker != nil {
			w2.ticker.Stop()
		}
	}()
	for {
		select {
		case <-ctx.Done():
			return nil
		case <-x.abandon:
			// A response queued just before the cancellation still goes out.
			if done, resp := w2.deliver(x.take()); done {
				return resp
			}
			if w2.stream == nil {
				w.WriteHeader(http.StatusNoContent)
			}
			return nil
		case <-w2.tick:
			if w2.stream.comment("keep-alive") != nil {
				return nil
			}
		case <-x.wake:
			if done, resp := w2.deliver(x.take()); done {
				return resp
			}
		}
	}
}

// writer turns messages into the HTTP response of one exchange.
type writer struct {
	w      http.ResponseWriter
	o      replyOpts
	stream *sseStream
	ticker *time.Ticker
	tick   <-chan time.Time
}

// deliver writes msgs; done is true once the response was written or the
// client cannot be written to any more.
func (wr *writer) deliver(msgs []jsonrpc.Message) (done bool, resp *jsonrpc.Response) {
	o := wr.o
	for _, m := range msgs {
		if br, ok := m.(jsonrpc.BatchResponse); ok {
			// A batch's answer ends its exchange like a response; an empty
			// one (no request to answer) is 202 when nothing was written.
			switch {
			case wr.stream == nil && len(br) == 0:
				wr.w.WriteHeader(http.StatusAccepted)
			case wr.stream == nil:
				writeJSON(wr.w, http.StatusOK, br)
			case len(br) > 0:
				_ = wr.stream.event(br)
			}
			return true, nil
		}
		r, isResp := m.(*jsonrpc.Response)
		if wr.stream == nil {
			if isResp {
				if o.prepare != nil {
					o.prepare(wr.w.Header(), m)
				}
				writeJSON(wr.w, o.status(r), r)
				return true, r
			}
			if !o.sse {
				// Without a stream a question cannot reach the client:
				// it is answered as refused so that the call goes on at
				// once; notifications are dropped.
				if q, ok := m.(*jsonrpc.Request); ok && o.unanswerable != nil {
					o.unanswerable(q)
				}
				continue
			}
			if o.prepare != nil {
				o.prepare(wr.w.Header(), m)
			}
			wr.stream = openSSE(wr.w)
			wr.ticker = time.NewTicker(o.keepAlive)
			wr.tick = wr.ticker.C
		}
		if wr.stream.event(m) != nil {
			return true, nil
		}
		if isResp {
			return true, r
		}
	}
	return false, nil
}
