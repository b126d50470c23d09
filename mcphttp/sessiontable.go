package mcphttp

import (
	"container/list"
	"errors"
	"net/http"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/internal/callerkey"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// errHandlerClosed refuses an initialize after Close.
var errHandlerClosed = errors.New("closed")

// sessionTable holds the open sessions by id, and what the session limits
// need to find quickly: the sessions whose client has not completed the
// handshake, oldest first (the first to make room), and each caller's
// sessions (MaxSessionsPerCaller).
type sessionTable struct {
	mu      sync.Mutex
	m       map[string]*session
	pending list.List                        // of *session, not handshaken, in the order they were opened
	callers map[string]map[*session]struct{} // the open sessions of each caller with any
	janitor bool                             // started

	// The Retry-After of the last refusal for MaxSessions, kept for a
	// moment so that a flood of refused initializes does not scan the
	// whole table under mu each (see retryTable).
	retryAt, retryFrom time.Time
}

func (t *sessionTable) init() {
	t.m = map[string]*session{}
	t.callers = map[string]map[*session]struct{}{}
}

// add puts s in the table, as not handshaken yet; t.mu is held.
func (t *sessionTable) add(s *session) {
	t.m[s.id] = s
	s.pending = t.pending.PushBack(s)
	mine := t.callers[s.caller]
	if mine == nil {
		mine = map[*session]struct{}{}
		t.callers[s.caller] = mine
	}
	mine[s] = struct{}{}
}

// drop takes s out of the table and of everything that counts it; t.mu is
// held and s is in the table.
func (t *sessionTable) drop(s *session) {
	delete(t.m, s.id)
	if s.pending != nil {
		t.pending.Remove(s.pending)
		s.pending = nil
	}
	mine := t.callers[s.caller]
	delete(mine, s)
	if len(mine) == 0 {
		delete(t.callers, s.caller) // the map holds the callers with sessions, not every caller seen
	}
}

// handshaken records that s's client completed the handshake
// (notifications/initialized): it no longer expires after
// HandshakeTimeout and is no longer ended to make room.
func (t *sessionTable) handshaken(s *session) {
	t.mu.Lock()
	defer t.mu.Unlock()
	if s.pending != nil && t.m[s.id] == s {
		t.pending.Remove(s.pending)
		s.pending = nil
	}
}

// createSession opens a session for r's initialize, in use once (release
// it), and starts the janitor with the first one. Within the limits (see
// admitSession) it may end other sessions to make room, before it returns.
func (h *Handler) createSession(r *http.Request) (*session, error) {
	t := &h.sessions
	s := &session{
		id:      h.opts.SessionIDPrefix + newSessionID(),
		owner:   ownerOf(r),
		caller:  callerkey.Of(r.Context()),
		out:     make(chan jsonrpc.Message, unsolicitedBuffer),
		ended:   make(chan struct{}),
		active:  1,
		calls:   map[string]*exchange{},
		streams: map[string]*callStream{},
		store:   h.opts.EventStore,
		log:     h.log,
	}
	t.mu.Lock()
	if h.isClosed() {
		t.mu.Unlock()
		return nil, errHandlerClosed
	}
	evicted, err := h.admitSession(s, time.Now())
	// The sessions that made room end before the new one is answered, so
	// that a flood of initializes cannot outrun their ending.
	defer func() {
		for _, v := range evicted {
			h.log.Info("mcphttp: legacy session ended to make room", "reason", "handshake not completed")
			v.end()
		}
	}()
	if err != nil {
		t.mu.Unlock()
		return nil, err
	}
	s.ep = h.srv.NewEndpoint(mcp.EndpointOptions{SessionID: s.id, Unsolicited: func(m jsonrpc.Message) {
		select {
		case s.out <- m:
		default:
			h.log.Warn("mcphttp: unsolicited message dropped: the session's GET stream is not reading", "method", methodOf(m))
		}
	}})
	t.add(s)
	if !t.janitor {
		t.janitor = true
		h.bg.Add(1)
		go h.janitor()
	}
	t.mu.Unlock()
	return s, nil
}

// acquire returns the open session with this id, in use once.
func (t *sessionTable) acquire(id string) *session {
	t.mu.Lock()
	defer t.mu.Unlock()
	s := t.m[id]
	if s != nil {
		s.mu.Lock()
		s.active++
		s.mu.Unlock()
	}
	return s
}

// remove takes s out of the table; it reports whether it was there.
func (t *sessionTable) remove(s *session) bool {
	t.mu.Lock()
	defer t.mu.Unlock()
	if t.m[s.id] != s {
		return false
	}
	t.drop(s)
	return true
}

// removeAll empties the table and returns what it held.
func (t *sessionTable) removeAll() []*session {
	t.mu.Lock()
	defer t.mu.Unlock()
	all := make([]*session, 0, len(t.m))
	for _, s := range t.m {
		all = append(all, s)
		t.drop(s)
	}
	return all
}

// expiry is a session that is over, and why.
type expiry struct {
	s      *session
	reason string
}

// expired removes and returns the sessions that are over: idle for longer
// than the idle timeout, or idle and not handshaken longer than the
// handshake timeout after their initialize was answered.
func (t *sessionTable) expired(now time.Time, idle, handshake time.Duration) (out []expiry) {
	t.mu.Lock()
	defer t.mu.Unlock()
	for _, s := range t.m {
		reason := ""
		s.mu.Lock()
		switch {
		case s.active > 0:
		case s.pending != nil && !s.answered.IsZero() && now.Sub(s.answered) > handshake:
			reason = "handshake not completed"
		case now.Sub(s.last) > idle:
			reason = "idle"
		}
		s.mu.Unlock()
		if reason != "" {
			out = append(out, expiry{s, reason})
			t.drop(s)
		}
	}
	return out
}

// janitor ends the sessions that are over (see expired) until the handler
// closes. It looks four times per the shorter of the two timeouts, so
// that a session is not kept much past either (within a minute).
func (h *Handler) janitor() {
	defer h.bg.Done()
	idle, handshake := h.opts.SessionIdleTimeout, h.opts.HandshakeTimeout
	every := min(max(min(idle, handshake)/4, 10*time.Millisecond), time.Minute)
	t := time.NewTicker(every)
	defer t.Stop()
	for {
		select {
		case <-h.closing:
			return
		case now := <-t.C:
			var wg sync.WaitGroup
			for _, e := range h.sessions.expired(now, idle, handshake) {
				h.log.Info("mcphttp: legacy session expired", "reason", e.reason)
				wg.Go(e.s.end)
			}
			wg.Wait()
		}
	}
}
