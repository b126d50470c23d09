package mcphttp

import (
	"context"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/internal/overload"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// The GET streams of a legacy session (failure 5 of the review: thousands
// of GETs resuming one POST stream were all held at once, and exhausted the
// process's file descriptors). A session holds at most MaxSessionStreams
// of them, its stream of unsolicited messages and its resumptions together,
// and a POST stream is followed by one resumption at a time: a new one
// replaces the one before, which ends. No new stream opens while
// descriptors are short (see descriptorsLow).

// limitSessionStreams names the bound in mcp.Overload and the quota error.
const limitSessionStreams = "MaxSessionStreams"

// replaceWait bounds how long a resumption that replaced another waits for
// a place among the session's streams, the one it replaced ending: that
// ends at once unless it is stuck writing to a client that stopped reading.
const replaceWait = 2 * time.Second

// resumption is a GET following one POST stream. replaced is closed when a
// later GET resumes the same stream, telling this one to end: the later one
// replays from its own Last-Event-ID, so nothing is lost by ending.
type resumption struct {
	replaced chan struct{}
}

// claimStream takes one of the session's places for a GET stream; false
// when all MaxSessionStreams are taken. Give it back with releaseStream.
func (s *session) claimStream(max int) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.getStreams >= max {
		return false
	}
	s.getStreams++
	return true
}

// releaseStream gives a place back and wakes whoever waits for one.
func (s *session) releaseStream() {
	s.mu.Lock()
	s.getStreams--
	if s.streamFreed != nil {
		close(s.streamFreed)
		s.streamFreed = nil
	}
	s.mu.Unlock()
}

// awaitStream takes a place for a resumption that replaced another: at
// once if one is free, else when one frees within replaceWait (ok false
// after that). It gives up, stopped, when ctx or the session ends, or when
// stop closes (this resumption was replaced in turn).
func (s *session) awaitStream(ctx context.Context, max int, stop <-chan struct{}) (ok, stopped bool) {
	timeout := time.NewTimer(replaceWait)
	defer timeout.Stop()
	for {
		s.mu.Lock()
		if s.getStreams < max {
			s.getStreams++
			s.mu.Unlock()
			return true, false
		}
		if s.streamFreed == nil {
			s.streamFreed = make(chan struct{})
		}
		freed := s.streamFreed
		s.mu.Unlock()
		select {
		case <-freed:
		case <-stop:
			return false, true
		case <-s.ended:
			return false, true
		case <-ctx.Done():
			return false, true
		case <-timeout.C:
			return false, false
		}
	}
}

// takeResumption makes the caller the one resumption following POST stream
// stream, telling the one before, if any, to end. It reports whether it
// replaced one. Call dropResumption with what it returns at the end.
func (s *session) takeResumption(stream string) (me *resumption, replacedOne bool) {
	me = &resumption{replaced: make(chan struct{})}
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.resumers == nil {
		s.resumers = map[string]*resumption{}
	}
	old := s.resumers[stream]
	s.resumers[stream] = me
	if old != nil {
		close(old.replaced) // only the taker that removed old from the map closes it
	}
	return me, old != nil
}

// dropResumption forgets me, unless a later resumption replaced it.
func (s *session) dropResumption(stream string, me *resumption) {
	s.mu.Lock()
	if s.resumers[stream] == me {
		delete(s.resumers, stream)
	}
	s.mu.Unlock()
}

// tooManyStreams answers a GET beyond MaxSessionStreams: 429 with the
// quota error. There is no Retry-After: the streams that hold the places
// are the client's own, and end when it closes them.
func (h *Handler) tooManyStreams(w http.ResponseWriter, r *http.Request) {
	max := h.opts.MaxSessionStreams
	overload.Report(r.Context(), h.srv, limitSessionStreams, "", mcp.TransportHTTP)
	h.log.Warn("mcphttp: stream refused", "category", "quota", "limit", limitSessionStreams, "status", http.StatusTooManyRequests)
	writeJSON(w, http.StatusTooManyRequests, &jsonrpc.Response{Error: quotaError(limitSessionStreams, max,
		"this session already has %d GET streams open (MaxSessionStreams), its stream of unsolicited messages and resumptions together; close one before opening another", max)})
}

// replacedEarly answers a resumption that a later GET for the same stream
// replaced before it began: 409, as for a second stream of unsolicited
// messages.
func replacedEarly(w http.ResponseWriter) {
	writeError(w, http.StatusConflict, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
		"invalid request: a later GET resumed the same stream, which is followed by one GET at a time")
}
