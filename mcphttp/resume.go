package mcphttp

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"errors"
	"net/http"
	"strings"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// Resumability of legacy sessions. Every SSE event of a legacy session is
// appended to the handler's EventStore before it is written, under the id
// the store gives, which names its stream: "p…" for a POST's stream, "g…"
// for a GET stream of unsolicited messages. A POST whose stream loses its
// client (or that the server closes early, CloseStream) after its first
// event is detached: the call goes on, and what it sends is stored until
// its response. A GET with Last-Event-ID replays what the store holds after
// that event on its stream and then follows the stream: a POST's until its
// response, a GET stream's for good.

// Stream id prefixes.
const (
	callStreamPrefix = "p"
	getStreamPrefix  = "g"
)

func newStreamID(prefix string) string {
	var b [8]byte
	_, _ = rand.Read(b[:])
	return prefix + hex.EncodeToString(b[:])
}

// callStream is the state of one legacy POST's SSE stream that resumers
// follow: they wait on changed, which is closed (and replaced) at every
// event appended, until done.
type callStream struct {
	id      string
	mu      sync.Mutex
	changed chan struct{}
	done    bool // its last event was appended (or the call was abandoned)
}

// openCallStream registers a new POST stream.
func (s *session) openCallStream() *callStream {
	cs := &callStream{id: newStreamID(callStreamPrefix), changed: make(chan struct{})}
	s.mu.Lock()
	s.streams[cs.id] = cs
	s.mu.Unlock()
	return cs
}

// notify wakes the resumers following cs.
func (cs *callStream) notify() {
	cs.mu.Lock()
	if !cs.done {
		close(cs.changed)
		cs.changed = make(chan struct{})
	}
	cs.mu.Unlock()
}

// finish marks cs done (nothing more is appended to it) and forgets it.
func (s *session) finishCallStream(cs *callStream) {
	if cs == nil {
		return
	}
	cs.mu.Lock()
	if !cs.done {
		cs.done = true
		close(cs.changed)
	}
	cs.mu.Unlock()
	s.mu.Lock()
	if s.streams[cs.id] == cs {
		delete(s.streams, cs.id)
	}
	s.mu.Unlock()
}

// watchCallStream returns what a resumer of stream waits on, and whether
// the stream is over (finished, or not a live POST stream).
func (s *session) watchCallStream(stream string) (<-chan struct{}, bool) {
	s.mu.Lock()
	cs := s.streams[stream]
	s.mu.Unlock()
	if cs == nil {
		return nil, true
	}
	cs.mu.Lock()
	defer cs.mu.Unlock()
	return cs.changed, cs.done
}

// append stores one event of stream and returns its id; "" when the store
// failed (the event then goes out without an id) or the session ended.
func (s *session) append(stream string, data []byte) string {
	s.storeMu.RLock()
	defer s.storeMu.RUnlock()
	if s.forgot {
		return ""
	}
	id, err := s.store.Append(s.id, stream, data)
	if err != nil {
		s.log.Warn("mcphttp: event not stored: the client cannot resume past it", "error", err)
		return ""
	}
	return id
}

// forget has the store drop the session's events; nothing is appended for
// it afterwards.
func (s *session) forget() {
	s.storeMu.Lock()
	s.forgot = true
	s.storeMu.Unlock()
	s.store.Forget(s.id)
}

func (s *session) replay(lastID string, yield func(id string, data []byte) error) (string, error) {
	s.storeMu.RLock()
	forgot := s.forgot
	s.storeMu.RUnlock()
	if forgot {
		return "", ErrEventUnknown
	}
	return s.store.Replay(s.id, lastID, yield)
}

// encode returns the SSE data of m; ok is false when m cannot be encoded
// (it is skipped, as a stream would drop it).
func encode(m jsonrpc.Message) ([]byte, bool) {
	b, err := jsonrpc.AppendMessage(nil, m)
	return b, err == nil
}

// The outcomes of a legacy POST's loop.
type callOutcome int

const (
	callAnswered callOutcome = iota // the response went out (or the call was abandoned)
	callLost                        // the client left before any event: cancel the call
	callDetached                    // the stream ended after its first event: the call goes on
)

// callRun writes a legacy call's messages to its POST: as application/json
// when the response comes first, otherwise as a stored event stream.
type callRun struct {
	h      *Handler
	s      *session
	x      *exchange
	w      http.ResponseWriter
	sse    bool // the client accepts text/event-stream
	stream *sseStream
	cs     *callStream
	ticker *time.Ticker
	tick   <-chan time.Time
}

