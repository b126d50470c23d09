package main

import (
	"context"
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// tools returns the contract server's tools in listing order.
func tools() []*tool.Tool {
	return []*tool.Tool{echoTool(), addTool(), failTool(), slowTool(), panicTool()}
}

func echoTool() *tool.Tool {
	return &tool.Tool{
		Name:        "echo",
		Description: "Returns the given text unchanged, byte for byte.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string","description":"Text to echo."}},"required":["text"],"additionalProperties":false}`),
		Handler: func(_ context.Context, args json.RawMessage) (*tool.Result, error) {
			var in struct {
				Text *string `json:"text"`
			}
			if err := json.Unmarshal(args, &in); err != nil || in.Text == nil {
				return tool.ErrorResult(`invalid arguments: "text" must be a string`), nil
			}
			return tool.TextResult(*in.Text), nil
		},
	}
}

func addTool() *tool.Tool {
	return &tool.Tool{
		Name:         "add",
		Description:  "Adds two integers.",
		InputSchema:  json.RawMessage(`{"type":"object","properties":{"a":{"type":"integer"},"b":{"type":"integer"}},"required":["a","b"],"additionalProperties":false}`),
		OutputSchema: json.RawMessage(`{"type":"object","properties":{"sum":{"type":"integer"}},"required":["sum"],"additionalProperties":false}`),
		Handler: func(_ context.Context, args json.RawMessage) (*tool.Result, error) {
			var in struct {
				A, B *int64
			}
			if err := json.Unmarshal(args, &in); err != nil || in.A == nil || in.B == nil {
				return tool.ErrorResult(`invalid arguments: "a" and "b" must be integers`), nil
			}
			return tool.StructuredResult(map[string]int64{"sum": *in.A + *in.B})
		},
	}
}

func failTool() *tool.Tool {
	return &tool.Tool{
		Name:        "fail",
		Description: "Always fails with a tool error (isError: true).",
		InputSchema: json.RawMessage(`{"type":"object","additionalProperties":false}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return tool.ErrorResult("fail: this tool always fails"), nil
		},
	}
}

func slowTool() *tool.Tool {
	return &tool.Tool{
		Name:        "slow",
		Description: "Works for steps × delay_ms milliseconds, reporting progress after every step; stops within one step when cancelled.",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"steps":{"type":"integer","minimum":1,"maximum":1000},"delay_ms":{"type":"integer","minimum":0,"maximum":10000,"default":100}},"required":["steps"],"additionalProperties":false}`),
		Handler: func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
			in := struct {
				Steps   int `json:"steps"`
				DelayMS int `json:"delay_ms"`
			}{DelayMS: 100}
			if err := json.Unmarshal(args, &in); err != nil || in.Steps < 1 || in.Steps > 1000 || in.DelayMS < 0 || in.DelayMS > 10000 {
				return tool.ErrorResult("invalid arguments: steps must be 1..1000 and delay_ms 0..10000"), nil
			}
			delay := time.Duration(in.DelayMS) * time.Millisecond
			for i := 1; i <= in.Steps; i++ {
				if err := sleep(ctx, delay); err != nil {
					return nil, err
				}
				tool.ReportProgress(ctx, float64(i), float64(in.Steps), fmt.Sprintf("step %d of %d", i, in.Steps))
			}
			return tool.TextResult(fmt.Sprintf("done: %d steps", in.Steps)), nil
		},
	}
}

func panicTool() *tool.Tool {
	return &tool.Tool{
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
