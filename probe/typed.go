package probe

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// WrapTyped is Wrap for a pattern function that takes the arguments decoded
// into In, the way a typed tool's handler ([tool.New]) receives them; a
// decoding failure gives the same isError text as the typed handler's.
func WrapTyped[In any](t *tool.Tool, patterns func(ctx context.Context, in In) (Patterns, error)) *tool.Tool {
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
// patterns, which receives the same decoded arguments as fn.
func New[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error),
	patterns func(ctx context.Context, in In) (Patterns, error), opts ...tool.Option) (*tool.Tool, error) {
	if patterns == nil {
		return nil, fmt.Errorf("tool %q has no pattern function", name)
	}
	t, err := tool.New(name, description, fn, opts...)
	if err != nil {
		return nil, err
	}
	return WrapTyped(t, patterns), nil
}

// MustNew is New that panics on error, for tools built at start-up.
func MustNew[In, Out any](name, description string, fn func(ctx context.Context, in In) (Out, error),
	patterns func(ctx context.Context, in In) (Patterns, error), opts ...tool.Option) *tool.Tool {
	t, err := New(name, description, fn, patterns, opts...)
	if err != nil {
		panic(err)
	}
	return t
}