// loop runs until the response, the client leaving (ctx) or the stream
// closing early; backlog is what was taken from the exchange and not
// handled yet (for the detached call).
func (c *callRun) loop(ctx context.Context) (out callOutcome, backlog []jsonrpc.Message) {
	defer func() {
		if c.ticker != nil {
			c.ticker.Stop()
		}
	}()
	lost := func() callOutcome {
		if c.cs != nil {
			return callDetached
		}
		return callLost
	}
	for {
		select {
		case <-ctx.Done():
			return lost(), nil
		case <-c.x.abandon:
			// A response queued just before the cancellation still goes out.
			if out, done, rest := c.deliver(c.x.take()); done {
				return out, rest
			}
			if c.stream == nil {
				c.w.WriteHeader(http.StatusNoContent)
			}
			c.s.finishCallStream(c.cs)
			return callAnswered, nil
		case <-c.tick:
			if c.stream.comment("keep-alive") != nil {
				return lost(), nil
			}
		case <-c.x.wake:
			if out, done, rest := c.deliver(c.x.take()); done {
				return out, rest
			}
		}
	}
}

// open switches the POST to an event stream.
func (c *callRun) open() {
	c.stream = openSSE(c.w)
	c.cs = c.s.openCallStream()
	c.ticker = time.NewTicker(c.h.opts.KeepAlive)
	c.tick = c.ticker.C
}

// deliver writes msgs; done is true when the loop is over, rest what is
// left of msgs then.
func (c *callRun) deliver(msgs []jsonrpc.Message) (out callOutcome, done bool, rest []jsonrpc.Message) {
	for i, m := range msgs {
		if q, ok := m.(*closeRequest); ok {
			if !c.sse {
				q.answer(false)
				continue
			}
			// SSE polling: an id first when nothing was sent yet, the
			// retry hint, and the connection ends; the call goes on.
			id := ""
			if c.stream == nil {
				c.open()
				id = c.s.append(c.cs.id, nil)
				c.cs.notify()
			}
			_ = c.stream.priming(id, c.h.opts.RetryInterval)
			q.answer(true)
			return callDetached, true, msgs[i+1:]
		}
		r, isResp := m.(*jsonrpc.Response)
		if c.stream == nil {
			if isResp {
				writeJSON(c.w, legacyStatus(r), r)
				return callAnswered, true, nil
			}
			if !c.sse {
				// Without a stream a question cannot reach the client: it
				// is answered as refused so that the call goes on at once;
				// notifications are dropped.
				if q, ok := m.(*jsonrpc.Request); ok {
					c.s.refuseQuestion(q)
				}
				continue
			}
			c.open()
		}
		data, ok := encode(m)
		if !ok {
			continue
		}
		id := c.s.append(c.cs.id, data)
		if isResp {
			c.s.finishCallStream(c.cs)
		} else {
			c.cs.notify()
		}
		err := c.stream.storedEvent(id, data)
		if isResp {
			return callAnswered, true, nil
		}
		if err != nil {
			return callDetached, true, msgs[i+1:]
		}
	}
	return 0, false, nil
}

// detach lets a call whose POST stream ended go on without it: a goroutine
// stores what it sends, for a client resuming the stream, until its
// response, its abandonment or the session's end. It reports false when
// the session is ending (the call is then left to the endpoint's close).
func (s *session) detach(x *exchange, cs *callStream, backlog []jsonrpc.Message, done func()) bool {
	s.mu.Lock()
	if s.closing {
		s.mu.Unlock()
		return false
	}
	s.active++
	s.pumps.Add(1)
	s.mu.Unlock()
	go func() {
		defer s.pumps.Done()
		defer s.release()
		defer done()
		defer s.finishCallStream(cs)
		store := func(msgs []jsonrpc.Message) bool {
			for _, m := range msgs {
				if q, ok := m.(*closeRequest); ok {
					q.answer(true) // it is closed already
					continue
				}
				data, ok := encode(m)
				if !ok {
					continue
				}
				s.append(cs.id, data)
				if _, isResp := m.(*jsonrpc.Response); isResp {
					return true
				}
				cs.notify()
			}
			return false
		}
		if store(backlog) {
			return
		}
		for {
			select {
			case <-s.ended:
				return
			case <-x.abandon:
				store(x.take())
				return
			case <-x.wake:
				if store(x.take()) {
					return
				}
			}
		}
	}()
	return true
}

