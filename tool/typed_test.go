package tool_test

import (
	"context"
	"errors"
	"fmt"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

type reportArgs struct {
	Region string `json:"region"`
	Days   int    `json:"days,omitempty" default:"2"`
}

type report struct {
	Accepted bool   `json:"accepted"`
	Region   string `json:"region"`
	Days     int    `json:"days,omitempty" jsonschema:"minimum=1"`
}

// reportTool fails inside its contract for region "mars", and breaks it
// for region "void".
func reportTool() tool.Tool {
	return tool.New("report", "", func(_ context.Context, in reportArgs) (report, error) {
		switch in.Region {
		case "mars":
			return report{Region: in.Region}, tool.Fail("unknown region %q", in.Region)
		case "wrapped":
			return report{Region: in.Region}, fmt.Errorf("planning: %w", tool.Fail("no route"))
		case "down":
			return report{}, errors.New("routing service unavailable")
		case "rpc":
			return report{}, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "deliberate")
		case "void":
			return report{Accepted: true, Region: in.Region, Days: -1}, nil
		}
		return report{Accepted: true, Region: in.Region, Days: in.Days}, nil
	})
}

func texts(r *tool.Result) []string {
	var out []string
	for _, c := range r.Content {
		if tb, ok := c.(*tool.Text); ok {
			out = append(out, tb.Text)
		}
	}
	return out
}

func TestTypedHandler(t *testing.T) {
	tl := reportTool()
	tests := []struct {
		name       string
		args       string
		wantTexts  []string
		wantStruct string
		wantIsErr  bool
	}{
		{"success with a default applied", `{"region":"eu"}`,
			[]string{`{"accepted":true,"region":"eu","days":2}`}, `{"accepted":true,"region":"eu","days":2}`, false},
		{"failure inside the contract", `{"region":"mars"}`,
			[]string{`unknown region "mars"`, `{"accepted":false,"region":"mars"}`}, `{"accepted":false,"region":"mars"}`, true},
		{"wrapped failure keeps the outer text", `{"region":"wrapped"}`,
			[]string{"planning: no route", `{"accepted":false,"region":"wrapped"}`}, `{"accepted":false,"region":"wrapped"}`, true},
		{"output breaking its schema is replaced", `{"region":"void"}`,
			[]string{"tool report returned a result that breaks its contract, so it was not sent (this is a bug in the tool, not in the call):\n- structuredContent does not match the output schema:\n  - /days: -1 should be at least 1 (minimum)"}, "", true},
		{"invalid arguments never reach the handler", `{"region":3}`,
			[]string{"invalid arguments for tool report:\n- /region: 3 should be a string, not an integer (type)"}, "", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			res, err := call(t, tl, tt.args)
			if err != nil && !errors.Is(err, contract.ErrContract) {
				t.Fatal(err)
			}
			if res.IsError != tt.wantIsErr {
				t.Errorf("IsError = %v, want %v", res.IsError, tt.wantIsErr)
			}
			if got := texts(res); fmt.Sprint(got) != fmt.Sprint(tt.wantTexts) {
				t.Errorf("texts:\n got %q\nwant %q", got, tt.wantTexts)
			}
			var got string
			if res.Structured != nil {
				got = string(res.Structured.(json.RawMessage))
			}
			if got != tt.wantStruct {
				t.Errorf("structured = %s, want %s", got, tt.wantStruct)
			}
		})
	}
}

func TestTypedHandlerErrors(t *testing.T) {
	tl := reportTool()
	_, err := tl.Handler(context.Background(), json.RawMessage(`{"region":"down"}`))
	if err == nil || err.Error() != "routing service unavailable" {
		t.Errorf("plain error: %v", err)
	}
	_, err = tl.Handler(context.Background(), json.RawMessage(`{"region":"rpc"}`))
	var rpcErr *jsonrpc.Error
	if !errors.As(err, &rpcErr) {
		t.Errorf("a *jsonrpc.Error was not passed through: %v", err)
	}
}

