package mcp

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

type listToolsResult struct {
	Tools      []json.RawMessage `json:"tools"`
	NextCursor string            `json:"nextCursor,omitempty"`
}

func handleToolsList(_ context.Context, ss *session, _ *call, params json.RawMessage) (any, error) {
	var cursor string
	if params != nil {
		f, err := jsonrpc.Fields(params, "cursor")
		if err != nil {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: params must be an object")
		}
		if f[0] != nil && (f[0][0] != '"' || json.Unmarshal(f[0], &cursor) != nil) {
			return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, `invalid params: "cursor" must be a string`)
		}
	}
	tools, gen := ss.srv.snapshot()
	start, err := ss.srv.parseCursor(cursor, gen)
	if err != nil || start > len(tools) {
		if err == nil {
			err = errBadCursor
		}
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: %v", err)
	}
	end := min(start+ss.srv.opts.PageSize, len(tools))
	r := ss.negotiated()
	res := listToolsResult{Tools: make([]json.RawMessage, 0, end-start)}
	for _, e := range tools[start:end] {
		b, err := encodeTool(e.tool, r)
		if err != nil {
			return nil, err
		}
		res.Tools = append(res.Tools, b)
	}
	if end < len(tools) {
		res.NextCursor = ss.srv.makeCursor(gen, end)
	}
	return res, nil
}

var emptyArgs = json.RawMessage("{}")

func handleToolsCall(ctx context.Context, ss *session, c *call, params json.RawMessage) (any, error) {
	f, err := jsonrpc.Fields(params, "name", "arguments", "_meta")
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: tools/call needs a params object")
	}
	var name string
	if f[0] == nil || f[0][0] != '"' || json.Unmarshal(f[0], &name) != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, `invalid params: "name" must be a string`)
	}
	args := f[1]
	switch {
	case args == nil || string(args) == "null":
		args = emptyArgs
	case args[0] != '{':
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, `invalid params: "arguments" must be an object`)
	}
	e, ok := ss.srv.lookup(name)
	if !ok {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "Unknown tool: %s", name)
	}
	t := e.tool
	r := ss.negotiated()
	args, bad := t.PrepareArgs(args)
	if bad != nil {
		return encodeCallResult(t, bad, r)
	}
	ctx = tool.WithRequest(ctx, ss.requestInfo(f[2]))
	if token := progressToken(f[2]); token != nil {
		c.progressToken = token
		ctx = tool.WithReporter(ctx, c)
	}
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
	return encodeCallResult(t, res, r)
}

// progressToken returns the request's _meta.progressToken when it is a
// string or an integer.
func progressToken(meta json.RawMessage) json.RawMessage {
	if meta == nil {
		return nil
	}
	f, err := jsonrpc.Fields(meta, "progressToken")
	if err != nil || f[0] == nil {
		return nil
	}
	var id jsonrpc.ID
	if id.UnmarshalJSON(f[0]) != nil {
		return nil
	}
	return f[0]
}
