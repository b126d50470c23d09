package gateway

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"fmt"
	"slices"
	"sync"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// What an upstream asks during a call (elicitation, sampling, roots) is
// asked of the gateway's caller, in the caller's era, and the answer goes
// back in the upstream's. The upstream's call runs on the handler's own
// goroutine (see inline) when nothing need wait between rounds: the
// caller is legacy (asked within the one run), or the upstream is
// 2026-07-28 (its round is deferred and travels in the caller's sealed
// requestState, so any gateway sharing the state key takes the caller's
// next round). A legacy upstream behind a 2026-07-28 caller is the one
// case left: its call runs on a goroutine of its own (a relayed call), so
// that the caller, whose every input_required round runs the gateway's
// handler again, finds the same upstream call waiting for its answer
// instead of starting it again: the handler's sealed requestState
// remembers the relayed call's id, and the call waits (parked) between
// rounds, at most as long as a requestState stays valid.
//
// The question is tied to its call by the context of the upstream's
// request: a 2026-07-28 upstream asks within the call (input_required,
// answered on the call's goroutine). A legacy upstream sends a request of
// its own, tied to no call on the wire; the gateway gives it to the one
// call in flight to that upstream, and refuses it when there are several
// (it cannot tell whose it is).

// relayMemo is the name under which a handler remembers its relayed call.
const relayMemo = "mcpwire.gateway.call"

// parkedTTL is how long a relayed call waits for a caller's next round.
const parkedTTL = 15 * time.Minute

// maxParked bounds the relayed calls waiting for a caller's next round.
const maxParked = 1024

// errAmbiguous: a legacy upstream asked while several calls were in flight.
var errAmbiguous = errors.New("the upstream asked while several of its calls were in flight, and a legacy request does not say whose it is")

// relayed is one upstream call in progress on behalf of a caller.
type relayed struct {
	up     *upstream
	id     string         // set when it first waits for its caller's next round
	asks   chan *question // what the upstream asks, in order
	done   chan struct{}  // closed when the call returned
	result any
	err    error
	cancel context.CancelFunc

	round atomic.Pointer[context.Context] // the handler run it serves now, if any

	inline bool       // runs on its caller's goroutine (see inline)
	askMu  sync.Mutex // serialises an inline call's questions

	mu      sync.Mutex
	waiting []*question // asked of the caller and not answered yet
	expiry  *time.Timer // while parked
}

// question is what the upstream asks of the caller: one legacy request,
// or a 2026-07-28 round whole, by the upstream's keys (the caller is
// asked under the same keys, in one round).
type question struct {
	one    protocol.InputRequest
	round  map[string]protocol.InputRequest
	answer chan answered // buffered: the answer never waits
}

type answered struct {
	v   any
	err error
}

// relay runs call (the upstream's side of a caller's request) as a
// relayed call, or resumes the one this caller's earlier round started,
// asking the caller what the upstream asks, and returns what call
// returned.
func (up *upstream) relay(ctx context.Context, call func(context.Context) (any, error)) (any, error) {
	round := &ctx
	r := up.resume(ctx)
	switch {
	case r != nil:
		r.round.Store(round)
	case askedInline(ctx) || up.modern():
		return up.inline(round, call)
	default:
		r = up.start(round, call)
	}
	defer r.round.CompareAndSwap(round, nil)
	for {
		r.mu.Lock()
		var q *question
		if len(r.waiting) > 0 {
			q = r.waiting[0]
		}
		r.mu.Unlock()
		if q != nil {
			v, err := askCaller(ctx, r, q)
			if errors.Is(err, ask.ErrInputRequired) {
				if r.id == "" { // its first round: the caller's next finds it by this id
					r.id = newRelayID()
					ask.Remember(ctx, relayMemo, r.id)
				}
				if perr := up.g.park(r); perr != nil {
					r.cancel()
					return nil, perr
				}
				return nil, err
			}
			var ce *ask.CapabilityError
			if errors.As(err, &ce) { // the caller cannot answer: it hears why
				r.cancel()
				return nil, err
			}
			r.mu.Lock()
			r.waiting = r.waiting[1:]
			r.mu.Unlock()
			q.answer <- answered{v, err}
			continue
		}
		select {
		case q := <-r.asks:
			r.mu.Lock()
			r.waiting = append(r.waiting, q)
			r.mu.Unlock()
		case <-r.done:
			r.cancel()
			return r.result, r.err
		case <-ctx.Done():
			r.cancel()
			return nil, context.Cause(ctx)
		}
	}
}