func TestTypedHandlerReturningResult(t *testing.T) {
	fixed := tool.TextResult("fixed")
	tests := []struct {
		name    string
		fn      func(context.Context, struct{}) (*tool.Result, error)
		want    *tool.Result // nil: compare text and IsError only
		text    string
		isError bool
	}{
		{"returned as is", func(context.Context, struct{}) (*tool.Result, error) { return fixed, nil }, fixed, "fixed", false},
		{"nil result with Fail", func(context.Context, struct{}) (*tool.Result, error) { return nil, tool.Fail("nope") }, nil, "nope", true},
		{"result with Fail is marked", func(context.Context, struct{}) (*tool.Result, error) { return fixed, tool.Fail("nope") }, nil, "nope", true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl := tool.New("r", "", tt.fn)
			if tl.OutputSchema != nil {
				t.Errorf("output schema %s for a *Result handler", tl.OutputSchema)
			}
			got, err := tl.Handler(context.Background(), json.RawMessage(`this is not even JSON: no decode for struct{}`))
			if err != nil {
				t.Fatal(err)
			}
			if tt.want != nil && got != tt.want {
				t.Errorf("result %p, want %p", got, tt.want)
			}
			if text(got) != tt.text || got.IsError != tt.isError {
				t.Errorf("got %q isError=%v", text(got), got.IsError)
			}
		})
	}
	if fixed.IsError || len(fixed.Content) != 1 {
		t.Error("Fail modified the handler's result in place")
	}
}

func TestTypedHandlerDecodeMismatch(t *testing.T) {
	tl := tool.New("m", "", noop[struct {
		N int `json:"n"`
	}, *tool.Result](), tool.WithInputSchema(json.RawMessage(`{"type":"object","properties":{"n":{"type":"string"}}}`)))
	res, err := call(t, tl, `{"n":"seven"}`)
	if err != nil || !res.IsError || text(res) == "" {
		t.Errorf("decode mismatch: %+v, %v", res, err)
	}
}

func TestTypedRawArguments(t *testing.T) {
	tl := tool.New("raw", "", func(_ context.Context, in json.RawMessage) (*tool.Result, error) {
		return tool.TextResult(string(in)), nil
	})
	res, err := call(t, tl, `{"any":["thing"]}`)
	if err != nil || text(res) != `{"any":["thing"]}` {
		t.Errorf("raw arguments: %q, %v", text(res), err)
	}
}

// A string result's text block is the string itself (issue 27), while its
// structured content stays the JSON string the output schema describes.
func TestStringResultText(t *testing.T) {
	tl := tool.New("greet", "", func(_ context.Context, in struct {
		Name string `json:"name"`
	}) (string, error) {
		return "Hello, " + in.Name, nil
	})
	tests := []struct{ args, wantText, wantStruct string }{
		{`{"name":"Ada"}`, `Hello, Ada`, `"Hello, Ada"`},
		{`{"name":"\"Ada\"\n"}`, "Hello, \"Ada\"\n", `"Hello, \"Ada\"\n"`},
		{`{"name":""}`, `Hello, `, `"Hello, "`},
	}
	for _, tt := range tests {
		res, err := call(t, tl, tt.args)
		if err != nil || res.IsError {
			t.Fatalf("%s: %v %v", tt.args, err, texts(res))
		}
		if got := texts(res); len(got) != 1 || got[0] != tt.wantText {
			t.Errorf("%s: texts %q, want [%q]", tt.args, got, tt.wantText)
		}
		if got := string(res.Structured.(json.RawMessage)); got != tt.wantStruct {
			t.Errorf("%s: structured %s, want %s", tt.args, got, tt.wantStruct)
		}
	}
	if got := string(tl.OutputSchema); got != `{"type":"string"}` {
		t.Errorf("output schema %s", got)
	}

	// StructuredResult keeps the same rule; other values stay JSON text.
	for _, c := range []struct {
		v        any
		wantText string
	}{
		{"plain", "plain"},
		{json.RawMessage(`"a\u0041"`), "aA"},
		{42, "42"},
		{[]string{"a"}, `["a"]`},
	} {
		res, err := tool.StructuredResult(c.v)
		if err != nil {
			t.Fatal(err)
		}
		if got := texts(res); len(got) != 1 || got[0] != c.wantText {
			t.Errorf("StructuredResult(%v): texts %q, want [%q]", c.v, got, c.wantText)
		}
	}
}
