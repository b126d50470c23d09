package tool_test

import (
	"context"
	"testing"

	"github.com/mcpwire/mcpwire/tool"
)

// BenchmarkCallTypedRelaxed is BenchmarkCallTyped with a relaxed inferred
// schema, where the keys are checked against In before decoding.
func BenchmarkCallTypedRelaxed(b *testing.B) {
	tl := tool.MustNew("bench", "", func(_ context.Context, in benchArgs) (benchOut, error) {
		return benchOut(in), nil
	}, tool.AllowAdditionalProperties())
	benchCall(b, tl)
}
