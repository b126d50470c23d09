package mcp

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"strconv"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// ErrShuttingDown is the context cause of calls cancelled at shutdown.
var ErrShuttingDown = errors.New("mcp: server shutting down")

// ErrCallDone is returned when progress is reported for a call that has
// already been answered or cancelled.
var ErrCallDone = errors.New("mcp: call already answered or cancelled")

// responder delivers a call's one response; nil means "send nothing".
type responder func(*jsonrpc.Response)

// call is one request in flight. A tools/call handler's context carries it
// (package internal/callctx), and the hooks of packages tool, ask and probe
// read it as a callctx.Call: its exported methods are for them.
type call struct {
	id      jsonrpc.ID
	ctx     context.Context
	cancel  context.CancelCauseFunc
	respond responder
	sink    func(jsonrpc.Message) // where the call's own messages go; nil: the session's stream
	key     string                // the call's key in the session's table
	ss      *session
	req     *request

	in       *input       // the call's questions to the client; nil if it may ask none
	deadline *time.Timer  // Options.CallTimeout, when set
	unbind   func() bool  // stops watching the exchange's context (see dispatch)
	ob       *observation // Options.Observer's view of the call; nil without one

	infoOnce sync.Once
	info     *protocol.RequestInfo

	// The bools side by side keep the struct in its allocation size class
	// (192 bytes).
	mu            sync.Mutex
	done          bool // answered, or cancelled by the client
	sentProgress  bool
	slotless      bool // the call holds no concurrency slot: it never took one, or gave it up (see slot.go)
	progressToken json.RawMessage
	lastProgress  float64
}

// The hooks of tool, ask and probe reach a call only as a callctx.Call:
// this fails to compile when a method they need is renamed or missing.
var _ callctx.Call = (*call)(nil)

// handlerContext returns ctx carrying the call, for a tool's (or a
// prompt's, resource's or completion's) handler. Method handlers run with
// the call itself as their context (see run and Value), so ctx usually
// carries it already and nothing is allocated.
func (c *call) handlerContext(ctx context.Context) context.Context {
	if callctx.From(ctx) == callctx.Call(c) {
		return ctx
	}
	return callctx.With(ctx, c)
}

// A call is the context its handler runs with: its own context, which
// also carries the call under callctx.Key. Cancellation and every other
// value are its context's, so context.Cause and the contexts a handler
// derives from it work as they do on c.ctx.
func (c *call) Deadline() (time.Time, bool) { return c.ctx.Deadline() }

// Done is the call's context's Done.
func (c *call) Done() <-chan struct{} { return c.ctx.Done() }

// Err is the call's context's Err.
func (c *call) Err() error { return c.ctx.Err() }

// Value is the call itself for callctx.Key, and the call's context's
// value otherwise.
func (c *call) Value(key any) any {
	if _, ok := key.(callctx.Key); ok {
		return c
	}
	return c.ctx.Value(key)
}

// complete ends the call: it answers it (unless it was already answered or
// cancelled), forgets it, and ends its context, as an HTTP request's ends
// with its response. Every call ends here, except at shutdown, which
// finishes and cancels with a cause of its own.
func (c *call) complete(r *jsonrpc.Response) {
	if c.deadline != nil {
		c.deadline.Stop()
	}
	c.finish(r)
	c.cancel(nil)
	if c.unbind != nil {
		c.unbind()
	}
}

// ErrCallTimeout is the context cause of a call that ran longer than
// Options.CallTimeout.
var ErrCallTimeout = errors.New("mcp: the request ran longer than Options.CallTimeout")

// startDeadline answers the call with an error once Options.CallTimeout has
// passed, and cancels it.
func (c *call) startDeadline(d time.Duration) {
	c.deadline = time.AfterFunc(d, func() {
		if c.finish(errorResponse(c.id, jsonrpc.NewError(jsonrpc.CodeInternalError,
			"request timeout: no answer within %s", d).WithData(map[string]string{"reason": "timeout"}))) {
			c.cancel(ErrCallTimeout)
		}
	})
}

// finish answers the call unless it was already answered or cancelled. It
// reports whether this was the one answer.
func (c *call) finish(r *jsonrpc.Response) bool {
	c.mu.Lock()
	if c.done {
		c.mu.Unlock()
		return false
	}
	c.done = true
	c.mu.Unlock()
	c.ss.forget(c)
	c.respond(r)
	if c.ob != nil {
		c.ob.end(r, nil)
	}
	return true
}

