package probe

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

// Guard returns the middleware that refuses a probe sent to a tool that
// does not support probing ([Supports] is false), before the tool runs. The
// refusal is a JSON-RPC error with code -32602 (invalid params: the
// request's _meta asks for something this tool cannot do), its message
// naming the tool, for example:
//
//	tool "read_file" does not support permission probing: it does not advertise "forge.supports_permission_patterns"; call it without "forge.permission_patterns" in _meta
//
// A _meta value of "forge.permission_patterns" other than true or false is
// refused the same way. Tools that support probing get their handler back
// unchanged, and so pay nothing.
//
// Guard trusts the advertisement: set [SupportsKey] only through [Wrap] or
// [New], whose handlers answer probes themselves. A tool that advertises
// support by hand must check [IsProbe] in its handler and answer with
// tool.MetaResult(patterns.Meta()), or a probe would run it.
func Guard() tool.Middleware {
	return func(t *tool.Tool, next tool.Handler) tool.Handler {
		if Supports(t) {
			return next
		}
		name := t.Name
		return func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
			switch requestOf(ctx) {
			case notProbe:
				return next(ctx, args)
			case isProbe:
				return nil, unsupportedError(name)
			}
			return nil, badFlagError(name)
		}
	}
}

// unsupportedError is the refusal of a probe to a tool that cannot answer.
func unsupportedError(name string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams,
		"tool %q does not support permission probing: it does not advertise %q; call it without %q in _meta",
		name, SupportsKey, PermissionPatternsKey)
}

// badFlagError is the refusal of a call whose probe flag is neither true
// nor false.
func badFlagError(name string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams,
		"tool %q: _meta %q must be true (a permission probe) or false",
		name, PermissionPatternsKey)
}
