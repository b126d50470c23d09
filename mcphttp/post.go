package mcphttp

import (
	"errors"
	"net/http"

	"github.com/mcpwire/mcpwire/header"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Header names this package reads or writes.
const (
	hdrSessionID       = "Mcp-Session-Id"
	hdrProtocolVersion = "Mcp-Protocol-Version" // MCP-Protocol-Version, canonicalized
	hdrMethod          = "Mcp-Method"
	hdrName            = "Mcp-Name"
	hdrParamPrefix     = "Mcp-Param-"
)

// servePost reads one JSON-RPC message and routes it (see the package
// documentation).
func (h *Handler) servePost(w http.ResponseWriter, r *http.Request) {
	if r.ContentLength > h.opts.MaxBodyBytes {
		h.tooLarge(w)
		return
	}
	t := h.admission.newTicket()
	defer t.release()
	body, ok := h.readBody(w, r, t)
	if !ok {
		return
	}
	msg, err := jsonrpc.Decode(body)
	if err != nil {
		var de *jsonrpc.DecodeError
		if !errors.As(err, &de) {
			de = &jsonrpc.DecodeError{Err: jsonrpc.NewError(jsonrpc.CodeParseError, "parse error: %v", err)}
		}
		writeJSON(w, http.StatusBadRequest, de.Response())
		return
	}
	var id jsonrpc.ID // the request's, for the errors answered here
	if req, isReq := msg.(*jsonrpc.Request); isReq {
		id = req.ID
	}
	if !t.admit() {
		h.overloaded(w, r, id, methodOf(msg), limitRequests)
		return
	}
	if h.isClosed() {
		writeError(w, http.StatusServiceUnavailable, id, jsonrpc.CodeInternalError, "server shutting down: the handler is closed")
		return
	}
	sid, ok := singleHeader(r.Header, hdrSessionID)
	if !ok {
		writeError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest, "invalid request: more than one Mcp-Session-Id header")
		return
	}
	switch m := msg.(type) {
	case jsonrpc.Batch:
		if sid == "" {
			writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
				"invalid request: a batch is served only in a legacy session that negotiated 2025-03-26; POST one message at a time")
			return
		}
		if hasModern(m) {
			writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
				"invalid request: a batch holds a 2026-07-28 message (params._meta names its protocol version); 2026-07-28 messages are POSTed one at a time, with their headers")
			return
		}
		h.postBatch(w, r, sid, m)
	case *jsonrpc.Response:
		h.postResponse(w, r, sid, m)
	case *jsonrpc.Request:
		switch v := viewParams(m.Params); {
		case h.isModern(r, sid, v):
			h.postModern(w, r, m.Method, v, m)
		case m.Method == protocol.MethodInitialize:
			h.postInitialize(w, r, m)
		default:
			h.postLegacy(w, r, sid, m.ID, m, t)
		}
	case *jsonrpc.Notification:
		if v := viewParams(m.Params); h.isModern(r, sid, v) {
			h.postModern(w, r, m.Method, v, m)
		} else {
			h.postLegacy(w, r, sid, jsonrpc.ID{}, m, t)
		}
	}
}

func (h *Handler) tooLarge(w http.ResponseWriter) {
	h.log.Warn("mcphttp: request refused", "category", "body too large", "limit", h.opts.MaxBodyBytes, "status", http.StatusRequestEntityTooLarge)
	w.Header().Set("Connection", "close")
	writeError(w, http.StatusRequestEntityTooLarge, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
		"invalid request: the body is larger than the server accepts")
}

// hasModern reports whether a batch holds a 2026-07-28 request or
// notification. Such a message is refused rather than served in the
// batch's legacy session: its era has no batches, and its headers
// (MCP-Protocol-Version, Mcp-Method, Mcp-Name, Mcp-Param-*) would go
// unchecked, since they describe one message per POST.
func hasModern(b jsonrpc.Batch) bool {
	for _, it := range b {
		var params []byte
		switch m := it.Msg.(type) {
		case *jsonrpc.Request:
			params = m.Params
		case *jsonrpc.Notification:
			params = m.Params
		}
		if params != nil && viewParams(params).meta.Get(protocol.MetaProtocolVersion) != nil {
			return true
		}
	}
	return false
}

// isModern decides the era of a request or notification: modern when its
// params._meta holds the protocol version, or, without a session id, when
// the MCP-Protocol-Version header names a modern revision (so that a
// modern request missing its _meta keys gets the modern -32602).
func (h *Handler) isModern(r *http.Request, sid string, v paramsView) bool {
	if v.meta.Get(protocol.MetaProtocolVersion) != nil {
		return true
	}
	return sid == "" && protocol.ParseRevision(r.Header.Get(hdrProtocolVersion)).Modern()
}

// postModern serves a 2026-07-28 request or notification on the shared
// stateless endpoint, after the header parity checks. Mcp-Session-Id is
// ignored.
func (h *Handler) postModern(w http.ResponseWriter, r *http.Request, method string, v paramsView, m jsonrpc.Message) {
	req, isReq := m.(*jsonrpc.Request)
	// A tool the caller may not see has no annotations for it: its
	// headers tell nothing, and the endpoint answers the call.
	annotations := func(name string) ([]header.Annotation, bool) { return h.srv.HeaderAnnotationsFor(r.Context(), name) }
	if herr := checkParityOf(r.Header, method, v, isReq, annotations); herr != nil {
		var id jsonrpc.ID
		if isReq {
			id = req.ID
		}
		h.log.Warn("mcphttp: request refused", "header", herr.name, "category", herr.category, "status", http.StatusBadRequest)
		writeError(w, http.StatusBadRequest, id, jsonrpc.CodeHeaderMismatch, herr.message())
		return
	}
	if !isReq {
		h.stateless.Handle(r.Context(), m, nil)
		w.WriteHeader(http.StatusAccepted)
		return
	}
	sse := acceptsSSE(r.Header.Values("Accept"))
	if method == protocol.MethodSubscriptionsListen {
		if !sse {
			writeError(w, http.StatusNotAcceptable, req.ID, jsonrpc.CodeInvalidRequest,
				"invalid request: subscriptions/listen answers with text/event-stream, which the Accept header refuses")
			return
		}
		if h.descriptorsLow() { // a listen holds its connection for as long as it lasts
			h.refuseForDescriptors(w, r, method, req.ID)
			return
		}
	}
	x := newExchange()
	x.serve(r.Context(), w, replyOpts{
		sse: sse, status: statusOf,
		keepAlive: h.opts.KeepAlive, log: h.log,
	}, func() { h.stateless.Handle(r.Context(), req, x.send) })
}

// postResponse delivers the client's answer to a request the server sent
// it in a legacy session.
func (h *Handler) postResponse(w http.ResponseWriter, r *http.Request, sid string, m *jsonrpc.Response) {
	if sid == "" {
		writeError(w, http.StatusBadRequest, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest,
			"invalid request: a response is accepted only within a legacy session (Mcp-Session-Id); 2026-07-28 requests are never answered by the client")
		return
	}
	s := h.session(w, r, sid, jsonrpc.ID{})
	if s == nil {
		return
	}
	defer s.release()
	s.ep.Handle(r.Context(), m, nil)
	w.WriteHeader(http.StatusAccepted)
}
