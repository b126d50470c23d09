package mcp

import (
	"context"
	"fmt"
	"runtime/debug"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callerkey"
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
// On a session that runs calls on its caller (an endpoint with
// RunOnCaller), a call that would go to a worker is returned with runHere
// instead when a worker slot is free and no call waits for one: the caller
// runs it on its own goroutine, outside any lock, and it counts against
// MaxConcurrentCalls as a worker's call does. So is a call on a connection
// read with Each when it is alone (none other running or queued), or when
// the session is calm (see mayRunHere).
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
		ss.wg.Add(1)
		go func() {
			defer ss.wg.Done()
			c.complete(ss.run(m, c, r))
		}()
	default:
		limit := int64(ss.srv.opts.MaxConcurrentCalls + ss.srv.opts.MaxQueuedCalls)
		if ss.pending.Add(1) > limit {
			ss.pending.Add(-1)
			c.observeLimit("MaxQueuedCalls")
			c.complete(errorResponse(req.ID, overloaded("more than %d requests in flight", limit)))
			return c, nil
		}
		if ss.fair != nil {
			return c, ss.dispatchFair(m, c, r, bound, int64(len(req.Params)))
		}
		here := ss.mayRunHere() && (ss.claimWorker() || ss.takeIdleSlot())
		size := int64(len(req.Params))
		if !here && !ss.holdQueued(size) {
			ss.pending.Add(-1)
			c.observeLimit("MaxQueuedBytes")
			c.complete(errorResponse(req.ID, overloaded("the requests waiting for a handler already hold more than %d bytes",
				ss.srv.opts.MaxQueuedBytes)))
			return c, nil
		}
		if streamed && !here {
			// A worker's answer goes through the writer goroutine,
			// which coalesces answers under load.
			c.respond = ss.answerQueued
		}
		if d := ss.srv.opts.CallTimeout; d > 0 {
			c.startDeadline(d)
		}
		ss.wg.Add(1)
		if here {
			return c, func() {
				ss.runJob(job{m: m, c: c, r: r})
				ss.workers.Add(-1)
				ss.ensureWorker() // calls queued meanwhile may need the slot
			}
		}
		ss.jobs <- job{m, c, r, size} // never blocks: the channel holds limit jobs
		ss.ensureWorker()
	}
	return c, nil
}

// dispatchFair runs a call of an endpoint that callers share (see
// fairSlots): at once when a slot is free to its caller, after waiting its
// turn otherwise, on the dispatching goroutine when the endpoint runs
// calls on their caller (the returned function) and on a goroutine of its
// own otherwise. A call that waits holds its bytes against
// MaxQueuedBytes, as a queued call does. A tools/call that starts a task
// takes no slot: its handler takes one of its own (see slot.go).
func (ss *session) dispatchFair(m method, c *call, r *request, bound context.Context, paramBytes int64) (runHere func()) {
	caller := callerkey.Of(bound)
	var size int64 // the bytes held while waiting; 0: not waiting
	switch {
	case ss.taskCall(r):
		c.giveUpSlot()
	case !ss.fair.tryAcquire(caller):
		size = max(paramBytes, 1)
		if !ss.holdQueued(size) {
			ss.pending.Add(-1)
			c.observeLimit("MaxQueuedBytes")
			c.complete(errorResponse(r.id, overloaded("the requests waiting for a handler already hold more than %d bytes",
				ss.srv.opts.MaxQueuedBytes)))
			return nil
		}
	}
	if d := ss.srv.opts.CallTimeout; d > 0 {
		c.startDeadline(d)
	}
	ss.wg.Add(1)
	run := func() {
		got := size == 0 || ss.fair.acquire(c.ctx, caller)
		ss.runJob(job{m: m, c: c, r: r, size: size}) // one cancelled while it waited is answered, not run
		if got && c.holdsSlot() {
			ss.fair.release(caller)
		}
	}
	if ss.runOnCaller {
		return run
	}
	go run()
	return nil
}

// mayRunHere reports whether a call that would go to a worker may run on
// the goroutine that dispatched it instead, a worker slot permitting: on
// an endpoint that runs calls on its caller, when no call waits for a
// worker; on a connection read with Each (see readLoop), when the call is
// alone, or when the session is calm (see detacher.calm).
//
// A calm session runs a call on the reader even when calls wait in the
// queue: with a slot free they wait only for a worker to wake, and under
// a pipelined load the queue is rarely empty when the reader looks (it
// reads the next line in less time than a worker takes to wake), so
// waiting for an empty queue would leave the session with the pool.
func (ss *session) mayRunHere() bool {
	if ss.runOnCaller {
		return len(ss.jobs) == 0
	}
	return ss.detachable && (ss.pending.Load() == 1 || ss.detacher.calm())
}

