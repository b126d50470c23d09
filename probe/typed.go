package probe

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// WrapTyped is Wrap for a pattern function that takes the arguments decoded
// into In, the way a typed tool's handler ([tool.New]) receives them; a
// decoding failure gives the same isError text as the typed handler's.
func WrapTyped[In any](t tool.Tool, patterns func(ctx context.Context, in In) (Patterns, error)) tool.Tool {
	if patterns == nil {
		panic("probe: WrapTyped needs a pattern function")
	}
	return Wrap(t, func(ctx context.Context, args json.RawMessage) (Patterns, error) {
		in, err := tool.DecodeArgs[In](t.Name, args)
		if err != nil {
			return Patterns{}, err
		}
		return patterns(ctx, in)
	})
}

// New builds a typed tool with [tool.New] and makes it answer probes with
// patterns, which receives the same decoded arguments as fn. A problem
// tool.New finds stays the tool's Err, reported when it is registered. New
// panics when patterns is nil, as Wrap does: it is meant for start-up code.
func New[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error),
	patterns func(ctx context.Context, in In) (Patterns, error), opts ...tool.Option) tool.Tool {
	return WrapTyped(tool.New(name, description, fn, opts...), patterns)
}
