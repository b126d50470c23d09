package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// request is one routed request: its params read once, its era decided,
// and the client's details taken from the session (legacy) or from the
// request itself (modern), never mixed.
type request struct {
	id      jsonrpc.ID
	method  string
	params  jsonx.Object // zero when the request had no params object
	meta    json.RawMessage
	metaObj jsonx.Object // meta's members, read once by route
	rev     protocol.Revision

	version    string
	clientInfo json.RawMessage
	clientCaps json.RawMessage
	logLevel   string // modern: the request's logLevel, "" when not set
	caller     *auth.Principal
	tool       *entry // a tools/call's tool, when routing looked it up (see routed)

	// Room for the members of params and of _meta, which have at most
	// four in the common requests: parsing them allocates nothing more.
	paramsBuf, metaBuf [4]jsonx.Member
}

// modern reports whether the request is served in the 2026-07-28 era.
func (r *request) modern() bool { return r.rev.Modern() }

// info returns what a tool handler may learn about the request.
func (r *request) info() *protocol.RequestInfo {
	era := protocol.Legacy
	if r.modern() {
		era = protocol.Modern
	}
	return &protocol.RequestInfo{
		Era:                era,
		Revision:           r.rev,
		ClientInfo:         r.clientInfo,
		ClientCapabilities: r.clientCaps,
		Meta:               r.meta,
		Caller:             r.caller,
	}
}

func invalidParams(format string, args ...any) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: "+format, args...)
}

// route reads a request's params, takes the caller from bound (see
// auth.WithPrincipal) or Options.Caller, and decides its era, checking a modern
// request in the documented order: required _meta keys (-32602), version
// (-32022), method (-32601). Capability checks (-32021) belong to the
// method or tool that needs the capability.
//
// A transport's check, when given, sees the request once its params are
// read and before anything is refused (see Routed); when it answers the
// request itself, route returns errAnswered and the request is dropped.
func (ss *session) route(req *jsonrpc.Request, bound context.Context, check func(*Routed) bool) (*request, method, *jsonrpc.Error) {
	r, err := ss.parse(req.Method, req.ID, req.Params, bound)
	if check != nil && !check(ss.routed(r, req.Params)) {
		return nil, method{}, errAnswered
	}
	if err != nil {
		return nil, method{}, err
	}
	if pv := r.metaObj.Get(protocol.MetaProtocolVersion); pv != nil {
		m, err := ss.routeModern(r, r.metaObj, pv)
		return r, m, err
	}
	m, err := ss.routeLegacy(r)
	return r, m, err
}

// parse reads a message's params and their _meta, and takes its caller
// from bound or Options.Caller. The request is returned even with an
// error (with the params read so far), for a transport's check.
func (ss *session) parse(name string, id jsonrpc.ID, params json.RawMessage, bound context.Context) (*request, *jsonrpc.Error) {
	r := &request{id: id, method: name, caller: ss.srv.opts.Caller}
	if bound != nil {
		// The caller an HTTP middleware authenticated takes the place of
		// the process's own.
		if p := auth.PrincipalFrom(bound); p != nil {
			r.caller = p
		}
	}
	if params == nil {
		return r, nil
	}
	obj, err := jsonx.ParseObjectInto(params, r.paramsBuf[:])
	if err != nil {
		return r, invalidParams("params must be an object")
	}
	r.params = obj
	if meta := obj.Get("_meta"); meta != nil && string(meta) != "null" {
		if meta[0] != '{' {
			// A probe flag or protocol version inside a _meta that is
			// not an object must not be silently missed.
			return r, invalidParams(`"_meta" must be an object`)
		}
		// Copied: a slice of the line would keep a large message alive
		// for as long as the call runs.
		r.meta = append(json.RawMessage(nil), meta...)
		r.metaObj, _ = jsonx.ParseObjectInto(r.meta, r.metaBuf[:]) // the one parse of _meta
	}
	return r, nil
}

func (ss *session) routeModern(r *request, meta jsonx.Object, pv json.RawMessage) (method, *jsonrpc.Error) {
	if pv[0] != '"' || json.Unmarshal(pv, &r.version) != nil {
		return method{}, invalidParams("_meta %q must be a string", protocol.MetaProtocolVersion)
	}
	caps := meta.Get(protocol.MetaClientCapabilities)
	if caps == nil {
		return method{}, invalidParams("missing required _meta key %q", protocol.MetaClientCapabilities)
	}
	if caps[0] != '{' {
		return method{}, invalidParams("_meta %q must be an object", protocol.MetaClientCapabilities)
	}
	if modernRev(r.version) == 0 {
		return method{}, jsonrpc.NewError(jsonrpc.CodeUnsupportedProtocolVersion, "unsupported protocol version %s", clip.Quote(r.version)).
			WithData(map[string]any{"supported": supportedVersions, "requested": clip.String(r.version)})
	}
	m, ok := ss.srv.method(r.method)
	if !ok || !m.modern {
		return method{}, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found in protocol version %s: %s", r.version, clip.String(r.method))
	}
	r.rev = modernRev(r.version)
	if err := ss.srv.serves(m, r); err != nil {
		return method{}, err
	}
	r.clientCaps = caps
	if ci := meta.Get(protocol.MetaClientInfo); ci != nil && ci[0] == '{' {
		r.clientInfo = ci
	}
	if ll := meta.Get(protocol.MetaLogLevel); ll != nil {
		var level string
		if ll[0] != '"' || json.Unmarshal(ll, &level) != nil {
			return method{}, invalidParams("_meta %q must be a string", protocol.MetaLogLevel)
		}
		if _, ok := parseLevel(level); !ok {
			return method{}, invalidParams("unknown log level %s in _meta %q", clip.Quote(level), protocol.MetaLogLevel)
		}
		r.logLevel = level
	}
	return m, nil
}

func (ss *session) routeLegacy(r *request) (method, *jsonrpc.Error) {
	if r.method == protocol.MethodDiscover {
		return method{}, invalidParams("server/discover needs params._meta with %q and %q", protocol.MetaProtocolVersion, protocol.MetaClientCapabilities)
	}
	m, ok := ss.srv.method(r.method)
	if !ok || !m.legacy {
		return method{}, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: %s", clip.String(r.method))
	}
	if ss.stateless {
		return method{}, invalidParams("this endpoint serves only stateless requests: %s needs params._meta[%q] (or a session opened with initialize)",
			clip.String(r.method), protocol.MetaProtocolVersion)
	}
	ss.mu.Lock()
	r.rev, r.version, r.clientInfo, r.clientCaps = ss.rev, ss.version, ss.clientInfo, ss.clientCaps
	ss.mu.Unlock()
	if !m.beforeInit && r.rev == 0 {
		return method{}, invalidParams("no session: send initialize before %s, or use protocol version %s with params._meta[%q]",
			r.method, protocol.Revision20260728.String(), protocol.MetaProtocolVersion)
	}
	if err := ss.srv.serves(m, r); err != nil {
		return method{}, err
	}
	return m, nil
}

// serves refuses, as an unknown method, a method whose capability the
// server does not declare (resources/list on a server without resources).
func (s *Server) serves(m method, r *request) *jsonrpc.Error {
	if m.needs == nil || m.needs(s) {
		return nil
	}
	return jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: %s (this server does not declare the capability)", clip.String(r.method))
}
