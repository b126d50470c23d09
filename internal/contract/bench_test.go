package contract_test

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

func benchTool() tool.Tool {
	return tool.New("bench", "", func(_ context.Context, in benchArgs) (benchOut, error) {
		return benchOut(in), nil
	})
}

// BenchmarkPrepare measures argument validation per call: nothing to
// check, an empty object answered from the Compile-time value, a typical
// object, and one that needs a default filled in.
func BenchmarkPrepare(b *testing.B) {
	cases := []struct {
		name string
		tool tool.Tool
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
			ct := mustCompile(b, c.tool)
			b.ReportAllocs()
			for b.Loop() {
				if _, bad := ct.Prepare(args); bad != nil {
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
func benchCall(b *testing.B, tl tool.Tool) {
	args := json.RawMessage(`{"text":"hello, world","count":3}`)
	ctx := context.Background()
	c := mustCompile(b, tl)
	b.ReportAllocs()
	for b.Loop() {
		out := c.Call(ctx, args)
		if out.RPCError != nil || out.Broken != nil || out.Result.IsError {
			b.Fatal(text(out.Result), out.Broken, out.RPCError)
		}
	}
}

// BenchmarkCallTypedRelaxed is BenchmarkCallTyped with a relaxed inferred
// schema, where the keys are checked against In before decoding.
func BenchmarkCallTypedRelaxed(b *testing.B) {
	tl := tool.New("bench", "", func(_ context.Context, in benchArgs) (benchOut, error) {
		return benchOut(in), nil
	}, tool.AllowAdditionalProperties())
	benchCall(b, tl)
}

// BenchmarkCheck measures the result check of a text-only result,
// the common case of a tool without an output schema.
func BenchmarkCheck(b *testing.B) {
	tl := rawTool("t", "", "")
	res := tool.TextResult("hello, world")
	c := mustCompile(b, tl)
	b.ReportAllocs()
	for b.Loop() {
		if _, err := c.Check(res); err != nil {
			b.Fatal(err)
		}
	}
}
