package mcp

import (
	"context"
	"errors"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ErrExchangeClosed is the cause of a call whose exchange ended before its
// response: the client went away (an HTTP client closed its connection).
var ErrExchangeClosed = errors.New("mcp: the client closed the exchange before the response")

// EndpointOptions configure an Endpoint.
type EndpointOptions struct {
	// Stateless makes every request stand alone, as 2026-07-28 requests
	// over HTTP do: ids may repeat across requests, notifications/cancelled
	// is ignored (a request is cancelled by ending its context), and
	// legacy requests are answered as on a connection never initialized.
	Stateless bool
	// Unsolicited receives what the server sends outside any request: a
	// legacy session's list_changed notifications, resource updates and
	// elicitation completions (the stream of a legacy HTTP session's GET).
	// Nil drops them. It must not block: it is called while the server
	// holds locks (a slow client's stream must queue or drop, not wait).
	Unsolicited func(jsonrpc.Message)
	// RunOnCaller lets Handle run a request on its caller's goroutine
	// rather than hand it to a worker, when MaxConcurrentCalls allows it
	// and no request waits for a worker; Handle then returns once the
	// request is answered. It spares a transport that already gives every
	// request a goroutine of its own (an HTTP server) two goroutine
	// hand-offs per call. On a Stateless endpoint every request runs on
	// its caller: one that must wait for a slot (every slot is taken, or
	// its caller holds its share, Options.MaxConcurrentCallsPerCaller)
	// waits there, and Handle returns once it is answered. The request's
	// messages before its response are sent from the goroutines that
	// produce them, as always, so a transport that streams them must not
	// wait for Handle to return before it starts writing them.
	RunOnCaller bool
	// Transport names the endpoint's transport to Options.Observer
	// (default TransportHTTP).
	Transport string
	// SessionID is the id of the session the endpoint serves, for
	// Options.Observer (a legacy HTTP session's Mcp-Session-Id); empty
	// when it serves no session with an id.
	SessionID string
}

// Endpoint serves messages that arrive one at a time, each with its own way
// back (an HTTP POST and its response), rather than on one connection: it
// is how a transport that is not a stream uses a Server. The requests of
// one Endpoint share what the requests of one connection share: the
// concurrency limits, the legacy session state once initialize was served
// on it, and the requests to the client awaiting answers. Handling, era
// rules and validation are those of Serve; nothing is duplicated.
type Endpoint struct {
	ss     *session
	mu     sync.RWMutex // held to read while handling, to write while closing
	closed bool

	transport, sessionID string // for Options.Observer
}

// NewEndpoint returns an endpoint of s. Close it when it is no longer
// needed (a legacy HTTP session that ended, the HTTP server shutting down).
func (s *Server) NewEndpoint(opts EndpointOptions) *Endpoint {
	ss := newSession(s, nil)
	ss.stateless = opts.Stateless
	if opts.Stateless {
		// Every caller of the transport shares it: one caller may not
		// take every slot (Options.MaxConcurrentCallsPerCaller).
		ss.sched.fair = newFairSlots(s.opts.MaxConcurrentCalls, s.opts.MaxConcurrentCallsPerCaller)
	}
	ss.unsolicited = opts.Unsolicited
	ss.sched.runOnCaller = opts.RunOnCaller
	s.sessMu.Lock()
	s.sessions[ss] = struct{}{}
	s.sessMu.Unlock()
	e := &Endpoint{ss: ss, transport: opts.Transport, sessionID: opts.SessionID}
	if e.transport == "" {
		e.transport = TransportHTTP
	}
	return e
}

// Handle serves one message and returns without waiting for it (unless
// the endpoint runs requests on its caller: see RunOnCaller). Every
// message a request produces goes to send, its response last (never after
// it; none at all for a request cancelled by its client): progress, log
// messages, a listen stream's notifications and, in the legacy era, the
// server's requests to the client, whose answers come back through Handle
// as responses. A notification or a response produces nothing. A batch
// (served only once 2025-03-26 was negotiated on the endpoint; refused with
// one -32600 response otherwise) produces one jsonrpc.BatchResponse, last,
// empty when it held no request to answer. When ctx
// ends before a request's response, the request is cancelled as
// notifications/cancelled would cancel it (its handler's context ends with
// ErrExchangeClosed as cause) and nothing more is sent for it. The values
// of ctx reach the handler's context (an HTTP middleware's, say), its
// cancellation only as just said. send must not block, for the reason
// Unsolicited must not.
func (e *Endpoint) Handle(ctx context.Context, m jsonrpc.Message, send func(jsonrpc.Message)) {
	if runHere := e.handle(ctx, m, nil, send); runHere != nil {
		runHere() // outside e.mu: Close must not wait for the call to end
	}
}

// handle serves m under e.mu, after check (see HandleRouted) when it is
// not nil; a request to be run on the caller's goroutine is returned
// instead.
func (e *Endpoint) handle(ctx context.Context, m jsonrpc.Message, check func(*Routed) bool, send func(jsonrpc.Message)) (runHere func()) {
	ss := e.ss
	e.mu.RLock()
	defer e.mu.RUnlock()
	if ss.srv.opts.Observer != nil && ctx != nil {
		ctx = context.WithValue(ctx, endpointKey{}, e) // names the endpoint to the observer
	}
	if e.closed {
		if check != nil && !ss.checkClosed(m, ctx, check) {
			return nil
		}
		if req, ok := m.(*jsonrpc.Request); ok {
			resp := errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInternalError, "server shutting down: the endpoint is closed"))
			if ob := ss.observe(ctx); ob != nil {
				ob.describe(req, nil)
				ob.refuse(ctx, resp, func(r *jsonrpc.Response) { send(r) })
				return nil
			}
			send(resp)
		}
		return nil
	}
	switch m := m.(type) {
	case *jsonrpc.Request:
		_, runHere = ss.dispatchChecked(m, func(r *jsonrpc.Response) {
			if r != nil {
				send(r)
			}
		}, send, ctx, check)
	case *jsonrpc.Notification:
		ss.notifyChecked(m, ctx, check)
	case *jsonrpc.Response:
		ss.out.deliver(m)
	case jsonrpc.Batch:
		runHere = ss.serveBatch(m, send, send, ctx)
	}
	return runHere
}

// Close ends the endpoint as Serve ends a connection: requests to the
// client are released, listen streams end with their graceful result, and
// calls in flight get Options.ShutdownGrace to finish before they are
// answered with an error and cancelled. It returns when they have, so it
// may block for the grace period (and a short wait for handlers that
// ignore cancellation).
func (e *Endpoint) Close() {
	e.mu.Lock()
	already := e.closed
	e.closed = true
	e.mu.Unlock()
	if !already {
		ss := e.ss
		s := ss.srv
		s.sessMu.Lock()
		delete(s.sessions, ss)
		s.sessMu.Unlock()
		ss.out.close()
		ss.forgetElicitations()
		ss.shutdown()
	}
}
