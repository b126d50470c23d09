package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Routed is a request or notification as the server read it, shown to a
// transport's check before it is served (see Endpoint.HandleRouted): what
// a transport that carries parts of a message outside its body (the
// routing headers of the 2026-07-28 Streamable HTTP transport) compares
// them with. It is read once, by the server; the check must not keep it
// or change it.
type Routed struct {
	// Method is the message's method.
	Method string
	// Era is the era the message's _meta asks for: Modern when it names a
	// protocol version (supported or not), Legacy otherwise.
	Era protocol.Era
	// Params are the message's params as sent, nil when absent; Meta is
	// their _meta, nil when absent or not an object.
	Params, Meta json.RawMessage
	// Version is _meta's protocolVersion as sent, nil when absent.
	Version json.RawMessage
	// Named is the params member the method names its target by ("name"
	// for tools/call and prompts/get, "uri" for resources/read, "taskId"
	// for the tasks methods), empty for a method without one; Name is its
	// value as sent, nil when absent.
	Named string
	Name  json.RawMessage
	// Arguments are a tools/call's arguments as sent, nil when absent.
	Arguments json.RawMessage
	// Headers are the x-mcp-header annotations of the tool a tools/call
	// names, as admitted at registration (sorted by pointer), nil when it
	// has none, or when no tool of that name exists for the caller (a tool
	// whose scopes the caller lacks does not: its headers tell nothing,
	// and the call is answered as for an unknown tool).
	Headers []header.Annotation
}

// errAnswered is route's answer for a request a transport's check
// answered itself: nothing more is sent for it.
var errAnswered = jsonrpc.NewError(jsonrpc.CodeInternalError, "answered by the transport")

// HandleRouted is Handle with a check of every request and notification
// once the server has read it, before it is refused or served (a batch or
// a response is handled as Handle does, unchecked). check runs on the
// caller's goroutine; when it returns false, the transport has answered
// the message itself (or will hand it elsewhere) and the endpoint drops it:
// nothing is sent for it and no handler runs. An HTTP transport checks the
// 2026-07-28 routing headers there, on the request as routed, instead of
// reading the body a second time.
func (e *Endpoint) HandleRouted(ctx context.Context, m jsonrpc.Message, check func(*Routed) bool, send func(jsonrpc.Message)) {
	if runHere := e.handle(ctx, m, check, send); runHere != nil {
		runHere() // outside e.mu: Close must not wait for the call to end
	}
}

// routed describes r for a transport's check. A tools/call's tool is
// looked up here, once, for its header annotations and its handler.
func (ss *session) routed(r *request, params json.RawMessage) *Routed {
	rt := &Routed{Method: r.method, Era: protocol.Legacy, Params: params, Meta: r.meta}
	if v := r.metaObj.Get(protocol.MetaProtocolVersion); v != nil {
		rt.Era, rt.Version = protocol.Modern, v
	}
	m, _ := ss.srv.method(r.method)
	if rt.Named = m.named; rt.Named != "" {
		rt.Name = r.params.Get(m.named)
	}
	if m.target != targetTool {
		return rt
	}
	rt.Arguments = r.params.Get("arguments")
	if name := paramString(r.params, "name"); name != "" {
		if e, ok := toolList.get(ss.srv, name); ok {
			r.tool = e
			if r.caller.HasScopes(e.tool.Scopes...) {
				rt.Headers = e.contract.Headers()
			}
		}
	}
	return rt
}

// checkClosed runs a transport's check on a request or notification a
// closed endpoint refuses, as an open one would before it refuses
// anything; it reports whether the endpoint still answers it.
func (ss *session) checkClosed(m jsonrpc.Message, bound context.Context, check func(*Routed) bool) bool {
	var r *request
	var params json.RawMessage
	switch m := m.(type) {
	case *jsonrpc.Request:
		r, _ = ss.parse(m.Method, m.ID, m.Params, bound)
		params = m.Params
	case *jsonrpc.Notification:
		r, _ = ss.parse(m.Method, jsonrpc.ID{}, m.Params, bound)
		params = m.Params
	default:
		return true
	}
	return check(ss.routed(r, params))
}

// notifyChecked handles a notification after a transport's check.
func (ss *session) notifyChecked(n *jsonrpc.Notification, bound context.Context, check func(*Routed) bool) {
	if check != nil {
		r, _ := ss.parse(n.Method, jsonrpc.ID{}, n.Params, bound)
		if !check(ss.routed(r, n.Params)) {
			return
		}
	}
	ss.notifyBound(n, bound)
}
