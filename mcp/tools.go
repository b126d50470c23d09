package mcp

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

func handleToolsList(_ context.Context, ss *session, _ *call, r *request) (any, error) {
	var cursor string
	if v := r.params.Get("cursor"); v != nil && string(v) != "null" {
		if v[0] != '"' || json.Unmarshal(v, &cursor) != nil {
			return nil, invalidParams(`"cursor" must be a string`)
		}
	}
	tools, gen := ss.srv.snapshot()
	start, err := ss.srv.parseCursor(cursor, gen)
	if err != nil || start > len(tools) {
		if err == nil {
			err = errBadCursor
		}
		return nil, invalidParams("%v", err)
	}
	end := min(start+ss.srv.opts.PageSize, len(tools))
	res := &protocol.ListToolsResult{Tools: make([]protocol.Tool, 0, end-start)}
	for _, e := range tools[start:end] {
		res.Tools = append(res.Tools, e.wireTool(r.rev))
	}
	if end < len(tools) {
		next := ss.srv.makeCursor(gen, end)
		res.NextCursor = &next
	}
	return res, nil
}

var emptyArgs = json.RawMessage("{}")

func handleToolsCall(ctx context.Context, ss *session, c *call, r *request) (any, error) {
	if r.params.Len() == 0 && r.params.Get("name") == nil {
		return nil, invalidParams("tools/call needs a params object with a tool name")
	}
	var name string
	if v := r.params.Get("name"); v == nil || v[0] != '"' || json.Unmarshal(v, &name) != nil {
		return nil, invalidParams(`"name" must be a string`)
	}
	args := r.params.Get("arguments")
	r.params = jsonrpc.Object{} // let the request line go once args are decoded
	switch {
	case args == nil || string(args) == "null":
		args = emptyArgs
	case args[0] != '{':
		return nil, invalidParams(`"arguments" must be an object`)
	}
	e, ok := ss.srv.lookup(name)
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Unknown tool: %s", clip.String(name))
	}
	t := e.tool
	args, bad := t.PrepareArgs(args)
	if bad != nil {
		return ss.srv.encodeCallResult(e, bad, r)
	}
	ctx = tool.WithCall(ctx, c)
	res, err := e.handler(ctx, args)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		res = tool.ErrorResult("%s", err.Error())
	}
	if res == nil {
		res = &tool.Result{}
	}
	res, violation := t.CheckResult(res)
	if violation != nil {
		ss.log.Error("mcp: tool broke its own contract", "tool", t.Name, "violation", violation.Error())
	}
	return ss.srv.encodeCallResult(e, res, r)
}

// progressToken returns the request's _meta.progressToken when it is a
// string or an integer.
func progressToken(meta json.RawMessage) json.RawMessage {
	if meta == nil {
		return nil
	}
	obj, err := jsonrpc.ParseObject(meta)
	if err != nil {
		return nil
	}
	tok := obj.Get("progressToken")
	var id jsonrpc.ID
	if tok == nil || id.UnmarshalJSON(tok) != nil {
		return nil
	}
	return tok
}
