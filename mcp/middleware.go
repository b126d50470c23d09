package mcp

import (
	"context"
	"fmt"
	"runtime/debug"
	"unsafe"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Middleware wraps the server's handling of every request and
// notification a client sends, whatever the method, era or transport
// (and sees the tool list changes it tells clients of: see Request):
// given the handler that comes after it, it returns one that may inspect
// the request, change its params, answer it itself, refuse it, or call
// next and inspect or change what it answered. Give them to NewServer in
// Options.Middleware; the first is outermost.
//
// A middleware runs once the request is routed (its era, revision,
// client and caller known, its _meta's required keys checked) and before
// the method's own checks (an unknown tool, a missing capability), on the
// goroutine that runs the method: the read loop's for cheap methods
// (ping, logging/setLevel, notifications), a worker's for the others, so
// it must not block long. A server with no middleware pays nothing for
// the feature.
type Middleware func(next Handler) Handler

// Handler handles one request or notification: a request's result, as
// the client gets it (2026-07-28's envelope filled in), or an error (a
// *jsonrpc.Error is sent as it is; any other is -32603); a notification's
// result is nil and its error is logged at debug level only.
type Handler func(ctx context.Context, req *Request) (json.RawMessage, error)

// Request is a request or a notification from a client, as a Middleware
// sees it. A middleware may replace Params (the server reads them again,
// and a tools/call's tool is looked up again by the name they give); the
// other fields describe the request as it was routed and changing them
// changes nothing.
//
// The chain also sees each notifications/tools/list_changed the server
// is about to send, once per client it goes to (a legacy session, or a
// 2026-07-28 listen stream that asked for it), with FromServer true, the
// client's era, revision and caller (the one that initialized the
// session, or opened the stream), and ChangedTools: calling next sends
// it, returning without calling next keeps it from that client (a tool
// filter's way to tell only the callers a change concerns). Its Params
// are sent as they were.
type Request struct {
	// RequestInfo is the era, revision, client and caller, as handlers
	// get them (RequestFrom).
	protocol.RequestInfo
	// Method is the method, as sent.
	Method string
	// ID is a request's id; invalid (ID.IsValid false) for a
	// notification.
	ID jsonrpc.ID
	// Params are the params object as sent, nil when absent.
	Params json.RawMessage
	// Target is what the request names: the tool of tools/call, the
	// prompt of prompts/get, the resource of resources/read and
	// resources/(un)subscribe, the task of the tasks methods; "" for a
	// method that names nothing.
	Target string

	ss     *session
	c      *call
	r      *request
	m      method
	note   *jsonrpc.Notification // set for a notification
	out    func()                // sends a notification from the server (see FromServer)
	change *toolChange           // what a tools/list_changed from the server says changed
}

// IsNotification reports whether the request is a notification: it gets
// no answer.
func (r *Request) IsNotification() bool { return r.note != nil }

// FromServer reports whether the request is a notification the server is
// about to send the client (see Request), not one the client sent.
func (r *Request) FromServer() bool { return r.out != nil }

// ChangedTools is what a notifications/tools/list_changed from the server
// (FromServer) says changed: the tools added to the list or removed from
// it, in their 2026-07-28 form, with known true; known is false when the
// server cannot tell which (a change another instance of a deployment
// made, Options.Broker), and for any other request. A tool filter must
// then let the notification through.
func (r *Request) ChangedTools() (tools []*protocol.Tool, known bool) {
	if r.change == nil || !r.change.known {
		return nil, false
	}
	return r.change.tools, true
}

// toolChange is what changed in the tool list, for ChangedTools.
type toolChange struct {
	tools []*protocol.Tool
	known bool
}

// outgoing passes n, a notification the server is about to send to a
// client whose caller and revision are given, through the middleware;
// send sends it, when the chain reaches its end.
func (ss *session) outgoing(n *jsonrpc.Notification, caller *auth.Principal, rev protocol.Revision, change *toolChange, send func()) {
	era := protocol.Legacy
	if rev.Modern() {
		era = protocol.Modern
	}
	req := &Request{RequestInfo: protocol.RequestInfo{Era: era, Revision: rev, Caller: caller},
		Method: n.Method, Params: n.Params, ss: ss, note: n, out: send, change: change}
	defer func() {
		if p := recover(); p != nil {
			ss.log.Error("mcp: a middleware panicked on a notification to the client", "method", n.Method,
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
		}
	}()
	if _, err := ss.srv.chain(context.Background(), req); err != nil {
		ss.log.Debug("mcp: a middleware refused a notification to the client", "method", n.Method, "error", err.Error())
	}
}

// chain builds the one handler the server's middleware wraps around
// serve, nil when there is none.
func chain(mws []Middleware) Handler {
	if len(mws) == 0 {
		return nil
	}
	h := Handler(serve)
	for i := len(mws) - 1; i >= 0; i-- {
		if h = mws[i](h); h == nil {
			panic(fmt.Sprintf("mcp: Options.Middleware[%d] returned a nil Handler", i))
		}
	}
	return h
}

// newRequest describes r, a routed request of method m, for the
// middleware.
func (ss *session) newRequest(c *call, r *request, m method, params json.RawMessage) *Request {
	req := &Request{RequestInfo: *r.info(), Method: r.method, ID: r.id, Params: params, ss: ss, c: c, r: r, m: m}
	switch m.target {
	case targetTool, targetPrompt:
		req.Target = paramString(r.params, "name")
	case targetResource:
		req.Target = paramString(r.params, "uri")
	case targetTask:
		req.Target = paramString(r.params, "taskId")
	}
	return req
}

// serve is the end of the middleware chain: the method itself, its
// result encoded as run encodes it.
func serve(ctx context.Context, req *Request) (json.RawMessage, error) {
	ss, r := req.ss, req.r
	if req.out != nil {
		req.out()
		return nil, nil
	}
	if req.note != nil {
		n := req.note
		if !sameBytes(req.Params, n.Params) {
			n = &jsonrpc.Notification{Method: n.Method, Params: req.Params}
		}
		ss.notified(n)
		return nil, nil
	}
	if !sameBytes(req.Params, r.params.Raw()) {
		obj, err := jsonx.Object{}, error(nil)
		if req.Params != nil {
			if !json.Valid(req.Params) {
				return nil, invalidParams("the params a middleware gave are not JSON")
			}
			obj, err = jsonx.ParseObject(req.Params)
		}
		if err != nil {
			return nil, invalidParams("the params a middleware gave are not a JSON object")
		}
		r.params, r.tool = obj, nil
	}
	result, err := req.m.handle(ctx, ss, req.c, r)
	if req.c.ob != nil {
		req.c.observeResult(result)
	}
	if err != nil {
		return nil, err
	}
	switch v := result.(type) {
	case *jsonrpc.Response:
		if v.Error != nil {
			return nil, v.Error
		}
		return v.Result, nil
	case json.RawMessage:
		return v, nil
	}
	ss.srv.fillEnvelope(result, r)
	raw, err := json.Marshal(result)
	if err != nil {
		return nil, fmt.Errorf("encoding the result: %w", err)
	}
	return raw, nil
}

// runChained is run through the middleware.
func (ss *session) runChained(m method, c *call, r *request) *jsonrpc.Response {
	raw, err := ss.srv.chain(c, ss.newRequest(c, r, m, r.params.Raw()))
	if err != nil {
		return &jsonrpc.Response{ID: r.id, Error: eraError(jsonrpc.WireError(err), r.rev)}
	}
	if raw == nil {
		return errorResponse(r.id, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: a middleware answered %s with no result", r.method))
	}
	return &jsonrpc.Response{ID: r.id, Result: raw}
}

// notifyChained hands a client's notification to the middleware.
func (ss *session) notifyChained(n *jsonrpc.Notification, bound context.Context) {
	r, _ := ss.parse(n.Method, jsonrpc.ID{}, n.Params, bound)
	m, _ := ss.srv.method(n.Method)
	req := ss.newRequest(nil, r, m, n.Params)
	req.note = n
	ctx := bound
	if ctx == nil {
		ctx = context.Background()
	}
	if _, err := ss.srv.chain(ctx, req); err != nil {
		ss.log.Debug("mcp: a middleware refused a notification", "method", n.Method, "error", err.Error())
	}
}

// sameBytes reports whether a and b are the same slice (not merely equal
// bytes): whether a middleware left the params as they were.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || unsafe.SliceData(a) == unsafe.SliceData(b))
}

// Tool returns the descriptor of the tool a tools/call names, as the
// server lists it to the caller in 2026-07-28 (nil when the request is
// not a tools/call, or names no tool the caller may see), for a
// middleware whose policy depends on the tool: its annotations, its
// _meta.
func (r *Request) Tool() *protocol.Tool {
	if r.note != nil || r.m.target != targetTool || r.Target == "" {
		return nil
	}
	e, ok := toolList.get(r.ss.srv, r.Target)
	if !ok || !r.Caller.HasScopes(e.tool.Scopes...) {
		return nil
	}
	t := e.wireTool(protocol.Revision20260728)
	return &t
}

// Encode encodes result, a result of package protocol (such as a
// *protocol.CallToolResult), as the answer to this request: on
// 2026-07-28 with resultType, the server's identity and, for a cacheable
// method, the configured cache hints filled in where result leaves them
// empty, as the server's own results get them. A middleware that answers
// a request itself answers with it.
func (r *Request) Encode(result any) (json.RawMessage, error) {
	if r.note != nil {
		return nil, nil
	}
	r.ss.srv.fillEnvelope(result, r.r)
	return json.Marshal(result)
}
