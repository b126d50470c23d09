package tool_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

type benchArgs struct {
	Text  string `json:"text" jsonschema:"maxLength=4096"`
	Count int    `json:"count,omitempty" jsonschema:"minimum=1,maximum=100" default:"1"`
}

type benchOut struct {
	Text  string `json:"text"`
	Count int    `json:"count"`
}

func benchTool() *tool.Tool {
	return tool.MustNew("bench", "", func(_ context.Context, in benchArgs) (benchOut, error) {
		return benchOut(in), nil
	})
}

// BenchmarkPrepareArgs measures argument validation per call: nothing to
// check, an empty object answered from the Compile-time value, a typical
// object, and one that needs a default filled in.
func BenchmarkPrepareArgs(b *testing.B) {
	cases := []struct {
		name string
		tool *tool.Tool
		args string
	}{
		{"trivial-schema", rawTool("t", `{"type":"object"}`, ""), `{"text":"hello"}`},
		{"no-args-empty", rawTool("t", `{"type":"object","additionalProperties":false}`, ""), `{}`},
		{"typed-object", benchTool(), `{"text":"hello, world","count":3}`},
		{"typed-object-default", benchTool(), `{"text":"hello, world"}`},
	}
	for _, c := range cases {
		b.Run(c.name, func(b *testing.B) {
			args := json.RawMessage(c.args)
			b.ReportAllocs()
			for b.Loop() {
				if _, bad := c.tool.PrepareArgs(args); bad != nil {
					b.Fatal(text(bad))
				}
			}
		})
	}
}

// BenchmarkCallTyped measures the whole contract around a typed handler:
// validation, decoding, the handler, encoding and the output check.
func BenchmarkCallTyped(b *testing.B) { benchCall(b, benchTool()) }

// benchCall runs tl's whole contract on one arguments object, b.N times.
func benchCall(b *testing.B, tl *tool.Tool) {
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

// BenchmarkCheckResult measures the result check of a text-only result,
// the common case of a tool without an output schema.
func BenchmarkCheckResult(b *testing.B) {
	tl := rawTool("t", "", "")
	res := tool.TextResult("hello, world")
	b.ReportAllocs()
	for b.Loop() {
		if _, err := tl.CheckResult(res); err != nil {
			b.Fatal(err)
		}
	}
}
