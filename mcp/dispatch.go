package mcp

import (
	"context"
	"fmt"
	"runtime/debug"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// dispatch answers one request through respond, exactly once; the call's
// own messages (progress, log messages, a listen stream's notifications,
// requests to the client) go to sink, or to the session's stream when sink
// is nil.
//
// The request is routed first; only a routed request becomes a call in
// flight (one that can be cancelled and must be answered), and every call
// ends through complete. The call is returned, nil when none was made;
// bound, when set, cancels it as ErrExchangeClosed once it ends before the
// call does, and its values reach the handler's context.
//
// A call that is neither inline nor long goes to the session's scheduler,
// which may hand it back as runHere: the caller runs it on its own
// goroutine, outside any lock, in a worker slot (see scheduler.submit).
//
// A nil respond means the session's own stream: answers are written at
// once when they can be (writeNow), except those of calls run by workers,
// which the writer goroutine coalesces (write).
func (ss *session) dispatch(req *jsonrpc.Request, respond responder, sink func(jsonrpc.Message), bound context.Context) (_ *call, runHere func()) {
	return ss.dispatchChecked(req, respond, sink, bound, nil)
}

// dispatchChecked is dispatch with a transport's check of the routed
// request (see Endpoint.HandleRouted); a request the check answered
// itself is dropped.
func (ss *session) dispatchChecked(req *jsonrpc.Request, respond responder, sink func(jsonrpc.Message), bound context.Context,
	check func(*Routed) bool) (_ *call, runHere func()) {
	streamed := respond == nil
	if streamed {
		respond = ss.answerNow
	}
	ob := ss.observe(bound) // nil without Options.Observer
	r, m, rerr := ss.route(req, bound, check)
	if rerr == errAnswered {
		return nil, nil
	}
	if ob != nil {
		ob.describe(req, r)
	}
	if rerr != nil {
		if ob != nil {
			ob.refuse(bound, errorResponse(req.ID, rerr), respond)
			return nil, nil
		}
		respond(errorResponse(req.ID, rerr))
		return nil, nil
	}
	c, ok := ss.track(r, respond, sink, bound, ob)
	if !ok {
		resp := errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"invalid request: id %s is already in use by a request in flight", clip.String(req.ID.String())))
		respond(resp)
		if ob != nil {
			ob.end(resp, nil) // track called StartRequest
		}
		return nil, nil
	}
	if bound != nil {
		// Every call ends through complete, which stops this.
		c.unbind = context.AfterFunc(bound, func() { c.cancelBy(ErrExchangeClosed) })
	}
	switch {
	case m.inline:
		c.complete(ss.run(m, c, r))
	case m.long:
		ss.sched.goLong(func() { c.complete(ss.run(m, c, r)) })
	default:
		runHere, limit, err := ss.sched.submit(job{m: m, c: c, r: r, size: int64(len(req.Params)), streamed: streamed})
		if err != nil {
			c.observeLimit(limit)
			c.complete(errorResponse(req.ID, err))
		}
		return c, runHere
	}
	return c, nil
}

// quotaExceeded is the error of a request refused because its caller
// holds all it may of what limit bounds (see CodeQuotaExceeded).
func quotaExceeded(limit string, max int, format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(CodeQuotaExceeded, "quota exceeded: "+format, args...).
		WithData(map[string]any{"reason": "quota", "limit": limit, "max": max})
}

// run calls the method's handler, turning a panic into -32603.
func (ss *session) run(m method, c *call, r *request) (resp *jsonrpc.Response) {
	defer func() {
		if p := recover(); p != nil {
			ss.log.Error("mcp: handler panicked", "method", r.method, "id", r.id.String(),
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp = errorResponse(r.id, jsonrpc.NewError(jsonrpc.CodeInternalError,
				"internal error: the handler for %s panicked", r.method))
		}
	}()
	if ss.srv.chain != nil {
		return ss.runChained(m, c, r)
	}
	result, err := m.handle(c, ss, c, r) // the call is its handler's context
	if c.ob != nil {
		c.observeResult(result)
	}
	if err != nil {
		return &jsonrpc.Response{ID: r.id, Error: eraError(jsonrpc.WireError(err), r.rev)}
	}
	switch v := result.(type) {
	case *jsonrpc.Response: // see encoded
		v.ID = r.id
		return v
	case json.RawMessage:
		return &jsonrpc.Response{ID: r.id, Result: v}
	}
	ss.srv.fillEnvelope(result, r)
	raw, err := json.Marshal(result)
	if err != nil {
		return errorResponse(r.id, fmt.Errorf("encoding the result: %w", err))
	}
	return &jsonrpc.Response{ID: r.id, Result: raw}
}

// encoded is how a handler returns a result it encoded itself: as the
// response run completes with the request's id. A json.RawMessage returned
// as any is boxed on the heap; the response would be allocated anyway, so
// this costs one allocation instead of two.
func encoded(raw json.RawMessage) any { return &jsonrpc.Response{Result: raw} }

// eraError maps error codes a revision does not define: in the modern era
// resource-not-found is -32602 (never -32002), and -32042 does not exist.
func eraError(e *jsonrpc.Error, r protocol.Revision) *jsonrpc.Error {
	if !r.Modern() {
		return e
	}
	switch e.Code {
	case jsonrpc.CodeResourceNotFound:
		c := *e
		c.Code = jsonrpc.CodeInvalidParams
		return &c
	case jsonrpc.CodeURLElicitationRequired:
		c := *e
		c.Code, c.Data = jsonrpc.CodeInternalError, nil
		return &c
	}
	return e
}

func errorResponse(id jsonrpc.ID, err error) *jsonrpc.Response {
	return jsonrpc.NewErrorResponse(id, err)
}
