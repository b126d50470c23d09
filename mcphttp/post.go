package mcphttp

import (
	"bytes"
	"errors"
	"net/http"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
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
		if mayBeModern(r, sid, m.Params) && h.postModern(w, r, sid, m) {
			return
		}
		if m.Method == protocol.MethodInitialize {
			h.postInitialize(w, r, m)
		} else {
			h.postLegacy(w, r, sid, m.ID, m, t)
		}
	case *jsonrpc.Notification:
		if !mayBeModern(r, sid, m.Params) || !h.postModern(w, r, sid, m) {
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
		if params != nil && jsonx.At(params, metaVersion) != nil {
			return true
		}
	}
	return false
}

// metaVersion is the path of a message's protocol version in its params,
// metaVersionKey the key as written.
var (
	metaVersion    = []string{"_meta", protocol.MetaProtocolVersion}
	metaVersionKey = []byte(`"` + protocol.MetaProtocolVersion + `"`)
)

// isModern decides the era of a request or notification as the server
// routed it: modern when its params._meta holds the protocol version, or,
// without a session id, when the MCP-Protocol-Version header names a
// modern revision (so that a modern request missing its _meta keys gets
// the modern -32602).
func (h *Handler) isModern(r *http.Request, sid string, rt *mcp.Routed) bool {
	return rt.Era == protocol.Modern || modernHeader(r, sid)
}

// modernHeader reports whether a message without a session id comes with
// an MCP-Protocol-Version header that names a modern revision.
func modernHeader(r *http.Request, sid string) bool {
	return sid == "" && protocol.ParseRevision(r.Header.Get(hdrProtocolVersion)).Modern()
}

// mayBeModern reports, without reading the params, whether isModern may
// find the message modern: unless the params name the protocol version's
// _meta key as written (or hold an escape, which could spell it), the
// message is of the legacy era, and it goes to its session without the
// stateless endpoint reading it first.
func mayBeModern(r *http.Request, sid string, params []byte) bool {
	return modernHeader(r, sid) || bytes.IndexByte(params, '\\') >= 0 || bytes.Contains(params, metaVersionKey)
}

// postModern hands a request or notification to the shared stateless
// endpoint, which reads it once: when it is of the 2026-07-28 era (see
// isModern), it is served there after the checks of admitModern, and
// postModern reports true; otherwise the endpoint drops it unanswered and
// postModern reports false, for the caller to serve it in the legacy era.
// Mcp-Session-Id is ignored.
func (h *Handler) postModern(w http.ResponseWriter, r *http.Request, sid string, m jsonrpc.Message) (modern bool) {
	req, isReq := m.(*jsonrpc.Request)
	ctx := r.Context()
	var sse bool
	check := func(rt *mcp.Routed) bool {
		if modern = h.isModern(r, sid, rt); !modern {
			return false
		}
		return h.admitModern(w, r, rt, req, sse)
	}
	if !isReq {
		admitted := false
		h.stateless.HandleRouted(ctx, m, func(rt *mcp.Routed) bool {
			admitted = check(rt)
			return admitted
		}, nil)
		if admitted {
			w.WriteHeader(http.StatusAccepted)
		}
		return modern
	}
	sse = acceptsSSE(r.Header.Values("Accept"))
	x := newExchange()
	x.serve(ctx, w, replyOpts{
		sse: sse, status: statusOf,
		keepAlive: h.opts.KeepAlive, log: h.log,
	}, func() {
		h.stateless.HandleRouted(ctx, req, func(rt *mcp.Routed) bool {
			x.answered = !check(rt)
			return !x.answered
		}, x.send)
	})
	return modern
}

// admitModern checks a 2026-07-28 request (nil for a notification) as
// routed, before the endpoint serves it: its headers against its body
// (see checkParity), and that a subscriptions/listen can be answered with
// a stream. A message it refuses is answered here, and it reports false.
func (h *Handler) admitModern(w http.ResponseWriter, r *http.Request, rt *mcp.Routed, req *jsonrpc.Request, sse bool) bool {
	var id jsonrpc.ID
	if req != nil {
		id = req.ID
	}
	if herr := checkParity(r.Header, rt, req != nil); herr != nil {
		h.log.Warn("mcphttp: request refused", "header", herr.name, "category", herr.category, "status", http.StatusBadRequest)
		writeError(w, http.StatusBadRequest, id, jsonrpc.CodeHeaderMismatch, herr.message())
		return false
	}
	if req == nil || rt.Method != protocol.MethodSubscriptionsListen {
		return true
	}
	if !sse {
		writeError(w, http.StatusNotAcceptable, id, jsonrpc.CodeInvalidRequest,
			"invalid request: subscriptions/listen answers with text/event-stream, which the Accept header refuses")
		return false
	}
	if h.descriptorsLow() { // a listen holds its connection for as long as it lasts
		h.refuseForDescriptors(w, r, rt.Method, id)
		return false
	}
	return true
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
