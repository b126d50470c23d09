package mcphttp

import (
	"context"
	"net/http"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// postInitialize opens a legacy session with the initialize request; its
// id goes out as Mcp-Session-Id with the (successful) response. A failed
// initialize leaves no session behind. Beyond the session limits it is
// refused (see admitSession and refuseInitialize).
func (h *Handler) postInitialize(w http.ResponseWriter, r *http.Request, req *jsonrpc.Request) {
	s, err := h.createSession(r)
	if err != nil {
		h.refuseInitialize(w, r, req, err)
		return
	}
	defer s.release()
	x := newExchange()
	s.ep.Handle(r.Context(), req, x.send)
	resp := x.run(r.Context(), w, replyOpts{
		sse: acceptsSSE(r.Header.Values("Accept")), status: legacyStatus, keepAlive: h.opts.KeepAlive, log: h.log,
		prepare: func(hd http.Header, first jsonrpc.Message) {
			if r, ok := first.(*jsonrpc.Response); !ok || r.Error == nil {
				hd.Set(hdrSessionID, s.id)
			}
		},
	})
	if resp == nil || resp.Error != nil {
		if h.sessions.remove(s) {
			s.end()
		}
		return
	}
	// The handshake timeout counts from here: the client has had its
	// answer, and owes notifications/initialized.
	s.mu.Lock()
	s.answered = time.Now()
	s.mu.Unlock()
}

// postLegacy serves a request or notification of a legacy session.
func (h *Handler) postLegacy(w http.ResponseWriter, r *http.Request, sid string, id jsonrpc.ID, m jsonrpc.Message, t *ticket) {
	s := h.session(w, r, sid, id)
	if s == nil {
		return
	}
	defer s.release()
	if v := r.Header.Get(hdrProtocolVersion); v != "" && protocol.ParseRevision(v).Era() != protocol.Legacy {
		h.log.Warn("mcphttp: request refused", "header", "MCP-Protocol-Version", "category", "unsupported", "status", http.StatusBadRequest)
		writeError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
			"invalid request: the MCP-Protocol-Version header names a revision this session does not speak")
		return
	}
	switch m := m.(type) {
	case *jsonrpc.Notification:
		if m.Method == protocol.NotificationReady {
			h.sessions.handshaken(s)
		}
		s.ep.Handle(r.Context(), m, nil)
		if m.Method == protocol.NotificationCancelled {
			// Only requestId matters: the endpoint cancels the call
			// whatever reason and _meta hold, so the exchange is
			// abandoned then too (requestId is filled even when another
			// member does not decode).
			var p protocol.CancelledNotificationParams
			_ = json.Unmarshal(m.Params, &p)
			if p.RequestID.IsValid() {
				s.abandon(p.RequestID.Key())
			}
		}
		w.WriteHeader(http.StatusAccepted)
	case *jsonrpc.Request:
		h.postCall(w, r, s, m, t)
	}
}

// postCall serves a request of a legacy session. The call's context does
// not end with the POST: a client that loses its stream after the first
// event may resume it (see resume.go), so only one that leaves before any
// event cancels the call. A call that goes on detached keeps the POST's
// admission ticket t until it ends.
func (h *Handler) postCall(w http.ResponseWriter, r *http.Request, s *session, m *jsonrpc.Request, t *ticket) {
	x := newExchange()
	key := m.ID.Key()
	s.track(key, x)
	ctx, cancel := context.WithCancel(context.WithoutCancel(r.Context()))
	s.ep.Handle(context.WithValue(ctx, closerKey{}, closerFor(x)), m, x.send)
	c := &callRun{h: h, s: s, x: x, w: w, sse: acceptsSSE(r.Header.Values("Accept"))}
	out, backlog := c.loop(r.Context())
	done := func() {
		if n := x.finish(); n > 0 {
			h.log.Warn("mcphttp: notifications dropped: the client did not read them in time", "dropped", n)
		}
		s.untrack(key, x)
		cancel()
		t.done()
	}
	if out == callDetached {
		t.keep()
		if s.detach(x, c.cs, backlog, done) {
			return
		}
		s.finishCallStream(c.cs)
	}
	done()
}

