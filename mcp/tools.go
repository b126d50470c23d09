package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// scoped reports whether the tool needs scopes (see scopes.go).
func (e *entry) scoped() bool { return len(e.tool.Scopes) > 0 }

var emptyArgs = json.RawMessage("{}")

func handleToolsCall(ctx context.Context, ss *session, c *call, r *request, p *protocol.CallToolRequestParams) (any, error) {
	if r.params.Len() == 0 {
		return nil, invalidParams("tools/call needs a params object with a tool name")
	}
	name, args := p.Name, p.Arguments
	if name == "" {
		return nil, invalidParams(`"name" must be a string`)
	}
	responses := r.params.Get("inputResponses")
	r.params = jsonx.Object{} // let the request line go once args are decoded
	switch {
	case args == nil:
		args = emptyArgs
	case args[0] != '{':
		return nil, invalidParams(`"arguments" must be an object`)
	}
	e, ok := r.tool, r.tool != nil && r.tool.tool.Name == name // routing's lookup, when it made one
	if !ok {
		e, ok = toolList.get(ss.srv, name)
	}
	if !ok {
		return nil, invalidParams("unknown tool %s", clip.Quote(name))
	}
	if !r.caller.HasScopes(e.tool.Scopes...) {
		return nil, scopeRefusal(ctx, "tool "+clip.Quote(name), e.tool.Scopes, invalidParams("unknown tool %s", clip.Quote(name)))
	}
	if e.task.Support != TaskNever {
		if declaresTasks(r) {
			return ss.srv.callAsTask(ctx, ss, c, r, e, args, responses, p.RequestState)
		}
		if e.task.Support == TaskRequired {
			return nil, missingTasks("tool " + clip.Quote(name))
		}
	}
	in, rerr := ss.srv.openInput(r, name, args, responses, p.RequestState)
	if rerr != nil {
		return nil, rerr
	}
	c.in = in
	return ss.finishCall(ctx, c, r, e, in, e.contract.Call(c.handlerContext(ctx), args))
}

// finishCall answers a tools/call from its handler's outcome: a -32021
// the handler returned, the input_required result of questions left
// unanswered, another JSON-RPC error, or the result.
func (ss *session) finishCall(ctx context.Context, c *call, r *request, e *entry, in *input, out contract.Outcome) (any, error) {
	name := e.tool.Name
	if out.RPCError != nil && out.RPCError.Code == jsonrpc.CodeMissingRequiredClientCapability {
		return nil, out.RPCError // it cannot work at all: asking more is pointless
	}
	if res, rerr := ss.srv.required(in); res != nil || rerr != nil {
		return inputOutcome(res, rerr)
	}
	if out.RPCError != nil {
		return nil, out.RPCError
	}
	if out.HandlerError != nil {
		ss.log.Log(ctx, ss.srv.opts.HandlerErrorLevel, "mcp: tool returned an error", "tool", name, "id", c.id.String(), "error", out.HandlerError.Error())
	}
	if out.Broken != nil {
		ss.log.Error("mcp: tool broke its own contract", "tool", name, "id", c.id.String(), "violation", out.Broken.Error())
	}
	raw, err := ss.srv.encodeCallResult(e, out.Result, r)
	if err != nil {
		return nil, err
	}
	return encoded(raw), nil
}

// progressToken returns the request's _meta.progressToken when it is a
// string or an integer.
func progressToken(meta jsonx.Object) json.RawMessage {
	tok := meta.Get(protocol.MetaProgressToken)
	var id jsonrpc.ID
	if tok == nil || id.UnmarshalJSON(tok) != nil {
		return nil
	}
	return tok
}
