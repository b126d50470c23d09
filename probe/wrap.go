package probe

import (
	"context"
	"maps"
	"runtime"
	"sync"
	"weak"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// Func computes the patterns of one call from its arguments, already
// validated against the tool's input schema. It runs instead of the
// handler, so it must not have side effects. A plain error becomes the
// isError result of the probe, exactly as a handler's would; a
// *jsonrpc.Error becomes a JSON-RPC error response.
type Func func(ctx context.Context, args json.RawMessage) (Patterns, error)

// Wrap returns a copy of t that supports probing: its _meta (t.Meta, copied)
// gains [SupportsKey]: true, and its handler answers a probe by running
// patterns instead of t's handler. The reply is a result with empty content
// and the canonical patterns in _meta; a pattern that is not canonical
// makes it an isError result naming the pattern.
//
// A call that is not a probe runs t's handler with nothing added but one
// context lookup (and a few byte scans of params._meta when there is one).
// A call that [Guard] refuses (a near miss of [PermissionPatternsKey] such
// as "Forge.permission_patterns", a value other than true or false, a
// repeated key, a _meta that is not an object) gets a -32602 JSON-RPC
// error, so that a host's mistyped probe can never run the tool.
//
// Wrap panics when t or patterns is nil: it is meant for start-up code.
func Wrap(t *tool.Tool, patterns Func) *tool.Tool {
	if t == nil || patterns == nil {
		panic("probe: Wrap needs a tool and a pattern function")
	}
	w := *t
	w.Meta = maps.Clone(t.Meta)
	if w.Meta == nil {
		w.Meta = make(map[string]any, 1)
	}
	w.Meta[SupportsKey] = true
	if t.Handler != nil {
		w.Handler = probing(t.Name, t.Handler, patterns)
	}
	markWrapped(&w)
	return &w
}

// Fixed returns a pattern function for a tool whose needs do not depend on
// its arguments: every probe answers always as forge.always.
func Fixed(always ...Pattern) Func {
	ps := Patterns{Always: always}
	return func(context.Context, json.RawMessage) (Patterns, error) { return ps, nil }
}

// Supports reports whether t answers probes: it is a tool that [Wrap] or
// [New] returned. The mark is state a user cannot fake: copying
// [SupportsKey] into a tool's _meta by hand advertises support in
// tools/list but does not make the tool answer probes, so the [Guard] still
// refuses them (and a copy of a wrapped tool, made by value, loses the
// mark the same way).
func Supports(t *tool.Tool) bool {
	if t == nil {
		return false
	}
	_, ok := wrapped.Load(weak.Make(t))
	return ok
}

// wrapped holds the tools Wrap returned, weakly: an entry goes when its
// tool is collected.
var wrapped sync.Map // weak.Pointer[tool.Tool] → struct{}

func markWrapped(t *tool.Tool) {
	key := weak.Make(t)
	wrapped.Store(key, struct{}{})
	runtime.AddCleanup(t, func(k weak.Pointer[tool.Tool]) { wrapped.Delete(k) }, key)
}

// probing returns the handler of a wrapped tool.
func probing(name string, h tool.Handler, patterns Func) tool.Handler {
	return func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
		switch r, key := requestOf(ctx); r {
		case notProbe:
			return h(ctx, args)
		case isProbe:
			return answer(ctx, args, patterns)
		default:
			return nil, refusal(name, r, key)
		}
	}
}

// answer runs the pattern function and builds the probe reply.
func answer(ctx context.Context, args json.RawMessage, patterns Func) (*tool.Result, error) {
	ps, err := patterns(ctx, args)
	if err != nil {
		return nil, err
	}
	if err := ps.Check(); err != nil {
		return nil, err
	}
	return reply(ps.Meta()), nil
}
