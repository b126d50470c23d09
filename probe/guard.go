package probe

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

// Guard returns the middleware that refuses a probe sent to a tool that
// does not support probing ([Supports] is false), before the tool runs. The
// refusal is a JSON-RPC error with code -32602 (invalid params: the
// request's _meta asks for something this tool cannot do), its message
// naming the tool, for example:
//
//	tool "read_file" does not support permission probing; call it without "forge.permission_patterns" in _meta
//
// Every request that must not run at all (a near-miss key, a flag other
// than true or false, a repeated key, a _meta that is not an object; see
// check) is refused the same way. Tools that support probing get their
// handler back unchanged, and so pay nothing: the handlers [Wrap] and
// [New] build make the same checks themselves.
//
// Support is what [Supports] reports, never the advertisement alone: a
// tool that puts [SupportsKey] in its _meta by hand still has its probes
// refused here, since nothing in it answers them.
func Guard() tool.Middleware {
	return func(t tool.Tool, next tool.Handler) tool.Handler {
		if Supports(t) {
			return next
		}
		name := t.Name
		return func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
			switch r, key := requestOf(ctx); r {
			case notProbe:
				return next(ctx, args)
			case isProbe:
				return nil, unsupportedError(name)
			default:
				return nil, refusal(name, r, key)
			}
		}
	}
}

// check reads the probe request of the call in progress: probe is true for
// a permission probe (as [IsProbe]), and err is the -32602 *jsonrpc.Error,
// naming the tool, of a request that must not run at all:
//
//   - a _meta key that differs from "forge.permission_patterns" only in
//     case or in white space or invisible characters around it, such as
//     "Forge.permission_patterns" or " forge.permission_patterns " (also
//     when spelled with \u escapes): the host meant a probe;
//   - a "forge.permission_patterns" value other than true or false;
//   - "forge.permission_patterns" given more than once;
//   - a _meta that is not a JSON object.
//
// Only "forge.permission_patterns" is read from a request. The other keys
// of the contract ([PatternsKey], [AlwaysKey], [SupportsKey]) belong in
// replies and in tools/list; in a request's _meta they mean nothing and
// change nothing, so neither they nor near misses of them are refused.
// Outside a call check returns false, nil.
func check(ctx context.Context, toolName string) (probe bool, err error) {
	switch r, key := requestOf(ctx); r {
	case notProbe:
		return false, nil
	case isProbe:
		return true, nil
	default:
		return false, refusal(toolName, r, key)
	}
}

// unsupportedError is the refusal of a probe to a tool that cannot answer.
func unsupportedError(name string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams,
		"tool %q does not support permission probing; call it without %q in _meta",
		name, PermissionPatternsKey)
}

// refusal is the error of a request that neither runs nor is a probe: r is
// badFlag, nearMiss (key is the key as sent), twice or notObject.
func refusal(name string, r request, key string) *jsonrpc.Error {
	switch r {
	case nearMiss:
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams,
			"tool %q: _meta key %s is not %q; probe keys are spelled exactly, in lower case: send %q: true for a permission probe, or leave the key out to run the tool",
			name, clip.Quote(key), PermissionPatternsKey, PermissionPatternsKey)
	case twice:
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams,
			"tool %q: _meta %q is given more than once; give it once", name, PermissionPatternsKey)
	case notObject:
		return jsonrpc.NewError(jsonrpc.CodeInvalidParams,
			"tool %q: params._meta must be a JSON object", name)
	}
	return jsonrpc.NewError(jsonrpc.CodeInvalidParams,
		"tool %q: _meta %q must be true (a permission probe) or false",
		name, PermissionPatternsKey)
}