// closeRequest is how CloseStream reaches the loop writing its call's
// POST: queued on the call's exchange like the messages the call sent
// before it, so that they are written first, and answered by the loop
// (never written). It is a jsonrpc.Message only to travel in that queue.
type closeRequest struct {
	*jsonrpc.Request // always nil
	closed           chan bool
}

func (q *closeRequest) answer(closed bool) { q.closed <- closed } // buffered

// closerKey is the context key of a legacy call's closer: the function
// that queues a closeRequest on its exchange and waits for the answer.
type closerKey struct{}

// closerFor returns the closer of the call whose exchange is x.
func closerFor(x *exchange) func(context.Context) bool {
	return func(ctx context.Context) bool {
		q := &closeRequest{closed: make(chan bool, 1)}
		if !x.put(q) {
			return false // the POST is over: nothing reads the queue
		}
		select {
		case closed := <-q.closed:
			return closed
		case <-ctx.Done():
			return false
		}
	}
}

// refuseQuestion answers, in the client's stead, a request to the client
// that cannot reach it (its POST does not accept text/event-stream), so
// that the call goes on at once.
func (s *session) refuseQuestion(q *jsonrpc.Request) {
	s.ep.Handle(context.Background(), &jsonrpc.Response{ID: q.ID, Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
		"internal error: the client cannot be asked: its POST does not accept text/event-stream")}, nil)
}

// CloseStream asks the Handler serving the call of ctx (a tool, prompt or
// resource handler's context) to close the call's SSE stream now, before
// its response: SSE polling, as the 2025-11-25 transport allows. The client
// gets an event id to resume from (a priming event with empty data, when
// nothing was sent yet) and the retry hint (Options.RetryInterval), then
// the connection ends. The call goes on: what it sends afterwards, its
// response included, is held in the session's event store and delivered
// when the client reconnects with GET and Last-Event-ID.
//
// It reports whether the stream was closed, and returns false at once,
// asking nothing, outside a legacy call served by a Handler (on stdio, say)
// or in a session older than 2025-11-25 (whose clients do not reconnect to
// a closed stream); false, too, when the client's POST does not accept
// text/event-stream.
func CloseStream(ctx context.Context) bool {
	info := mcp.RequestFrom(ctx)
	if info == nil || info.Era != protocol.Legacy || !feature.SSEPolling(info.Revision) {
		return false
	}
	closer, ok := ctx.Value(closerKey{}).(func(context.Context) bool)
	return ok && closer(ctx)
}

// errReplaced stops the replay of a resumption that a later one replaced.
var errReplaced = errors.New("replaced by a later resumption")

// resume serves a GET with Last-Event-ID: the events of that event's stream
// held after it, then the stream itself (see the package documentation).
// A POST stream is followed by one resumption at a time: the newest, which
// ends the one before (see takeResumption).
func (h *Handler) resume(w http.ResponseWriter, r *http.Request, s *session, lastID string) {
	// Watch before replaying, so that nothing appended in between is missed.
	changed, over := s.watchCallStream(eventStream(lastID))
	var missed []replayed
	stream, err := s.replay(lastID, func(id string, data []byte) error {
		missed = append(missed, replayed{id, data})
		return nil
	})
	if err != nil {
		h.refuseResume(w, err)
		return
	}
	if strings.HasPrefix(stream, getStreamPrefix) {
		h.serveUnsolicited(w, r, s, stream, missed)
		return
	}
	last := lastID
	// One resumption follows a POST stream: this one replaces any before
	// it, and waits for its place if that one held the last.
	me, replacedOne := s.takeResumption(stream)
	defer s.dropResumption(stream, me)
	claimed := s.claimStream(h.opts.MaxSessionStreams)
	if !claimed && replacedOne {
		var stopped bool
		if claimed, stopped = s.awaitStream(r.Context(), h.opts.MaxSessionStreams, me.replaced); stopped {
			replacedEarly(w)
			return
		}
	}
	if !claimed {
		h.tooManyStreams(w, r)
		return
	}
	defer s.releaseStream()
	sse := openSSE(w)
	write := func(id string, data []byte) error {
		select {
		case <-me.replaced:
			return errReplaced
		default:
		}
		last = id
		if len(data) == 0 { // a priming event
			return nil
		}
		return sse.storedEvent(id, data)
	}
	for _, e := range missed {
		if write(e.id, e.data) != nil {
			return
		}
	}
	if stream != eventStream(lastID) {
		// A store whose ids do not parse as the default's: watch the
		// stream it named, and catch up with what came in between.
		changed, over = s.watchCallStream(stream)
		if _, err := s.replay(last, write); err != nil {
			return
		}
	}
	tick := time.NewTicker(h.opts.KeepAlive)
	defer tick.Stop()
	for !over {
		select {
		case <-r.Context().Done():
			return
		case <-s.ended:
			return
		case <-me.replaced:
			return
		case <-tick.C:
			if sse.comment("keep-alive") != nil {
				return
			}
			continue
		case <-changed:
		}
		changed, over = s.watchCallStream(stream)
		if _, err := s.replay(last, write); err != nil {
			return // evicted while following, the client left, or the session ended
		}
	}
}

