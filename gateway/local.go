package gateway

import (
	"context"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// local is the connection to an in-process upstream in the 2026-07-28
// era: no bytes and no pipe, but a stateless endpoint of the upstream's
// server (mcp.Endpoint) that serves each request on the goroutine that
// writes it, as an HTTP server serves a POST on the goroutine that reads
// it. What a request produces (progress, log messages, its response
// last) is handed to the client's reader function on the goroutine that
// produced it, so a call is encoded, served and answered without waking
// another goroutine: one hop of the gateway costs what the two ends do
// with the messages, and nothing for the way between them.
//
// Each request runs under a context of its own, ended when the writer's
// context ends or the client sends notifications/cancelled for it (the
// endpoint, stateless, ignores that notification): the upstream's handler
// sees none of the values of the gateway's handler context, as it would
// over a transport.
type local struct {
	ep   *mcp.Endpoint
	life context.Context
	end  context.CancelFunc

	mu       sync.RWMutex // held to read while handing a message over
	each     func(jsonrpc.Message, error, func())
	eachDone bool
	inbox    chan jsonrpc.Message // what was produced before Each began

	flight sync.Map // a request's id key -> its *inFlight
}

// localInbox bounds what waits for Each to begin (the era's probe).
const localInbox = 64

// newLocal serves srv to one client.
func newLocal(srv *mcp.Server) *local {
	life, end := context.WithCancel(context.Background())
	return &local{
		ep:   srv.NewEndpoint(mcp.EndpointOptions{Stateless: true, RunOnCaller: true, Transport: mcp.TransportStream}),
		life: life, end: end,
		inbox: make(chan jsonrpc.Message, localInbox),
	}
}

// Write serves msg: a request on the caller's goroutine, its answer
// handed to Each's function before Write returns, unless the endpoint
// hands it to a worker (a subscriptions/listen, or one that waits for a
// slot), when Write returns at once and the answer comes later. Either
// way the request's context ends once it is answered, when ctx ends, or
// when the client cancels it.
func (l *local) Write(ctx context.Context, msg jsonrpc.Message) error {
	if l.life.Err() != nil {
		return transport.ErrClosed
	}
	switch m := msg.(type) {
	case *jsonrpc.Request:
		rctx, cancel := context.WithCancel(l.life)
		key := m.ID.Key()
		f := &inFlight{cancel: cancel}
		f.stop = context.AfterFunc(ctx, func() { l.forget(key, f) })
		l.flight.Store(key, f)
		l.ep.Handle(rctx, m, l.deliver) // returns answered, or with the request handed to a worker (a listen)
		return nil
	case *jsonrpc.Notification:
		if m.Method == protocol.NotificationCancelled {
			var p protocol.CancelledNotificationParams
			if json.Unmarshal(m.Params, &p) == nil && p.RequestID.IsValid() {
				if f, ok := l.flight.Load(p.RequestID.Key()); ok {
					l.forget(p.RequestID.Key(), f.(*inFlight))
				}
			}
			return nil
		}
	}
	l.ep.Handle(l.life, msg, l.deliver)
	return nil
}

// inFlight is a request the upstream has not answered yet.
type inFlight struct {
	cancel context.CancelFunc // ends the request's context
	stop   func() bool        // stops watching the writer's context
}

// forget ends the request key names, once f is the one in flight under it.
func (l *local) forget(key string, f *inFlight) {
	if l.flight.CompareAndDelete(key, f) {
		f.stop()
		f.cancel()
	}
}

// deliver hands one message the upstream sent to the client's reader; a
// response ends its request's context once handed over.
func (l *local) deliver(msg jsonrpc.Message) {
	if r, ok := msg.(*jsonrpc.Response); ok {
		defer func() {
			if f, ok := l.flight.Load(r.ID.Key()); ok {
				l.forget(r.ID.Key(), f.(*inFlight))
			}
		}()
	}
	l.mu.RLock()
	fn, done := l.each, l.eachDone
	if fn != nil {
		fn(msg, nil, noDetach)
	}
	l.mu.RUnlock()
	if fn != nil || done {
		return
	}
	select {
	case l.inbox <- msg:
	case <-l.life.Done():
	}
}

// noDetach: the goroutines that hand messages over are the requests'
// own, and need no replacement.
func noDetach() {}

// Each calls fn with every message the upstream sends, on the goroutine
// that produced it (several at once); it returns when the connection
// closes.
func (l *local) Each(ctx context.Context, fn func(msg jsonrpc.Message, err error, detach func())) error {
	l.mu.Lock()
	l.each = fn
	l.mu.Unlock()
	defer func() {
		l.mu.Lock() // waits for the calls of fn in progress
		l.each, l.eachDone = nil, true
		l.mu.Unlock()
	}()
	for {
		select {
		case m := <-l.inbox:
			fn(m, nil, noDetach)
		case <-l.life.Done():
			return transport.ErrClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// Read is not used: the client reads with Each.
func (l *local) Read(ctx context.Context) (jsonrpc.Message, error) {
	select {
	case m := <-l.inbox:
		return m, nil
	case <-l.life.Done():
		return nil, transport.ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// Close ends the endpoint: calls in flight are answered as a server
// shutting down answers them.
func (l *local) Close() error {
	if l.life.Err() != nil {
		return nil
	}
	l.end()
	l.ep.Close()
	return nil
}
