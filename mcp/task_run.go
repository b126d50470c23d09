package mcp

import (
	"context"
	"errors"
	"fmt"
	"runtime/debug"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/internal/callerkey"
	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// taskRuntime is a server's side of the tasks it runs: the store, and the
// handlers running here by task id (a task created or resumed on another
// instance runs there).
type taskRuntime struct {
	srv   *Server
	store task.Store

	mu   sync.Mutex
	runs map[string]*taskRun
}

func newTaskRuntime(s *Server) *taskRuntime {
	return &taskRuntime{srv: s, store: s.opts.TaskStore, runs: map[string]*taskRun{}}
}

// cancelLocal cancels the handler of task id if it runs here.
func (rt *taskRuntime) cancelLocal(id string, cause error) {
	rt.mu.Lock()
	run := rt.runs[id]
	rt.mu.Unlock()
	if run != nil {
		run.cancel(cause)
	}
}

// runsHere reports whether the handler of task id runs on this server.
func (rt *taskRuntime) runsHere(id string) bool {
	rt.mu.Lock()
	defer rt.mu.Unlock()
	return rt.runs[id] != nil
}

// closeAll cancels every handler running here (Server.Close).
func (rt *taskRuntime) closeAll() {
	rt.mu.Lock()
	runs := make([]*taskRun, 0, len(rt.runs))
	for _, r := range rt.runs {
		runs = append(runs, r)
	}
	rt.mu.Unlock()
	for _, r := range runs {
		r.cancel(ErrShuttingDown)
	}
}

// taskRunKey finds the run of a handler's context (StartTask).
type taskRunKey struct{}

// taskRun is one run of a task's handler: the first, on its tools/call,
// or a resumption after tasks/update answered every question.
type taskRun struct {
	rt     *taskRuntime
	ss     *session
	e      *entry
	r      *request // the tools/call, or the request rebuilt from the record
	args   json.RawMessage
	in     *input
	ctx    context.Context
	cancel context.CancelCauseFunc

	mu        sync.Mutex
	id        string           // set once the task is stored
	delivered bool             // the outcome went to early: no task for it
	early     chan taskOutcome // the outcome of a run that ended before its task existed
	escalated chan error       // StartTask's signal, on a Deferred run

	expiryMu sync.Mutex  // guards expiry (store runs with mu held)
	expiry   *time.Timer // watchExpiry's, stopped by settle

	// The concurrency slot the handler runs in (see slot.go): one of its
	// own, waited for by invoke, on an endpoint that callers share
	// (ownSlot); elsewhere that of call, the request the run began with
	// (the tools/call, or the tasks/update that resumed it), taken over
	// once the handler goes on without it (register) and given back by
	// release when the handler ends (settle).
	ownSlot bool
	call    *call
	release func()
}

// taskOutcome is how a handler's run ended.
type taskOutcome struct {
	out   contract.Outcome
	panic *jsonrpc.Error // the handler panicked
}

func (rt *taskRuntime) newRun(parent context.Context, ss *session, e *entry, r *request, args json.RawMessage, in *input) *taskRun {
	ctx, cancel := context.WithCancelCause(context.WithoutCancel(parent))
	run := &taskRun{rt: rt, ss: ss, e: e, r: r, args: args, in: in, cancel: cancel, early: make(chan taskOutcome, 1)}
	run.ctx = context.WithValue(ctx, taskRunKey{}, run)
	return run
}

// callAsTask serves a tools/call of a task-supporting tool from a request
// that declares the extension.
func (s *Server) callAsTask(ctx context.Context, ss *session, c *call, r *request, e *entry, args, responses json.RawMessage, state string) (any, error) {
	in, rerr := s.openInput(r, e.tool.Name, args, responses, state)
	if rerr != nil {
		return nil, rerr
	}
	run := s.tasks.newRun(ctx, ss, e, r, args, in)
	run.call, run.ownSlot = c, ss.sched.fair != nil
	if run.ownSlot {
		c.yieldSlot()
	}
	var grace <-chan time.Time
	if e.task.Deferred {
		run.escalated = make(chan error, 1)
	} else if s.opts.TaskGrace > 0 {
		t := time.NewTimer(s.opts.TaskGrace)
		defer t.Stop()
		grace = t.C
	} else {
		g := make(chan time.Time)
		close(g)
		grace = g
	}
	go run.exec()
	select {
	case o := <-run.early:
		return run.answerEarly(ctx, c, o)
	case err := <-run.escalated:
		if err != nil {
			return nil, err
		}
		return run.createdResult(ctx)
	case <-grace:
		run.mu.Lock()
		if run.delivered {
			run.mu.Unlock()
			return run.answerEarly(ctx, c, <-run.early)
		}
		err := run.store(ctx, nil)
		run.mu.Unlock()
		if err != nil {
			run.cancel(err)
			return nil, err
		}
		return run.createdResult(ctx)
	case <-ctx.Done():
		run.cancel(context.Cause(ctx))
		return nil, context.Cause(ctx)
	}
}

// answerEarly answers a call whose handler ended before its task was
// created: a Deferred call that never called StartTask, and an
// optional-task call that completed, are answered as ordinary calls;
// otherwise the task is created in its final state.
func (run *taskRun) answerEarly(ctx context.Context, c *call, o taskOutcome) (any, error) {
	run.cancel(nil)
	if o.panic != nil {
		if run.e.task.Deferred {
			return nil, o.panic
		}
	} else if run.e.task.Deferred || (run.e.task.Support == TaskOptional && len(run.in.asked) == 0 && o.out.RPCError == nil) {
		return run.ss.finishCall(ctx, c, run.r, run.e, run.in, o.out)
	}
	if err := run.store(ctx, &o); err != nil {
		return nil, err
	}
	return run.createdResult(ctx)
}

// start is StartTask: on a Deferred run, it stores the task and tells the
// request.
func (run *taskRun) start() bool {
	run.mu.Lock()
	defer run.mu.Unlock()
	if run.id != "" {
		return true
	}
	if run.escalated == nil || run.delivered {
		return false
	}
	err := run.store(run.ctx, nil)
	run.escalated <- err
	return err == nil
}

// store creates the task's record (with run.mu held): working, or in the
// final state of o when the handler already ended. It registers the run.
// The record counts against its caller, whom ctx (the request's, or the
// run's, which keeps the request's values) names, for
// Options.MaxTasksPerCaller; the store enforces it, so that it holds
// across the instances sharing the store.
func (run *taskRun) store(ctx context.Context, o *taskOutcome) error {
	s := run.rt.srv
	now := time.Now().UTC()
	t := &task.Task{
		ID: task.NewID(), Owner: subjectOf(run.r), Caller: callerkey.Of(ctx), Status: task.Working,
		CreatedAt: now, UpdatedAt: now, PollInterval: s.opts.TaskPollInterval,
		Tool: run.e.tool.Name, Arguments: run.args, ClientCapabilities: run.r.clientCaps,
	}
	if s.opts.TaskTTL > 0 {
		t.TTL = s.opts.TaskTTL
	}
	if o != nil {
		run.apply(t, *o)
	}
	if err := run.rt.store.Create(ctx, t, s.opts.MaxTasksPerCaller); err != nil {
		switch {
		case errors.Is(err, task.ErrQuota):
			n := s.opts.MaxTasksPerCaller
			return quotaExceeded("MaxTasksPerCaller", n,
				"this caller already holds %d tasks, finished ones included until they expire; wait for some to expire before starting more", n)
		case errors.Is(err, task.ErrFull):
			return overloaded("the task store is full")
		}
		return s.storeFailure("creating", t.ID, err)
	}
	run.id = t.ID
	if o == nil {
		run.rt.register(run, t)
	}
	return nil
}

// register records a run of stored task t as running here, and watches
// its expiry.
func (rt *taskRuntime) register(run *taskRun, t *task.Task) {
	if run.call != nil && !run.ownSlot {
		run.release = run.call.adoptSlot()
	}
	rt.mu.Lock()
	rt.runs[t.ID] = run
	rt.mu.Unlock()
	if t.TTL > 0 {
		run.watchExpiry(t.Expires())
	}
}

// ErrTaskExpired is the context cause of a task handler whose task
// expired while it ran: a working task is written only when its state
// changes, so a handler that runs longer than Options.TaskTTL since the
// last change outlives its record, and its outcome could never be read.
var ErrTaskExpired = errors.New("mcp: the task expired (Options.TaskTTL) while its handler ran")

// watchExpiry cancels the run with ErrTaskExpired once its task is gone
// from the store, looking first at at, the record's expiry as last seen,
// and again at the new expiry while the record is updated meanwhile (an
// answered question, say). settle stops it.
func (run *taskRun) watchExpiry(at time.Time) {
	run.expiryMu.Lock()
	defer run.expiryMu.Unlock()
	if run.ctx.Err() != nil {
		return
	}
	run.expiry = time.AfterFunc(time.Until(at), func() {
		t, err := run.rt.store.Get(context.Background(), run.id)
		switch {
		case errors.Is(err, task.ErrNotFound):
			run.ss.log.Warn("mcp: a task expired while its handler ran; cancelling it", "task", run.id, "tool", run.e.tool.Name)
			run.cancel(ErrTaskExpired)
		case err != nil:
			run.watchExpiry(time.Now().Add(expiryRecheck)) // the store is unreachable: look again
		case !t.Status.Terminal():
			run.watchExpiry(t.Expires())
		}
	})
}

// expiryRecheck is how soon watchExpiry asks again a store that failed.
const expiryRecheck = 5 * time.Second

// createdResult is the CreateTaskResult of the run's stored task, read
// back with the request's ctx: the run's own context may be over already
// (a task created in its final state), and a store that honours contexts
// would refuse the read.
func (run *taskRun) createdResult(ctx context.Context) (any, error) {
	t, err := run.rt.store.Get(ctx, run.id)
	if err != nil {
		return nil, run.rt.srv.storeFailure("reading back", run.id, err)
	}
	res := &protocol.CreateTaskResult{Task: wireTask(t, false).Task}
	res.ResultType = protocol.ResultTypeTask
	return res, nil
}

// exec runs the handler, then records its outcome: in the task, or, when
// no task exists yet, on early for the request.
func (run *taskRun) exec() {
	o := run.invoke()
	run.mu.Lock()
	if run.id == "" {
		run.delivered = true
		run.mu.Unlock()
		run.early <- o
		return
	}
	id := run.id
	run.mu.Unlock()
	run.settle(id, o)
}

// invoke calls the handler within the tool's contract, on a call of its
// own whose messages go nowhere, turning a panic into -32603; with a slot
// of its own to take (ownSlot), it waits for one first, and a run
// cancelled while it waits ends without its handler.
func (run *taskRun) invoke() (o taskOutcome) {
	defer func() {
		if p := recover(); p != nil {
			run.ss.log.Error("mcp: task handler panicked", "tool", run.e.tool.Name,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			o = taskOutcome{panic: jsonrpc.NewError(jsonrpc.CodeInternalError,
				"internal error: the handler of tool %s panicked", run.e.tool.Name)}
		}
	}()
	if run.ownSlot {
		caller := callerkey.Of(run.ctx)
		if !run.ss.sched.fair.acquire(run.ctx, caller) {
			err := context.Cause(run.ctx)
			return taskOutcome{out: contract.Outcome{HandlerError: err,
				Result: tool.ErrorResult("the task was stopped before its handler could run: %v", err)}}
		}
		defer run.ss.sched.fair.release(caller)
	}
	drop := func(jsonrpc.Message) {}
	tc := &call{id: run.r.id, ctx: run.ctx, cancel: run.cancel, respond: func(*jsonrpc.Response) {},
		sink: drop, ss: run.ss, req: run.r, in: run.in}
	return taskOutcome{out: run.e.contract.Call(callctx.With(run.ctx, tc), run.args)}
}

// settle stores a handler's outcome in its task, unless the task reached
// a terminal status meanwhile (cancelled), and forgets the run.
func (run *taskRun) settle(id string, o taskOutcome) {
	rt := run.rt
	rt.mu.Lock()
	if rt.runs[id] == run {
		delete(rt.runs, id)
	}
	rt.mu.Unlock()
	if run.release != nil {
		defer run.release() // the handler has ended: its slot is free
	}
	defer run.cancel(nil)
	run.expiryMu.Lock()
	if run.expiry != nil {
		run.expiry.Stop()
	}
	run.expiryMu.Unlock()
	stored, err := rt.finish(id, func(t *task.Task) { run.apply(t, o) })
	if err != nil && !errors.Is(err, errTaskTerminal) && !errors.Is(err, task.ErrNotFound) {
		// The store refused the outcome (too large for it, say) or could
		// not be reached: record a small failure instead, so that the task
		// does not stay working until its TTL.
		run.ss.log.Error("mcp: storing a task's outcome", "task", id, "error", err.Error())
		stored, err = rt.finish(id, func(t *task.Task) {
			e := jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: the task's outcome could not be stored")
			t.InputRequests, t.Result = nil, nil
			t.Status, t.StatusMessage = task.Failed, e.Message
			t.Error, _ = json.Marshal(e)
		})
		if err != nil && !errors.Is(err, errTaskTerminal) && !errors.Is(err, task.ErrNotFound) {
			run.ss.log.Error("mcp: storing a task's failure", "task", id, "error", err.Error())
		}
	}
	if err == nil {
		rt.srv.taskChanged(stored)
	}
}

// Retries of a task's final write: a store that cannot be reached gets
// this many tries, the waits between them doubling from settleRetry.
const (
	settleTries = 4
	settleRetry = 100 * time.Millisecond
)

// finish writes a task's final state with apply, unless it is terminal
// already (errTaskTerminal), retrying a store that fails. An outcome the
// store refuses as such (every try fails the same) is the caller's to
// replace.
func (rt *taskRuntime) finish(id string, apply func(*task.Task)) (*task.Task, error) {
	wait := settleRetry
	for try := 1; ; try++ {
		stored, err := rt.store.Update(context.Background(), id, func(t *task.Task) error {
			if t.Status.Terminal() {
				return errTaskTerminal
			}
			apply(t)
			t.UpdatedAt = time.Now().UTC()
			return nil
		})
		if err == nil || errors.Is(err, errTaskTerminal) || errors.Is(err, task.ErrNotFound) || try == settleTries {
			return stored, err
		}
		time.Sleep(wait)
		wait *= 2
	}
}

var errTaskTerminal = errors.New("mcp: the task is terminal")

// apply writes an outcome into a record: failed, input_required or
// completed (the same order as an ordinary call's answer, finishCall).
func (run *taskRun) apply(t *task.Task, o taskOutcome) {
	in := run.in
	t.InputRequests, t.Result, t.Error = nil, nil, nil
	fail := func(e *jsonrpc.Error) {
		t.Status, t.StatusMessage = task.Failed, e.Message
		t.Error, _ = json.Marshal(e)
	}
	switch {
	case o.panic != nil:
		fail(o.panic)
		return
	case o.out.RPCError != nil && o.out.RPCError.Code == jsonrpc.CodeMissingRequiredClientCapability:
		fail(o.out.RPCError)
		return
	}
	in.mu.Lock()
	asked := append([]question(nil), in.asked...)
	t.Answers, t.Memo = in.answers, in.memo
	in.mu.Unlock()
	if len(asked) > 0 {
		t.Status, t.StatusMessage = task.InputRequired, ""
		t.InputRequests = make(map[string]json.RawMessage, len(asked))
		t.Asked = make(map[string]string, len(asked))
		for _, q := range asked {
			t.InputRequests[q.key] = q.request()
			t.Asked[q.key] = q.method
		}
		return
	}
	if o.out.RPCError != nil {
		fail(o.out.RPCError)
		return
	}
	if err := run.ctx.Err(); err != nil && o.out.HandlerError != nil {
		fail(jsonrpc.NewError(jsonrpc.CodeInternalError, "the task was stopped: %v", context.Cause(run.ctx)))
		return
	}
	raw, err := run.rt.srv.encodeCallResult(run.e, o.out.Result, run.r)
	if err != nil {
		fail(jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: encoding the result: %v", err))
		return
	}
	t.Status, t.StatusMessage, t.Result = task.Completed, "", raw
}

// resume runs a task's handler again, with every answer its record holds,
// after tasks/update answered its last pending question. It runs here,
// whichever instance ran it before, with the values of ctx (the caller).
// The returned channel is closed once the run's outcome is stored.
func (rt *taskRuntime) resume(ctx context.Context, ss *session, c *call, caller *request, t *task.Task) <-chan struct{} {
	done := make(chan struct{})
	e, ok := toolList.get(rt.srv, t.Tool)
	if !ok {
		defer close(done)
		stored, err := rt.store.Update(context.Background(), t.ID, func(t *task.Task) error {
			if t.Status.Terminal() {
				return errTaskTerminal
			}
			t.Status, t.StatusMessage = task.Failed, "the tool is no longer registered"
			t.Error, _ = json.Marshal(jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: tool %s is no longer registered", t.Tool))
			t.UpdatedAt = time.Now().UTC()
			return nil
		})
		if err == nil {
			rt.srv.taskChanged(stored)
		}
		return done
	}
	r := &request{id: caller.id, method: protocol.MethodCallTool, rev: caller.rev, version: caller.version,
		clientInfo: caller.clientInfo, clientCaps: t.ClientCapabilities, caller: caller.caller}
	in := &input{modern: true, bound: binding{r, t.Tool, t.Arguments}, answers: t.Answers, memo: t.Memo}
	if in.answers == nil {
		in.answers = map[string]json.RawMessage{}
	}
	run := rt.newRun(ctx, ss, e, r, t.Arguments, in)
	run.id, run.call, run.ownSlot = t.ID, c, ss.sched.fair != nil
	rt.register(run, t)
	go func() {
		defer close(done)
		run.settle(t.ID, run.invoke())
	}()
	return done
}

// subjectOf is the owner a request's tasks get.
func subjectOf(r *request) string {
	if r.caller == nil {
		return ""
	}
	return r.caller.Subject
}