// replayed is an event held in the store, replayed to a resumption.
type replayed struct {
	id   string
	data []byte // shared with the store, which never modifies it
}

// serveUnsolicited opens, or resumes, the session's stream of unsolicited
// messages (named stream): the events it missed, if any, then the stream,
// which stays one at a time (409).
func (h *Handler) serveUnsolicited(w http.ResponseWriter, r *http.Request, s *session, stream string, missed []replayed) {
	if !s.claimStream(h.opts.MaxSessionStreams) {
		h.tooManyStreams(w, r)
		return
	}
	defer s.releaseStream()
	if !s.startStreaming() {
		writeError(w, http.StatusConflict, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: this session's GET stream is already open")
		return
	}
	defer s.stopStreaming()
	sse := openSSE(w)
	for _, e := range missed {
		if len(e.data) > 0 && sse.storedEvent(e.id, e.data) != nil {
			return
		}
	}
	h.streamUnsolicited(r.Context(), s, sse, stream)
}

// eventStream is the stream part of an id of the default store, "" for
// another.
func eventStream(id string) string {
	stream, _, _ := parseEventID(id)
	return stream
}

// refuseResume answers a Last-Event-ID that cannot be resumed from.
func (h *Handler) refuseResume(w http.ResponseWriter, err error) {
	switch {
	case errors.Is(err, ErrEventExpired):
		h.log.Warn("mcphttp: resumption refused", "header", "Last-Event-ID", "category", "evicted", "status", http.StatusBadRequest)
		writeJSON(w, http.StatusBadRequest, &jsonrpc.Response{Error: jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"invalid request: Last-Event-ID names an event older than this session's event store still holds: the messages after it are lost; the stream cannot be resumed").
			WithData(map[string]string{"reason": "event evicted"})})
	case errors.Is(err, ErrEventUnknown):
		h.log.Warn("mcphttp: resumption refused", "header", "Last-Event-ID", "category", "unknown", "status", http.StatusBadRequest)
		writeJSON(w, http.StatusBadRequest, &jsonrpc.Response{Error: jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"invalid request: Last-Event-ID names no event of this session's streams").
			WithData(map[string]string{"reason": "unknown event"})})
	default:
		h.log.Error("mcphttp: event store failed", "error", err)
		writeError(w, http.StatusInternalServerError, jsonrpc.ID{}, jsonrpc.CodeInternalError, "internal error: the event store failed; the stream cannot be resumed")
	}
}

// startStreaming claims the session's GET stream of unsolicited messages;
// false when one is open.
func (s *session) startStreaming() bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.streaming {
		return false
	}
	s.streaming = true
	return true
}

func (s *session) stopStreaming() {
	s.mu.Lock()
	s.streaming = false
	s.mu.Unlock()
}

// streamUnsolicited writes the session's unsolicited messages to a GET
// stream, each stored first, until the client leaves or the session ends.
func (h *Handler) streamUnsolicited(ctx context.Context, s *session, sse *sseStream, stream string) {
	tick := time.NewTicker(h.opts.KeepAlive)
	defer tick.Stop()
	for {
		var err error
		select {
		case <-ctx.Done():
			return
		case <-s.ended:
			return
		case <-tick.C:
			err = sse.comment("keep-alive")
		case m := <-s.out:
			if data, ok := encode(m); ok {
				err = sse.storedEvent(s.append(stream, data), data)
			}
		}
		if err != nil {
			return
		}
	}
}
