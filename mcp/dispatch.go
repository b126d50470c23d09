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
	handle func(ctx context.Context, ss *session, c *call, params json.RawMessage) (any, error)
	// inline methods are cheap and run on the read loop; the others run
	// on their own goroutine under the concurrency limit.
	inline bool
	// beforeInit methods may be called before initialize.
	beforeInit bool
}

// methods is the one method table.
var methods map[string]method

func init() {
	methods = map[string]method{
		"initialize": {handle: handleInitialize, inline: true, beforeInit: true},
		"ping":       {handle: handlePing, inline: true, beforeInit: true},
		"tools/list": {handle: handleToolsList, inline: true},
		"tools/call": {handle: handleToolsCall},
	}
}

// dispatch answers one request through respond, exactly once.
func (ss *session) dispatch(req *jsonrpc.Request, respond responder) {
	m, ok := methods[req.Method]
	if !ok {
		respond(errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: %s", req.Method)))
		return
	}
	c, ok := ss.track(req.ID, respond)
	if !ok {
		respond(errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"invalid request: id %s is already in use by a request in flight", req.ID)))
		return
	}
	if !m.beforeInit && ss.negotiated() == 0 {
		c.finish(errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInvalidParams,
			"no session: send initialize before %s", req.Method)))
		return
	}
	if m.inline {
		c.finish(ss.run(m, c, req))
		return
	}
	limit := int64(ss.srv.opts.MaxConcurrentCalls + ss.srv.opts.MaxQueuedCalls)
	if ss.pending.Add(1) > limit {
		ss.pending.Add(-1)
		c.finish(errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInternalError,
			"server overloaded: more than %d requests in flight", limit).WithData(map[string]string{"reason": "overloaded"})))
		return
	}
	ss.wg.Add(1)
	go ss.runAsync(m, c, req)
}

// runAsync runs a call on its own goroutine once a handler slot is free.
func (ss *session) runAsync(m method, c *call, req *jsonrpc.Request) {
	defer ss.wg.Done()
	defer ss.pending.Add(-1)
	select {
	case ss.slots <- struct{}{}:
	case <-c.ctx.Done():
		c.finish(errorResponse(req.ID, context.Cause(c.ctx)))
		return
	}
	defer func() { <-ss.slots }()
	c.finish(ss.run(m, c, req))
}

// run calls the method's handler, turning a panic into -32603.
func (ss *session) run(m method, c *call, req *jsonrpc.Request) (resp *jsonrpc.Response) {
	defer func() {
		if p := recover(); p != nil {
			ss.log.Error("mcp: handler panicked", "method", req.Method, "id", req.ID.String(),
				"panic", fmt.Sprint(p), "stack", string(debug.Stack()))
			resp = errorResponse(req.ID, jsonrpc.NewError(jsonrpc.CodeInternalError,
				"internal error: the handler for %s panicked", req.Method))
		}
	}()
	result, err := m.handle(c.ctx, ss, c, req.Params)
	if err != nil {
		return errorResponse(req.ID, err)
	}
	raw, ok := result.(json.RawMessage)
	if !ok {
		var merr error
		if raw, merr = json.Marshal(result); merr != nil {
			return errorResponse(req.ID, fmt.Errorf("encoding the result: %w", merr))
		}
	}
	return &jsonrpc.Response{ID: req.ID, Result: raw}
}

func errorResponse(id jsonrpc.ID, err error) *jsonrpc.Response {
	return jsonrpc.NewErrorResponse(id, err)
}
