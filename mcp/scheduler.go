package mcp

import (
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/callerkey"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// scheduler decides where and when the calls of one session run, and
// bounds how many do. Its contract is narrow: submit a call that needs a
// handler's time (a tools/call, a resources/read, ...), and close, with a
// grace period, once no more are submitted. Inline methods never reach it
// (the session runs them where it reads them); long ones
// (subscriptions/listen) only to be waited for at close (goLong).
//
// A submitted call runs in one of three ways, which
// scheduler_bench_test.go measures against each other:
//
//   - pooled: on a worker, one of at most MaxConcurrentCalls goroutines
//     reused between calls, each ending once it has waited workerIdle for
//     a job;
//   - on its caller: on the goroutine that submitted it, in a worker
//     slot, when submit returns it as runHere. That is the reader of a
//     connection read with transport.FastStream.Each, which detaches
//     reading from the call once it runs past detachAfter (see
//     mayRunHere and runOnReader), or the caller of an endpoint that runs
//     calls on their caller (EndpointOptions.RunOnCaller);
//   - on an endpoint that callers share (stateless HTTP), in one of its
//     fairSlots, on the caller's goroutine or one of its own.
//
// Calls that wait hold their request's bytes against MaxQueuedBytes, and
// at most MaxConcurrentCalls+MaxQueuedCalls run or wait at once.
type scheduler struct {
	runner         jobRunner
	maxCalls       int   // Options.MaxConcurrentCalls: the slots
	limit          int64 // the calls that may run or wait at once
	maxQueuedBytes int64 // Options.MaxQueuedBytes

	fair        *fairSlots // an endpoint that callers share: its slots, shared fairly (nil: the workers')
	runOnCaller bool       // an endpoint that runs calls on its caller (see EndpointOptions)
	detachable  bool       // read with transport.FastStream.Each: a call may run on the reader, which detaches it if it runs long
	detacher    detacher   // detaches a call on the reader that runs long

	jobs        chan job       // calls waiting for a worker
	retire      chan struct{}  // an idle worker that receives ends and hands its slot to the sender (see takeIdleSlot)
	idleEnd     time.Duration  // how long a worker waits for a job before it ends (workerIdle when the scheduler began)
	workers     atomic.Int32   // worker slots taken: workers started, calls run on their caller, adopted slots
	idle        atomic.Int32   // workers waiting for a job
	pending     atomic.Int64   // running plus queued calls
	wg          sync.WaitGroup // one per call not yet finished
	queuedBytes atomic.Int64   // request bytes held by calls waiting for a worker or a fair slot
}

// job is one submitted call, for a worker or for its caller.
type job struct {
	m    method
	c    *call
	r    *request
	size int64 // request bytes it holds while it waits
	// streamed: the call answers on the session's own stream, where a
	// worker's answer goes through the writer goroutine (see
	// session.admit).
	streamed bool
}

// jobRunner is what a scheduler runs its jobs with: the session.
type jobRunner interface {
	// admit is told of a job the scheduler accepted, before it can
	// run; onWorker tells whether a worker or a goroutine of its own
	// (not the caller) will run it.
	admit(j job, onWorker bool)
	// execute runs the job and returns its answer: an error when the
	// call was cancelled while it waited.
	execute(j job) *jsonrpc.Response
	// answer delivers the answer, once the job's slot is free again.
	answer(j job, r *jsonrpc.Response)
	// startsTask reports whether the job is a tools/call that starts a
	// task, whose handler takes a slot of its own on an endpoint that
	// callers share (see slot.go).
	startsTask(j job) bool
}

// The limits submit refuses a call for, by their Options field.
const (
	limitQueuedCalls = "MaxQueuedCalls"
	limitQueuedBytes = "MaxQueuedBytes"
)

func newScheduler(runner jobRunner, opts *Options) scheduler {
	return scheduler{
		runner:         runner,
		maxCalls:       opts.MaxConcurrentCalls,
		limit:          int64(opts.MaxConcurrentCalls + opts.MaxQueuedCalls),
		maxQueuedBytes: int64(opts.MaxQueuedBytes),
		jobs:           make(chan job, opts.MaxConcurrentCalls+opts.MaxQueuedCalls),
		retire:         make(chan struct{}),
		idleEnd:        workerIdle,
	}
}

// submit schedules j: on a worker, or on the caller's goroutine, returned
// as runHere (the caller runs it, outside any lock), or on an endpoint
// that callers share as fairSlots allow. A call that would pass a limit
// is refused instead: limit names it (limitQueuedCalls or
// limitQueuedBytes), err is the call's answer, and j is never run nor
// admitted.
func (sc *scheduler) submit(j job) (runHere func(), limit string, err *jsonrpc.Error) {
	if sc.pending.Add(1) > sc.limit {
		sc.pending.Add(-1)
		return nil, limitQueuedCalls, overloaded("more than %d requests in flight", sc.limit)
	}
	if sc.fair != nil {
		return sc.submitFair(j)
	}
	here := sc.mayRunHere() && (sc.claimWorker() || sc.takeIdleSlot())
	if !here && !sc.holdQueued(j.size) {
		sc.pending.Add(-1)
		return nil, limitQueuedBytes, sc.queuedBytesError()
	}
	sc.runner.admit(j, !here)
	sc.wg.Add(1)
	if here {
		m, c, r := j.m, j.c, j.r // not j: the closure stays in a smaller size class
		return func() {
			sc.runJob(job{m: m, c: c, r: r})
			sc.workers.Add(-1)
			sc.ensureWorker() // calls queued meanwhile may need the slot
		}, "", nil
	}
	sc.jobs <- j // never blocks: the channel holds limit jobs
	sc.ensureWorker()
	return nil, "", nil
}

// queuedBytesError is the answer of a call refused for MaxQueuedBytes.
func (sc *scheduler) queuedBytesError() *jsonrpc.Error {
	return overloaded("the requests waiting for a handler already hold more than %d bytes", sc.maxQueuedBytes)
}

// submitFair runs a call of an endpoint that callers share (see
// fairSlots): at once when a slot is free to its caller, after waiting its
// turn otherwise, on the submitting goroutine when the endpoint runs
// calls on their caller (the returned function) and on a goroutine of its
// own otherwise. A call that waits holds its bytes against
// MaxQueuedBytes, as a queued call does. A tools/call that starts a task
// takes no slot: its handler takes one of its own (see slot.go).
func (sc *scheduler) submitFair(j job) (runHere func(), limit string, err *jsonrpc.Error) {
	caller := callerkey.Of(j.c.ctx)
	size := j.size
	j.size = 0 // the bytes held while waiting; 0: not waiting
	switch {
	case sc.runner.startsTask(j):
		j.c.giveUpSlot()
	case !sc.fair.tryAcquire(caller):
		j.size = max(size, 1)
		if !sc.holdQueued(j.size) {
			sc.pending.Add(-1)
			return nil, limitQueuedBytes, sc.queuedBytesError()
		}
	}
	sc.runner.admit(j, !sc.runOnCaller)
	sc.wg.Add(1)
	run := func() {
		got := j.size == 0 || sc.fair.acquire(j.c.ctx, caller)
		sc.runJob(j) // one cancelled while it waited is answered, not run
		if got && j.c.holdsSlot() {
			sc.fair.release(caller)
		}
	}
	if sc.runOnCaller {
		return run, "", nil
	}
	go run()
	return nil, "", nil
}

// goLong runs fn, a call that lasts until it is cancelled (a listen
// stream), on a goroutine of its own, outside the concurrency limit;
// close waits for it as for any call.
func (sc *scheduler) goLong(fn func()) {
	sc.wg.Add(1)
	go func() {
		defer sc.wg.Done()
		fn()
	}()
}

// mayRunHere reports whether a call that would go to a worker may run on
// the goroutine that submitted it instead, a worker slot permitting: on
// an endpoint that runs calls on its caller, when no call waits for a
// worker; on a connection read with Each, when the call is alone, or
// when the session is calm (see detacher.calm).
//
// A calm session runs a call on the reader even when calls wait in the
// queue: with a slot free they wait only for a worker to wake, and under
// a pipelined load the queue is rarely empty when the reader looks (it
// reads the next line in less time than a worker takes to wake), so
// waiting for an empty queue would leave the session with the pool.
func (sc *scheduler) mayRunHere() bool {
	if sc.runOnCaller {
		return len(sc.jobs) == 0
	}
	return sc.detachable && (sc.pending.Load() == 1 || sc.detacher.calm())
}

// runOnReader runs a call submit returned as runHere on the reader of a
// connection read with Each, which moves reading to another goroutine
// (detach) if the call is not done within detachAfter, so that a slow
// call never holds up a cancellation or the next request for long.
func (sc *scheduler) runOnReader(runHere, detach func()) {
	if detach == nil { // read with Read: submit hands back no call, but be safe
		runHere()
		return
	}
	armed := sc.detacher.arm(detach)
	runHere()
	sc.detacher.disarm(armed)
}

// readingEnded stops the detacher for good once the reader is gone.
func (sc *scheduler) readingEnded() { sc.detacher.stop() }

// claimWorker takes a worker slot for a call run on its caller's
// goroutine, unless MaxConcurrentCalls slots are taken.
func (sc *scheduler) claimWorker() bool {
	for {
		n := sc.workers.Load()
		if int(n) >= sc.maxCalls {
			return false
		}
		if sc.workers.CompareAndSwap(n, n+1) {
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
func (sc *scheduler) takeIdleSlot() bool {
	select {
	case sc.retire <- struct{}{}:
		return true
	default:
		return false
	}
}

// holdQueued counts size more bytes held by waiting calls, unless that
// would pass MaxQueuedBytes while other calls wait: one request of any size
// may always wait.
func (sc *scheduler) holdQueued(size int64) bool {
	n := sc.queuedBytes.Add(size)
	if n > sc.maxQueuedBytes && n != size {
		sc.queuedBytes.Add(-size)
		return false
	}
	return true
}

// ensureWorker starts a worker when jobs wait and no worker is idle, up to
// MaxConcurrentCalls. Workers are reused, so a handler that grew its
// goroutine's stack does not pay for that again on the next call.
func (sc *scheduler) ensureWorker() {
	for len(sc.jobs) > int(sc.idle.Load()) {
		n := sc.workers.Load()
		if int(n) >= sc.maxCalls {
			return
		}
		if sc.workers.CompareAndSwap(n, n+1) {
			go sc.worker()
			return
		}
	}
}

// workerIdle is how long a worker waits for a job before it ends: a burst
// of calls leaves no goroutines behind once it is over, and a steady load
// keeps its workers (and their grown stacks). A scheduler takes it when it
// begins (scheduler.idleEnd), so that a test may change it for the
// sessions it starts while another's workers still run.
var workerIdle = 2 * time.Second

// worker runs queued calls until the job queue is closed, or until it has
// waited idleEnd for one.
func (sc *scheduler) worker() {
	wait := time.NewTimer(sc.idleEnd)
	defer wait.Stop()
	for {
		sc.idle.Add(1)
		wait.Reset(sc.idleEnd)
		select {
		case j, ok := <-sc.jobs:
			sc.idle.Add(-1)
			if !ok {
				return
			}
			sc.runJob(j)
			if sc.retireIfOver() {
				sc.ensureWorker() // a job queued as this worker ended may have started none
				return
			}
		case <-sc.retire:
			// Its slot is now the call's that took it (see takeIdleSlot).
			// A job queued while this worker counted as idle started no
			// worker for it: start one now if a slot is free.
			sc.idle.Add(-1)
			sc.ensureWorker()
			return
		case <-wait.C:
			sc.idle.Add(-1)
			sc.workers.Add(-1)
			// A job queued while this worker still counted as idle
			// started no worker for it: start one now.
			sc.ensureWorker()
			return
		}
	}
}

// runJob runs one call (the runner answers one cancelled while it waited
// without running it). The call's slot among the calls in flight is free
// before its answer goes out, so a client that reads the answer and sends
// its next call at once is never refused for the call it has just seen
// answered.
func (sc *scheduler) runJob(j job) {
	defer sc.wg.Done()
	sc.queuedBytes.Add(-j.size)
	resp := sc.runner.execute(j)
	sc.pending.Add(-1)
	sc.runner.answer(j, resp)
}

// adopt counts one more worker slot taken, for a task handler that goes
// on in the slot of the call it began with once the call is answered, and
// returns what gives it back (once, however often it is called). The
// worker that ran the call ends rather than take another job while the
// slots taken exceed MaxConcurrentCalls (see retireIfOver).
func (sc *scheduler) adopt() (release func()) {
	sc.workers.Add(1)
	return sync.OnceFunc(func() {
		sc.workers.Add(-1)
		sc.ensureWorker() // calls may have queued meanwhile
	})
}

// retireIfOver ends a worker's slot, and reports so, when the slots taken
// exceed MaxConcurrentCalls: a task handler took over the slot of the
// call the worker just ran, and the worker must not run another job in
// it.
func (sc *scheduler) retireIfOver() bool {
	for {
		n := sc.workers.Load()
		if int(n) <= sc.maxCalls {
			return false
		}
		if sc.workers.CompareAndSwap(n, n-1) {
			return true
		}
	}
}

// abandonWait bounds how long close waits, after the calls left were
// answered and cancelled, for handlers that ignore their context.
const abandonWait = 250 * time.Millisecond

// close ends the scheduler once nothing more is submitted: it waits up to
// grace for the calls submitted (long ones too) to finish; if some have
// not, it calls late, which answers and cancels them, and waits
// abandonWait more for their handlers. It reports whether every call
// ended. Idle workers end, and the others once their call has.
func (sc *scheduler) close(grace time.Duration, late func()) (ended bool) {
	defer close(sc.jobs)
	done := make(chan struct{})
	go func() { sc.wg.Wait(); close(done) }()
	select {
	case <-done:
		return true
	case <-time.After(grace):
	}
	late()
	select {
	case <-done:
		return true
	case <-time.After(abandonWait):
		return false
	}
}

// overloaded is the error of a request refused for a server limit.
func overloaded(format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInternalError, "server overloaded: "+format, args...).
		WithData(map[string]string{"reason": "overloaded"})
}
