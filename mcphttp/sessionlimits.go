package mcphttp

import (
	"net/http"
	"strconv"
	"time"

	"github.com/mcpwire/mcpwire/internal/overload"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// The limits on legacy sessions, as mcp.Overload and the quota error name
// them.
const (
	limitSessions          = "MaxSessions"
	limitSessionsPerCaller = "MaxSessionsPerCaller"
)

// retryMemo is how long the Retry-After of a refusal for MaxSessions is
// reused before the table is scanned again: well under the second that
// Retry-After counts in.
const retryMemo = 250 * time.Millisecond

// sessionRefusal is an initialize refused for a session limit: which one
// (its option's name), its bound, and how long until a session it counts
// can end at the soonest (Retry-After).
type sessionRefusal struct {
	limit string
	max   int
	retry time.Duration
}

func (e *sessionRefusal) Error() string { return "the limit " + e.limit + " is reached" }

// admitSession decides, with the table's mu held, whether s may open now.
// A session whose client never completed the handshake is the cheapest
// thing a client can hold (one unanswered initialize), so when a limit is
// reached the oldest idle one it counts is ended to make room: first
// among the caller's own sessions (MaxSessionsPerCaller), then among all
// (MaxSessions). Without one to end, s is refused: 429 for the caller's
// quota, 503 for the table. What it returns as evicted is out of the table
// already, err or not; the caller ends it.
func (h *Handler) admitSession(s *session, now time.Time) (evicted []*session, err error) {
	t := &h.sessions
	if max := h.opts.MaxSessionsPerCaller; len(t.callers[s.caller]) >= max {
		v := t.oldestIdlePending(func(o *session) bool { return o.caller == s.caller })
		if v == nil {
			var soonest time.Time
			for o := range t.callers[s.caller] {
				soonest = earlier(soonest, h.earliestEnd(o, now))
			}
			return nil, &sessionRefusal{limit: limitSessionsPerCaller, max: max, retry: soonest.Sub(now)}
		}
		t.drop(v)
		evicted = append(evicted, v)
	}
	if max := h.opts.MaxSessions; len(t.m) >= max {
		v := t.oldestIdlePending(nil)
		if v == nil {
			return evicted, &sessionRefusal{limit: limitSessions, max: max, retry: h.retryTable(now).Sub(now)}
		}
		t.drop(v)
		evicted = append(evicted, v)
	}
	return evicted, nil
}

// oldestIdlePending returns the session opened first among those that
// match (all when match is nil), have not completed the handshake and are
// not in use; nil when there is none. t.mu is held.
func (t *sessionTable) oldestIdlePending(match func(*session) bool) *session {
	for e := t.pending.Front(); e != nil; e = e.Next() {
		s := e.Value.(*session)
		if match != nil && !match(s) {
			continue
		}
		s.mu.Lock()
		idle := s.active == 0
		s.mu.Unlock()
		if idle {
			return s
		}
	}
	return nil
}

// retryTable returns when a session of the table can end at the soonest
// (see earliestEnd), scanning the table at most once per retryMemo. t.mu is
// held.
func (h *Handler) retryTable(now time.Time) time.Time {
	t := &h.sessions
	if !t.retryFrom.IsZero() && now.Sub(t.retryFrom) < retryMemo {
		return t.retryAt
	}
	var soonest time.Time
	for _, s := range t.m {
		soonest = earlier(soonest, h.earliestEnd(s, now))
	}
	t.retryAt, t.retryFrom = soonest, now
	return soonest
}

// earliestEnd is the soonest s can end without a DELETE: when it expires,
// idle (SessionIdleTimeout) or, never handshaken, HandshakeTimeout after
// its initialize was answered. A session in use has no expiry time; it
// counts as if it were released now, the soonest it could start idling,
// so that the estimate never exceeds the true wait (a client told to come
// back then may be refused again, but never waits longer than it must).
// t.mu is held.
func (h *Handler) earliestEnd(s *session, now time.Time) time.Time {
	s.mu.Lock()
	defer s.mu.Unlock()
	from := s.last
	if s.active > 0 {
		from = now
	}
	end := from.Add(h.opts.SessionIdleTimeout)
	if s.pending != nil {
		handshake := now // its initialize is not answered yet: at the soonest now
		if !s.answered.IsZero() {
			handshake = s.answered
		}
		handshake = handshake.Add(h.opts.HandshakeTimeout)
		if handshake.Before(from) {
			handshake = from
		}
		end = earlier(end, handshake)
	}
	return end
}

// earlier returns the earlier of a and b, a zero a counting as none.
func earlier(a, b time.Time) time.Time {
	if a.IsZero() || b.Before(a) {
		return b
	}
	return a
}

// retryAfter is the Retry-After value for a wait of d: whole seconds,
// rounded up, at least 1.
func retryAfter(d time.Duration) string {
	secs := (d + time.Second - 1) / time.Second
	return strconv.FormatInt(int64(max(secs, 1)), 10)
}

// refuseInitialize answers an initialize that createSession refused, with
// its id: 429 and the quota error for the caller's own limit, 503 and the
// overload error for the table's or a closed handler. Each says when to
// try again (Retry-After); the server's observer hears of the limits.
func (h *Handler) refuseInitialize(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request, err error) {
	refusal, ok := err.(*sessionRefusal)
	if !ok {
		h.log.Warn("mcphttp: initialize refused", "category", "closed", "status", http.StatusServiceUnavailable)
		w.Header().Set("Retry-After", "1")
		writeJSON(w, http.StatusServiceUnavailable, &jsonrpc.Response{ID: req.ID,
			Error: jsonrpc.NewError(jsonrpc.CodeInternalError, "server shutting down: the handler is closed").WithData(map[string]string{"reason": "overloaded"})})
		return
	}
	overload.Report(r.Context(), h.srv, refusal.limit, req.Method, mcp.TransportHTTP)
	w.Header().Set("Retry-After", retryAfter(refusal.retry))
	if refusal.limit == limitSessionsPerCaller {
		h.log.Warn("mcphttp: initialize refused", "category", "quota", "limit", refusal.limit, "status", http.StatusTooManyRequests)
		writeJSON(w, http.StatusTooManyRequests, &jsonrpc.Response{ID: req.ID, Error: quotaError(refusal.limit, refusal.max,
			"this caller already holds %d legacy sessions (MaxSessionsPerCaller), each in use or past its handshake; end one (DELETE) or wait for one to expire before opening another", refusal.max)})
		return
	}
	h.log.Warn("mcphttp: initialize refused", "category", "overloaded", "limit", refusal.limit, "status", http.StatusServiceUnavailable)
	writeJSON(w, http.StatusServiceUnavailable, &jsonrpc.Response{ID: req.ID, Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
		"server overloaded: the server holds as many legacy sessions as it may (%d, MaxSessions), each in use or past its handshake; try again later", refusal.max).
		WithData(map[string]string{"reason": "overloaded"})})
}

// quotaError is the error of a request refused because its caller holds
// all it may of what limit bounds (mcp.CodeQuotaExceeded, 429 over HTTP).
func quotaError(limit string, max int, format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(mcp.CodeQuotaExceeded, "quota exceeded: "+format, args...).
		WithData(map[string]any{"reason": "quota", "limit": limit, "max": max})
}
