package mcp

import (
	"context"
	"fmt"
	"runtime/debug"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// method describes one request method: everything checked before its
// handler runs lives here.
type method struct {
	// handle runs the method and returns its result (marshalled unless it
	// is already json.RawMessage) or an error.
	handle func(ctx context.Context, ss *session, c *call, r *request) (any, error)
	// legacy and modern tell which eras define the method.
	legacy, modern bool
	// inline methods are cheap and run on the read loop.
	inline bool
	// long methods (subscriptions) run on their own goroutine outside the
	// concurrency limit, since they last until cancelled.
	long bool
	// beforeInit legacy methods may be called before initialize.
	beforeInit bool
}

// methods is the one method table.
var methods map[string]method

func init() {
	methods = map[string]method{
		"initialize":           {handle: handleInitialize, legacy: true, inline: true, beforeInit: true},
		"ping":                 {handle: handlePing, legacy: true, inline: true, beforeInit: true},
		"logging/setLevel":     {handle: handleSetLevel, legacy: true, inline: true},
		"server/discover":      {handle: handleDiscover, modern: true, inline: true},
		"tools/list":           {handle: handleToolsList, legacy: true, modern: true, inline: true},
		"tools/call":           {handle: handleToolsCall, legacy: true, modern: true},
		"subscriptions/listen": {handle: handleListen, modern: true, long: true},
	}
}

// dispatch answers one request through respond, exactly once.
func (ss *session) dispatch(req *jsonrpc.Request, respond responder) {
	c, ok := ss.track(req.ID, respond)
	if !ok {
		respond(errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"invalid request: id %s is already in use by a request in flight", req.ID)))
		return
	}
	r, m, rerr := ss.route(req)
	if rerr != nil {
		c.finish(errorResponse(req.ID, rerr))
		return
	}
	c.req = r
	switch {
	case m.inline:
		c.finish(ss.run(m, c, r))
	case m.long:
		ss.wg.Add(1)
		go func() {
			defer ss.wg.Done()
			c.finish(ss.run(m, c, r))
		}()
	default:
		limit := int64(ss.srv.opts.MaxConcurrentCalls + ss.srv.opts.MaxQueuedCalls)
		if ss.pending.Add(1) > limit {
			ss.pending.Add(-1)
			c.finish(errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInternalError,
				"server overloaded: more than %d requests in flight", limit).WithData(map[string]string{"reason": "overloaded"})))
			return
		}
		ss.wg.Add(1)
		go ss.runAsync(m, c, r)
	}
}

// runAsync runs a call on its own goroutine once a handler slot is free.
func (ss *session) runAsync(m method, c *call, r *request) {
	defer ss.wg.Done()
	defer ss.pending.Add(-1)
	select {
	case ss.slots <- struct{}{}:
	case <-c.ctx.Done():
		c.finish(errorResponse(r.id, context.Cause(c.ctx)))
		return
	}
	defer func() { <-ss.slots }()
	c.finish(ss.run(m, c, r))
}

// run calls the method's handler, turning a panic into -32603.
func (ss *session) run(m method, c *call, r *request) (resp *jsonrpc.Response) {
	defer func() {
		if p := recover(); p != nil {
			ss.log.Error("mcp: handler panicked", "method", r.method, "id", r.id.String(),
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp = errorResponse(r.id, jsonrpc.NewError(jsonrpc.CodeInternalError,
				"internal error: the handler for %s panicked", r.method))
		}
	}()
	result, err := m.handle(c.ctx, ss, c, r)
	if err != nil {
		return &jsonrpc.Response{ID: r.id, Error: eraError(jsonrpc.WireError(err), r.rev)}
	}
	raw, ok := result.(json.RawMessage)
	if !ok {
		var merr error
		if raw, merr = json.Marshal(result); merr != nil {
			return errorResponse(r.id, fmt.Errorf("encoding the result: %w", merr))
		}
	}
	return &jsonrpc.Response{ID: r.id, Result: raw}
}

// eraError maps error codes a revision does not define: in the modern era
// resource-not-found is -32602 (never -32002), and -32042 does not exist.
func eraError(e *jsonrpc.Error, r rev) *jsonrpc.Error {
	if !r.modern() {
		return e
	}
	switch e.Code {
	case jsonrpc.CodeResourceNotFound:
		c := *e
		c.Code = jsonrpc.CodeInvalidParams
		return &c
	case jsonrpc.CodeURLElicitationRequired:
		c := *e
		c.Code, c.Data = jsonrpc.CodeInternalError, nil
		return &c
	}
	return e
}

func errorResponse(id jsonrpc.ID, err error) *jsonrpc.Response {
	return jsonrpc.NewErrorResponse(id, err)
}