// claimWorker takes a worker slot for a call run on its caller's
// goroutine, unless MaxConcurrentCalls slots are taken.
func (ss *session) claimWorker() bool {
	for {
		n := ss.workers.Load()
		if int(n) >= ss.srv.opts.MaxConcurrentCalls {
			return false
		}
		if ss.workers.CompareAndSwap(n, n+1) {
			return true
		}
	}
}

// takeIdleSlot ends a worker that waits for a job, if one does, and
// reports whether it did: the worker's slot is then the caller's. Workers
// started while calls had to queue hold their slots until they have waited
// workerIdle, and while calls keep coming they never wait that long: without
// this a session that had to queue once would hand every later call to a
// worker, even a lone one, for as long as the calls keep coming. The caller
// may so run before a call that was queued a moment earlier, as any call
// run on the reader of a calm session may (see mayRunHere).
func (ss *session) takeIdleSlot() bool {
	select {
	case ss.retire <- struct{}{}:
		return true
	default:
		return false
	}
}

// overloaded is the error of a request refused for a server limit.
func overloaded(format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInternalError, "server overloaded: "+format, args...).
		WithData(map[string]string{"reason": "overloaded"})
}

// quotaExceeded is the error of a request refused because its caller
// holds all it may of what limit bounds (see CodeQuotaExceeded).
func quotaExceeded(limit string, max int, format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(CodeQuotaExceeded, "quota exceeded: "+format, args...).
		WithData(map[string]any{"reason": "quota", "limit": limit, "max": max})
}

// holdQueued counts size more bytes held by waiting calls, unless that
// would pass MaxQueuedBytes while other calls wait: one request of any size
// may always wait.
func (ss *session) holdQueued(size int64) bool {
	n := ss.queuedBytes.Add(size)
	if n > int64(ss.srv.opts.MaxQueuedBytes) && n != size {
		ss.queuedBytes.Add(-size)
		return false
	}
	return true
}

// job is a call waiting for a worker.
type job struct {
	m    method
	c    *call
	r    *request
	size int64 // request bytes it holds while it waits
}

// ensureWorker starts a worker when jobs wait and no worker is idle, up to
// MaxConcurrentCalls. Workers are reused, so a handler that grew its
// goroutine's stack does not pay for that again on the next call.
func (ss *session) ensureWorker() {
	for len(ss.jobs) > int(ss.idle.Load()) {
		n := ss.workers.Load()
		if int(n) >= ss.srv.opts.MaxConcurrentCalls {
			return
		}
		if ss.workers.CompareAndSwap(n, n+1) {
			go ss.worker()
			return
		}
	}
}

// workerIdle is how long a worker waits for a job before it ends: a burst
// of calls leaves no goroutines behind once it is over, and a steady load
// keeps its workers (and their grown stacks). A session takes it when it
// begins (session.idleEnd), so that a test may change it for the sessions
// it starts while another's workers still run.
var workerIdle = 2 * time.Second

// worker runs queued calls until the session's job queue is closed, or
// until it has waited idleEnd for one.
func (ss *session) worker() {
	wait := time.NewTimer(ss.idleEnd)
	defer wait.Stop()
	for {
		ss.idle.Add(1)
		wait.Reset(ss.idleEnd)
		select {
		case j, ok := <-ss.jobs:
			ss.idle.Add(-1)
			if !ok {
				return
			}
			ss.runJob(j)
			if ss.retireIfOver() {
				ss.ensureWorker() // a job queued as this worker ended may have started none
				return
			}
		case <-ss.retire:
			// Its slot is now the call's that took it (see takeIdleSlot).
			// A job queued while this worker counted as idle started no
			// worker for it: start one now if a slot is free.
			ss.idle.Add(-1)
			ss.ensureWorker()
			return
		case <-wait.C:
			ss.idle.Add(-1)
			ss.workers.Add(-1)
			// A job queued while this worker still counted as idle
			// started no worker for it: start one now.
			ss.ensureWorker()
			return
		}
	}
}

// runJob runs one call unless it was cancelled while it waited. The
// call's slot among the calls in flight is free before its answer goes
// out, so a client that reads the answer and sends its next call at once
// is never refused for the call it has just seen answered.
func (ss *session) runJob(j job) {
	defer ss.wg.Done()
	ss.queuedBytes.Add(-j.size)
	var resp *jsonrpc.Response
	if j.c.ctx.Err() != nil {
		resp = errorResponse(j.r.id, context.Cause(j.c.ctx))
	} else {
		resp = ss.run(j.m, j.c, j.r)
	}
	ss.pending.Add(-1)
	j.c.complete(resp)
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