// start starts call as a relayed call, on a goroutine of its own (see
// callContext for what its context carries).
func (up *upstream) start(round *context.Context, call func(context.Context) (any, error)) *relayed {
	r := &relayed{up: up, asks: make(chan *question, 8), done: make(chan struct{})}
	cctx := up.callContext(round, r)
	up.track(r, true)
	up.g.work(func() {
		defer close(r.done)
		defer up.track(r, false)
		r.result, r.err = call(cctx)
	})
	return r
}

// inline runs call on the caller's goroutine, with nothing waiting
// between a caller's rounds: for a legacy caller, whose every question is
// answered within this run, and for a 2026-07-28 upstream, whose rounds
// need no waiting call: the upstream's round is asked of a 2026-07-28
// caller under the upstream's keys and deferred (client.ErrDeferInput),
// the round and its requestState remembered in the caller's requestState
// (roundMemo), and the caller's next round resumes the upstream's request
// with the answers (client.WithInputResponses). What the upstream asks is
// asked of the caller by the goroutine it arrives on (see askOf).
func (up *upstream) inline(round *context.Context, call func(context.Context) (any, error)) (any, error) {
	ctx := *round
	r := &relayed{up: up, inline: true, done: make(chan struct{})}
	cctx := up.callContext(round, r)
	stop := context.AfterFunc(ctx, r.cancel) // the caller cancelled
	defer stop()
	defer r.cancel()
	var owed deferredRound
	if ok, _ := ask.Recall(ctx, roundMemo, &owed); ok && owed.Requests != nil {
		answers, err := askCaller(ctx, r, &question{round: owed.Requests})
		if err != nil {
			return nil, err // still owed (input_required), or the caller cannot answer
		}
		round := &client.InputRound{Method: protocol.MethodCallTool, Requests: owed.Requests, State: owed.State}
		cctx = client.WithInputResponses(cctx, round, answers.(map[string]json.RawMessage))
	}
	up.track(r, true)
	v, err := call(cctx)
	r.round.Store(nil)
	close(r.done)
	up.track(r, false)
	if ir := (*client.InputRound)(nil); errors.As(err, &ir) {
		// askOf asked the caller the round: its answers come with the
		// caller's next round, which resumes the upstream's request.
		if err := ask.Remember(ctx, roundMemo, deferredRound{Requests: ir.Requests, State: ir.State}); err != nil {
			return nil, err
		}
		return nil, ask.ErrInputRequired
	}
	return v, err
}

// roundMemo is the name under which a handler remembers the upstream's
// round it deferred.
const roundMemo = "mcpwire.gateway.round"

// deferredRound is a 2026-07-28 upstream's round the caller was asked,
// kept in the caller's requestState until it answers.
type deferredRound struct {
	Requests map[string]protocol.InputRequest `json:"requests"`
	State    string                           `json:"state,omitempty"`
}

// askedInline reports whether the caller of ctx's request is asked within
// the run that asks (a legacy caller: ask's questions are requests of the
// gateway's to it), so that its call can run inline.
func askedInline(ctx context.Context) bool {
	info := mcp.RequestFrom(ctx)
	return info != nil && info.Era == protocol.Legacy
}

// callContext is the context of r's upstream call: it carries r (for the
// upstream's questions), relays progress to the caller's current round,
// declares the caller's capabilities to a 2026-07-28 upstream, and turns
// the caller's call into a task when the upstream's becomes one.
func (up *upstream) callContext(round *context.Context, r *relayed) context.Context {
	ctx := *round
	r.round.Store(round) // before the call starts: what it relays at once has its round
	cctx, cancel := context.WithCancel(context.WithValue(up.g.life, relayKey{}, r))
	r.cancel = cancel
	cctx = client.WithProgress(cctx, func(p protocol.ProgressNotificationParams) {
		if rc := r.round.Load(); rc != nil {
			var total float64
			if p.Total != nil {
				total = *p.Total
			}
			mcp.ReportProgress(*rc, p.Progress, total, p.Message)
		}
	})
	if caps := callerCapabilities(ctx); caps != nil && up.modern() {
		cctx = client.WithMeta(cctx, protocol.Meta{protocol.MetaClientCapabilities: caps})
	}
	return client.WithOnTask(cctx, func(protocol.Task) {
		if rc := r.round.Load(); rc != nil {
			mcp.StartTask(*rc)
		}
	})
}

// callerCapabilities are the capabilities of the caller of ctx's request
// as a 2026-07-28 request declares them, or nil outside a request.
func callerCapabilities(ctx context.Context) json.RawMessage {
	info := mcp.RequestFrom(ctx)
	if info == nil || len(info.ClientCapabilities) == 0 {
		return nil
	}
	if v, ok := declared.Load(string(info.ClientCapabilities)); ok {
		return v.(json.RawMessage)
	}
	raw := normalCapabilities(info.ClientCapabilities)
	if raw != nil && declaredN.Add(1) <= maxDeclared {
		declared.Store(string(info.ClientCapabilities), raw)
	}
	return raw
}

