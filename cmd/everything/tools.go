package main

import (
	"context"
	"fmt"
	"math"
	"math/big"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// tools returns the contract server's tools in listing order: the core
// tools, the typed-tool showcase (tools_contract.go), and the tools the
// official conformance suite calls by name (tools_conformance.go). The
// fault fixtures (panic, broken_contract) are listed only when fixtures is
// set (the -fixtures flag): hosts show every listed tool to the model, and
// the model would call them.
func tools(fixtures bool) []tool.Tool {
	list := []tool.Tool{echoTool(), addTool(), failTool(), slowTool()}
	if fixtures {
		list = append(list, panicTool())
	}
	list = append(list, contractTools()...)
	if fixtures {
		list = append(list, brokenContractTool())
	}
	return append(list, conformanceTools()...)
}

type echoArgs struct {
	Text string `json:"text" description:"Text to echo."`
}

func echoTool() tool.Tool {
	return tool.New("echo", "Returns the given text unchanged, byte for byte.",
		func(_ context.Context, in echoArgs) (*tool.Result, error) {
			return tool.TextResult(in.Text), nil
		},
		tool.WithTitle("Echo"),
		tool.ReadOnly(true), tool.OpenWorld(false))
}

type addArgs struct {
	A int64 `json:"a"`
	B int64 `json:"b"`
}

type sum struct {
	Sum int64 `json:"sum"`
}

// addTool refuses a sum that does not fit: Go's int64 addition would wrap
// around to a wrong answer. The plain error gives an isError result with
// the text only; tool.Fail would also send a {"sum":...} that is no sum.
func addTool() tool.Tool {
	return tool.New("add", "Adds two integers.",
		func(_ context.Context, in addArgs) (sum, error) {
			s := in.A + in.B
			if (in.B > 0 && s < in.A) || (in.B < 0 && s > in.A) {
				exact := new(big.Int).Add(big.NewInt(in.A), big.NewInt(in.B))
				return sum{}, fmt.Errorf("add: the sum %s is out of range: it must be between %d and %d (a 64-bit integer)", exact, int64(math.MinInt64), int64(math.MaxInt64))
			}
			return sum{s}, nil
		},
		tool.WithTitle("Add"),
		tool.ReadOnly(true), tool.Idempotent(true), tool.OpenWorld(false))
}

func failTool() tool.Tool {
	return tool.New("fail", "Always fails with a tool error (isError: true).",
		func(context.Context, struct{}) (*tool.Result, error) {
			return tool.ErrorResult("fail: this tool always fails"), nil
		},
		tool.WithTitle("Fail"))
}

type slowArgs struct {
	Steps   int `json:"steps" jsonschema:"minimum=1,maximum=1000"`
	DelayMS int `json:"delay_ms,omitempty" jsonschema:"minimum=0,maximum=10000" default:"100"`
}

func slowTool() tool.Tool {
	return tool.New("slow", "Works for steps × delay_ms milliseconds, reporting progress after every step; stops within one step when cancelled.",
		func(ctx context.Context, in slowArgs) (*tool.Result, error) {
			delay := time.Duration(in.DelayMS) * time.Millisecond
			for i := 1; i <= in.Steps; i++ {
				if err := sleep(ctx, delay); err != nil {
					return nil, err
				}
				mcp.ReportProgress(ctx, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
			}
			return tool.TextResult(fmt.Sprintf("done: %d steps", in.Steps)), nil
		},
		tool.WithTitle("Slow"))
}

// panicTool keeps a raw handler: it shows the untyped form still works.
func panicTool() tool.Tool {
	return tool.Tool{
		Name:        "panic",
		Description: "Panics inside its handler, to show that the server answers -32603 and keeps serving.",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			panic("panic tool: deliberate panic")
		},
	}
}

// sleep waits for d or until ctx is done.
func sleep(ctx context.Context, d time.Duration) error {
	if d <= 0 {
		return ctx.Err()
	}
	t := time.NewTimer(d)
	defer t.Stop()
	select {
	case <-t.C:
		return nil
	case <-ctx.Done():
		return context.Cause(ctx)
	}
}