// cancelByClient marks the call answered without a response and cancels its
// context with the client's reason as cause.
func (c *call) cancelByClient(reason string) {
	cause := "cancelled by the client"
	if reason != "" {
		cause += ": " + reason
	}
	c.cancelBy(errors.New(cause))
}

// cancelBy marks the call answered without a response and cancels its
// context with cause.
func (c *call) cancelBy(cause error) {
	c.mu.Lock()
	already := c.done
	c.done = true
	c.mu.Unlock()
	if already {
		return
	}
	c.ss.forget(c)
	c.respond(nil)
	if c.ob != nil {
		c.ob.end(nil, cause)
	}
	c.cancel(cause)
}

// Request describes the call's request, for RequestFrom; the info is
// built on first use.
func (c *call) Request() *protocol.RequestInfo {
	c.infoOnce.Do(func() { c.info = c.req.info() })
	return c.info
}

// ServerLogger is the server's own log, for Logger.
func (c *call) ServerLogger() *slog.Logger { return c.ss.log }

// Meta is the request's params._meta, raw, for package probe.
func (c *call) Meta() json.RawMessage { return c.req.meta }

// Progress sends a progress notification, for ReportProgress.
func (c *call) Progress(progress, total float64, message string) error {
	c.mu.Lock()
	defer c.mu.Unlock()
	if c.done {
		return ErrCallDone
	}
	if c.progressToken == nil {
		if c.progressToken = progressToken(c.req.metaObj); c.progressToken == nil {
			return nil
		}
	}
	if c.sentProgress && progress <= c.lastProgress {
		return fmt.Errorf("mcp: progress must increase: %v after %v", progress, c.lastProgress)
	}
	c.sentProgress, c.lastProgress = true, progress
	var token jsonrpc.ID
	token.UnmarshalJSON(c.progressToken) // checked when it was read
	p := protocol.ProgressNotificationParams{ProgressToken: token, Progress: progress}
	if feature.ProgressMessage(c.req.rev) {
		p.Message = message
	}
	if total > 0 {
		p.Total = &total
	}
	b, err := json.Marshal(p)
	if err != nil {
		return err
	}
	// Sent while holding c.mu, so the response (queued after finish takes
	// c.mu) can never overtake it.
	c.emit(&jsonrpc.Notification{Method: protocol.NotificationProgress, Params: b})
	return nil
}

// emit writes a message the call produces before its response: on the
// exchange it arrived with, or on the session's stream.
func (c *call) emit(m jsonrpc.Message) {
	if c.sink != nil {
		c.sink(m)
		return
	}
	c.ss.send(m)
}

// track registers a routed request as a call in flight, refusing a
// duplicate id. sink, when set, receives the call's own messages; bound,
// when set, lends the call's context its values; ob, when set, starts
// observing the call (its StartRequest gives the call its context). On a
// stateless endpoint every request stands alone: its id may repeat
// another's, and the call is keyed by its arrival instead.
func (ss *session) track(r *request, respond responder, sink func(jsonrpc.Message), bound context.Context, ob *observation) (*call, bool) {
	id := r.id
	// Rooted at Background, not at a session context: shutdown cancels the
	// calls still in flight one by one, which spares every call the cost of
	// registering with a parent. A call of an endpoint keeps the values of
	// its exchange's context (an HTTP request's), not its cancellation,
	// which dispatch watches itself.
	root := context.Background()
	if bound != nil {
		root = context.WithoutCancel(bound)
	}
	ctx, cancel := context.WithCancelCause(root)
	if ob != nil {
		ctx = ob.begin(ctx)
	}
	c := &call{id: id, ctx: ctx, cancel: cancel, respond: respond, sink: sink, ss: ss, req: r, ob: ob}
	ss.mu.Lock()
	defer ss.mu.Unlock()
	if ss.stateless {
		ss.arrivals++
		c.key = "#" + strconv.FormatUint(ss.arrivals, 10)
	} else {
		c.key = id.Key()
		if _, dup := ss.calls[c.key]; dup {
			cancel(nil)
			return nil, false
		}
	}
	ss.calls[c.key] = c
	return c, true
}

// forget removes a finished call from the in-flight table.
func (ss *session) forget(c *call) {
	ss.mu.Lock()
	if ss.calls[c.key] == c {
		delete(ss.calls, c.key)
	}
	ss.mu.Unlock()
}

// inFlight returns the calls still running.
func (ss *session) inFlight() []*call {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	out := make([]*call, 0, len(ss.calls))
	for _, c := range ss.calls {
		out = append(out, c)
	}
	return out
}