// declared caches normalCapabilities: callers declare the same few
// capability objects call after call. It keeps the first maxDeclared.
var (
	declared  sync.Map
	declaredN atomic.Int64
)

const maxDeclared = 256

// normalCapabilities is a caller's capabilities object as a 2026-07-28
// request declares it.
func normalCapabilities(given json.RawMessage) json.RawMessage {
	var c protocol.ClientCapabilities
	if json.Unmarshal(given, &c) != nil {
		return nil
	}
	if c.Roots != nil { // 2026-07-28 declares roots as {}
		c.Roots = protocol.Object{}
	}
	raw, err := json.Marshal(&c)
	if err != nil {
		return nil
	}
	return raw
}

// resume finds the relayed call an earlier round of this caller's
// request parked, if it still waits.
func (up *upstream) resume(ctx context.Context) *relayed {
	var id string
	if ok, _ := ask.Recall(ctx, relayMemo, &id); !ok {
		return nil
	}
	g := up.g
	g.mu.Lock()
	defer g.mu.Unlock()
	r := g.parked[id]
	if r == nil || r.up != up {
		return nil
	}
	delete(g.parked, id)
	r.expiry.Stop()
	return r
}

// park keeps r waiting for the caller's next round.
func (g *Gateway) park(r *relayed) error {
	g.mu.Lock()
	defer g.mu.Unlock()
	if len(g.parked) >= maxParked {
		return jsonrpc.NewError(jsonrpc.CodeInternalError, "gateway: %d calls already wait for their callers' answers", maxParked).
			WithData(map[string]string{"reason": "overloaded"})
	}
	if g.parked == nil {
		g.parked = map[string]*relayed{}
	}
	g.parked[r.id] = r
	r.expiry = time.AfterFunc(parkedTTL, func() {
		g.mu.Lock()
		waiting := g.parked[r.id] == r
		if waiting {
			delete(g.parked, r.id)
		}
		g.mu.Unlock()
		if waiting { // not resumed just now
			r.cancel()
		}
	})
	return nil
}

// newRelayID is an unguessable id for a relayed call (it travels sealed
// in the caller's requestState all the same).
func newRelayID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}

// relayKey keys the relayed call in the context of its upstream call.
type relayKey struct{}

// track records r as in flight to the upstream (or no longer).
func (up *upstream) track(r *relayed, on bool) {
	up.flightMu.Lock()
	defer up.flightMu.Unlock()
	if on {
		if up.inFlight == nil {
			up.inFlight = map[*relayed]struct{}{}
		}
		up.inFlight[r] = struct{}{}
	} else {
		delete(up.inFlight, r)
	}
}

// whose is the relayed call a question of the upstream belongs to: the
// one its context names, or else the one call in flight.
func (up *upstream) whose(ctx context.Context) (*relayed, error) {
	if r, _ := ctx.Value(relayKey{}).(*relayed); r != nil {
		return r, nil
	}
	up.flightMu.Lock()
	defer up.flightMu.Unlock()
	switch len(up.inFlight) {
	case 0:
		return nil, errors.New("the upstream asked outside any call, and the gateway answers only for a caller")
	case 1:
		for r := range up.inFlight {
			return r, nil
		}
	}
	return nil, errAmbiguous
}

