package probe

import (
	"context"
	"maps"
	"reflect"

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
// Wrap panics when patterns is nil: it is meant for start-up code.
func Wrap(t tool.Tool, patterns Func) tool.Tool {
	if patterns == nil {
		panic("probe: Wrap needs a pattern function")
	}
	w := t
	w.Meta = maps.Clone(t.Meta)
	if w.Meta == nil {
		w.Meta = make(map[string]any, 1)
	}
	w.Meta[SupportsKey] = true
	if t.Handler != nil {
		w.Handler = (&prober{name: t.Name, next: t.Handler, patterns: patterns}).handle
	}
	return w
}

// Fixed returns a pattern function for a tool whose needs do not depend on
// its arguments: every probe answers always as forge.always.
func Fixed(always ...Pattern) Func {
	ps := Patterns{Always: always}
	return func(context.Context, json.RawMessage) (Patterns, error) { return ps, nil }
}

// Supports reports whether t answers probes: its handler is one that
// [Wrap] or [New] built. The mark is state a user cannot fake: copying
// [SupportsKey] into a tool's _meta by hand advertises support in
// tools/list but does not make the tool answer probes, so the [Guard] still
// refuses them; and a handler that wraps a probing handler in a function of
// its own is not known to answer probes either. A copy of a wrapped tool,
// made by value, keeps its handler and so its support.
func Supports(t tool.Tool) bool {
	return t.Handler != nil && reflect.ValueOf(t.Handler).Pointer() == probingCode
}

// prober is the handler of a wrapped tool.
type prober struct {
	name     string
	next     tool.Handler
	patterns Func
}

// probingCode identifies the handlers Wrap builds: every method value of
// prober.handle shares its code, and nothing else has it.
var probingCode = reflect.ValueOf((*prober)(nil).handle).Pointer()

// handle answers a probe with the patterns and runs the tool otherwise.
func (p *prober) handle(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
	switch r, key := requestOf(ctx); r {
	case notProbe:
		return p.next(ctx, args)
	case isProbe:
		return answer(ctx, args, p.patterns)
	default:
		return nil, refusal(p.name, r, key)
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
