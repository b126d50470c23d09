package tool_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// BenchmarkCallTypedRelaxed is BenchmarkCallTyped with a relaxed inferred
// schema, where the keys are checked against In before decoding.
func BenchmarkCallTypedRelaxed(b *testing.B) {
	tl := tool.MustNew("bench", "", func(_ context.Context, in benchArgs) (benchOut, error) {
		return benchOut(in), nil
	}, tool.AllowAdditionalProperties())
	args := json.RawMessage(`{"text":"hello, world","count":3}`)
	ctx := context.Background()
	b.ReportAllocs()
	for b.Loop() {
		prepared, bad := tl.PrepareArgs(args)
		if bad != nil {
			b.Fatal(text(bad))
		}
		res, err := tl.Handler(ctx, prepared)
		if err != nil {
			b.Fatal(err)
		}
		if _, err := tl.CheckResult(res); err != nil {
			b.Fatal(err)
		}
	}
}