// askOf hands the upstream's question to its call's caller and waits for
// the answer.
func (up *upstream) askOf(ctx context.Context, q *question) (any, error) {
	r, err := up.whose(ctx)
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "gateway: %s", err.Error())
	}
	if r.inline { // the caller is asked here, one question at a time
		r.askMu.Lock()
		defer r.askMu.Unlock()
		rc := r.round.Load()
		if rc == nil {
			return nil, errors.New("gateway: the call that asked has ended")
		}
		v, err := askCaller(*rc, r, q)
		if errors.Is(err, ask.ErrInputRequired) && q.round != nil {
			return nil, client.ErrDeferInput // asked; see inline
		}
		return v, err
	}
	q.answer = make(chan answered, 1)
	select {
	case r.asks <- q:
	case <-r.done:
		return nil, errors.New("gateway: the call that asked has ended")
	case <-ctx.Done():
		return nil, ctx.Err()
	}
	select {
	case a := <-q.answer:
		return a.v, a.err
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// handlers are the client handlers that relay an upstream's questions,
// and the capabilities they declare: every kind of question, the caller
// being the one to say whether it can answer (to a 2026-07-28 upstream,
// each call declares the caller's own capabilities: see start).
func (up *upstream) handlers(o *client.Options) {
	o.Elicit = func(ctx context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
		v, err := up.askOf(ctx, &question{one: protocol.InputRequest{Elicit: p}})
		if err != nil {
			return nil, err
		}
		return v.(*protocol.ElicitResult), nil
	}
	o.ElicitURL = true
	o.Sample = func(ctx context.Context, p *protocol.CreateMessageRequestParams) (*protocol.CreateMessageResult, error) {
		v, err := up.askOf(ctx, &question{one: protocol.InputRequest{CreateMessage: p}})
		if err != nil {
			return nil, err
		}
		return v.(*protocol.CreateMessageResult), nil
	}
	o.ListRoots = func(ctx context.Context) ([]protocol.Root, error) {
		v, err := up.askOf(ctx, &question{one: protocol.InputRequest{ListRoots: &protocol.ListRootsRequestParams{}}})
		if err != nil {
			return nil, err
		}
		return v.(*protocol.ListRootsResult).Roots, nil
	}
	o.AnswerInputs = func(ctx context.Context, requests map[string]protocol.InputRequest) (map[string]json.RawMessage, error) {
		v, err := up.askOf(ctx, &question{round: requests})
		if err != nil {
			return nil, err
		}
		return v.(map[string]json.RawMessage), nil
	}
}

// askCaller asks the caller q, in the caller's era: a round's questions
// all in this run (a modern caller gets them in one input_required, under
// the upstream's keys), and returns the answer as the upstream's handler
// returns it. ask.ErrInputRequired: some are not answered yet.
func askCaller(ctx context.Context, r *relayed, q *question) (any, error) {
	if q.round == nil {
		return askOne(ctx, r, q.one)
	}
	keys := make([]string, 0, len(q.round))
	for k := range q.round {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	answers := make(map[string]json.RawMessage, len(keys))
	var pending error
	for _, k := range keys {
		var opts []ask.Option
		if callctx.ValidKey(k) { // else asked under a key ask derives
			opts = append(opts, ask.Key(k))
		}
		v, err := askOne(ctx, r, q.round[k], opts...)
		if errors.Is(err, ask.ErrInputRequired) {
			pending = err // ask the rest all the same: one round for all
			continue
		}
		if err != nil {
			return nil, err
		}
		if answers[k], err = json.Marshal(v); err != nil {
			return nil, err
		}
	}
	if pending != nil {
		return nil, pending
	}
	return answers, nil
}

// askOne asks the caller one input request.
func askOne(ctx context.Context, r *relayed, in protocol.InputRequest, opts ...ask.Option) (any, error) {
	switch {
	case in.CreateMessage != nil:
		return ask.Sample(ctx, *in.CreateMessage, opts...)
	case in.ListRoots != nil:
		roots, err := ask.Roots(ctx, opts...)
		if err != nil {
			return nil, err
		}
		return &protocol.ListRootsResult{Roots: roots}, nil
	case in.Elicit == nil:
		return nil, errors.New("gateway: an input request of no known method")
	case in.Elicit.URL != nil:
		u := in.Elicit.URL
		reply, err := ask.ElicitURL(ctx, u.Message, u.URL, opts...)
		if err != nil {
			return nil, err
		}
		if u.ElicitationID != "" && reply.ElicitationID != "" {
			r.up.urlIDs.put(u.ElicitationID, reply.ElicitationID) // the upstream's completion names its own id
		}
		return &protocol.ElicitResult{Action: reply.Action}, nil
	}
	f := in.Elicit.Form
	reply, err := ask.Elicit(ctx, f.Message, f.RequestedSchema, opts...)
	if err != nil {
		return nil, err
	}
	out := &protocol.ElicitResult{Action: reply.Action}
	if reply.Accepted() {
		out.Content = protocol.Object{}
		for k, v := range reply.Content {
			raw, err := json.Marshal(v)
			if err != nil {
				return nil, fmt.Errorf("gateway: re-encoding the answer's %q: %w", k, err)
			}
			out.Content[k] = raw
		}
	}
	return out, nil
}

// maxWorkers bounds the goroutines kept to run relayed calls.
const maxWorkers = 64

// work runs f on a goroutine kept for relayed calls that waits for work,
// or on a new one (kept when fewer than maxWorkers are). A kept goroutine
// has the stack a relayed call grows (the upstream's client, an
// in-process upstream's whole server): a new goroutine per call would
// grow it again on every call, copying it each time it doubles.
func (g *Gateway) work(f func()) {
	select {
	case g.jobs <- f: // an idle worker took it
		return
	default:
	}
	if g.workers.Add(1) > maxWorkers {
		g.workers.Add(-1)
		go f()
		return
	}
	go func() {
		defer g.workers.Add(-1)
		for {
			f()
			select {
			case f = <-g.jobs:
			case <-g.life.Done():
				return
			}
		}
	}()
}