// postBatch serves a JSON-RPC batch in a legacy session that negotiated
// 2025-03-26, the one revision with batches: its responses come back as one
// JSON array, or as one event of a stream when its calls send messages
// first; a batch of notifications and responses only gets 202. In any
// other session the batch is refused with 400 and -32600. A batch's stream
// is not resumable: the client leaving cancels the batch's calls.
func (h *Handler) postBatch(w http.ResponseWriter, r *http.Request, sid string, b jsonrpc.Batch) {
	s := h.session(w, r, sid, jsonrpc.ID{})
	if s == nil {
		return
	}
	defer s.release()
	for _, it := range b { // a 2025-03-26 client may send its handshake's end in a batch
		if n, ok := it.Msg.(*jsonrpc.Notification); ok && n.Method == protocol.NotificationReady {
			h.sessions.handshaken(s)
		}
	}
	x := newExchange()
	x.serve(r.Context(), w, replyOpts{
		sse: acceptsSSE(r.Header.Values("Accept")), keepAlive: h.opts.KeepAlive, log: h.log,
		status: func(r *jsonrpc.Response) int { // only the refusal comes alone
			if r.Error != nil && !r.ID.IsValid() {
				return http.StatusBadRequest
			}
			return http.StatusOK
		},
		unanswerable: s.refuseQuestion,
	}, func() { s.ep.Handle(r.Context(), b, x.send) })
}

// serveGet opens a legacy session's stream of unsolicited messages
// (list_changed, resource updates): one at a time per session (409 for a
// second), until the client leaves or the session ends; with Last-Event-ID
// it resumes a stream instead (see resume). Every GET stream counts
// towards MaxSessionStreams (429 beyond), and none opens while descriptors
// are short (503, see descriptorsLow). Without a session id there is no
// stream to open: 405, as a modern server answers GET.
func (h *Handler) serveGet(w http.ResponseWriter, r *http.Request) {
	sid, ok := singleHeader(r.Header, hdrSessionID)
	if !ok || sid == "" {
		noSession(w, ok)
		return
	}
	if !acceptsSSE(r.Header.Values("Accept")) {
		writeError(w, http.StatusNotAcceptable, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: a GET stream is text/event-stream, which the Accept header refuses")
		return
	}
	s := h.session(w, r, sid, jsonrpc.ID{})
	if s == nil {
		return
	}
	defer s.release()
	lastID, ok := singleHeader(r.Header, "Last-Event-ID")
	if !ok {
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: more than one Last-Event-ID header")
		return
	}
	if h.descriptorsLow() {
		h.refuseForDescriptors(w, r, "", jsonrpc.ID{})
		return
	}
	if lastID != "" {
		h.resume(w, r, s, lastID)
		return
	}
	h.serveUnsolicited(w, r, s, newStreamID(getStreamPrefix), nil)
}

// serveDelete ends a legacy session: 204, and its id is 404 afterwards.
// Only the caller who opened the session may end it: anyone else gets the
// 404 of an unknown session, as for every other method (h.session).
func (h *Handler) serveDelete(w http.ResponseWriter, r *http.Request) {
	sid, ok := singleHeader(r.Header, hdrSessionID)
	if !ok || sid == "" {
		noSession(w, ok)
		return
	}
	s := h.session(w, r, sid, jsonrpc.ID{})
	if s == nil {
		return
	}
	s.release()
	if h.sessions.remove(s) {
		s.end()
	}
	w.WriteHeader(http.StatusNoContent)
}

// noSession answers a GET or DELETE that names no session (ok) or more
// than one (!ok).
func noSession(w http.ResponseWriter, ok bool) {
	if !ok {
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "invalid request: more than one Mcp-Session-Id header")
		return
	}
	w.Header().Set("Allow", http.MethodPost)
	writeError(w, http.StatusMethodNotAllowed, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
		"method not allowed: GET and DELETE serve legacy sessions and need their Mcp-Session-Id; 2026-07-28 requests are POSTed")
}
