package tool_test

import (
	"context"
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

func ExampleNew() {
	type Args struct {
		City string `json:"city" description:"City name."`
		Days int    `json:"days,omitempty" jsonschema:"minimum=1,maximum=14" default:"3"`
	}
	type Forecast struct {
		City string `json:"city"`
		Days int    `json:"days"`
	}
	forecast, err := tool.New("forecast", "Forecasts the weather.",
		func(_ context.Context, in Args) (Forecast, error) {
			return Forecast{City: in.City, Days: in.Days}, nil
		}, tool.WithTitle("Forecast"))
	if err != nil {
		panic(err)
	}
	fmt.Println(string(forecast.InputSchema))
	fmt.Println(string(forecast.OutputSchema))

	// What the server does for each call: validate and default the
	// arguments, run the handler, check the result.
	args, bad := forecast.PrepareArgs(json.RawMessage(`{"city":"Oslo"}`))
	if bad != nil {
		panic("invalid arguments")
	}
	res, _ := forecast.Handler(context.Background(), args)
	res, _ = forecast.CheckResult(res)
	fmt.Println(res.Content[0].(*tool.Text).Text)
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"City name."},"days":{"type":"integer","minimum":1,"maximum":14,"default":3}},"required":["city"],"additionalProperties":false}
	// {"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city","days"],"additionalProperties":false}
	// {"city":"Oslo","days":3}
}

// A typed handler's natural Go values keep the output schema inferred
// from their type: nil slices and maps are [] and {}, a nil pointer member
// is left out.
func ExampleNew_zeroValue() {
	type Page struct {
		Items  []string          `json:"items"`
		Labels map[string]string `json:"labels"`
		Next   *string           `json:"next"`
	}
	list := tool.MustNew("list", "Lists the items.", func(context.Context, struct{}) (Page, error) {
		return Page{}, nil
	})
	res, _ := list.Handler(context.Background(), json.RawMessage(`{}`))
	res, err := list.CheckResult(res)
	fmt.Println(res.Content[0].(*tool.Text).Text, err)
	// Output: {"items":[],"labels":{}} <nil>
}

// Arguments are decoded by exact key: with a relaxed schema, which lets
// unknown keys through, a key that differs from a member only in case is
// still refused, never decoded into the member.
func ExampleAllowAdditionalProperties() {
	type Args struct {
		Text string `json:"text,omitempty"`
	}
	echo := tool.MustNew("echo", "Echoes text.", func(_ context.Context, in Args) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}, tool.AllowAdditionalProperties())
	args, _ := echo.PrepareArgs(json.RawMessage(`{"Text":"hi","extra":1}`))
	res, _ := echo.Handler(context.Background(), args)
	fmt.Println(res.Content[0].(*tool.Text).Text)
	// Output:
	// invalid arguments for tool echo:
	// - /Text: additional property is not allowed (additionalProperties)
}

func ExampleFail() {
	type Args struct {
		Region string `json:"region"`
	}
	type Report struct {
		Accepted bool   `json:"accepted"`
		Region   string `json:"region"`
	}
	route := tool.MustNew("route", "Plans a route.",
		func(_ context.Context, in Args) (Report, error) {
			if in.Region != "eu-west" {
				// Fail inside the contract: still a conforming Report.
				return Report{Accepted: false, Region: in.Region}, tool.Fail("unknown region %q", in.Region)
			}
			return Report{Accepted: true, Region: in.Region}, nil
		})
	res, _ := route.Handler(context.Background(), json.RawMessage(`{"region":"mars"}`))
	res, err := route.CheckResult(res)
	fmt.Println(res.IsError, err)
	for _, c := range res.Content {
		fmt.Println(c.(*tool.Text).Text)
	}
	// Output:
	// true <nil>
	// unknown region "mars"
	// {"accepted":false,"region":"mars"}
}

func ExampleTool_PrepareArgs() {
	add := tool.MustNew("add", "Adds two integers.",
		func(_ context.Context, in struct {
			A int `json:"a"`
			B int `json:"b"`
		}) (int, error) {
			return in.A + in.B, nil
		})
	_, bad := add.PrepareArgs(json.RawMessage(`{"a":"one","c":3}`))
	fmt.Println(bad.IsError)
	fmt.Println(bad.Content[0].(*tool.Text).Text)
	// Output:
	// true
	// invalid arguments for tool add:
	// - (root): Required property 'b' is missing (required)
	// - /a: Value is string but should be integer (type)
	// - /c: additional property is not allowed (additionalProperties)
}

func ExampleTool_CheckResult() {
	t := &tool.Tool{
		Name:         "count",
		OutputSchema: json.RawMessage(`{"type":"integer","minimum":0}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return &tool.Result{Structured: -1}, nil
		},
	}
	res, _ := t.Handler(context.Background(), nil)
	sent, err := t.CheckResult(res)
	fmt.Println(sent.IsError)
	fmt.Println(sent.Content[0].(*tool.Text).Text)
	fmt.Println(err != nil)
	// Output:
	// true
	// tool count returned a result that breaks its contract, so it was not sent (this is a bug in the tool, not in the call):
	// - structuredContent does not match the output schema:
	//   - (root): -1 should be at least 0 (minimum)
	// true
}

func ExampleNewText() {
	b := tool.NewText("Build finished.", tool.Audience("user"), tool.Priority(0.9),
		tool.LastModified(time.Date(2025, 1, 12, 15, 0, 58, 0, time.UTC)))
	out, _ := json.Marshal(b)
	fmt.Println(string(out))
	// Output: {"type":"text","text":"Build finished.","annotations":{"audience":["user"],"priority":0.9,"lastModified":"2025-01-12T15:00:58Z"}}
}

func ExampleNewImage() {
	b := tool.NewImage([]byte("\x89PNG\r\n\x1a\n"), "image/png")
	out, _ := json.Marshal(b)
	fmt.Println(string(out), tool.CheckContent(b))
	// Output: {"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"} <nil>
}

func ExampleNewAudio() {
	b := tool.NewAudio([]byte("RIFF"), "audio/wav")
	out, _ := json.Marshal(b)
	fmt.Println(string(out))
	// Output: {"type":"audio","data":"UklGRg==","mimeType":"audio/wav"}
}

func ExampleNewResourceLink() {
	b := tool.NewResourceLink("file:///project/README.md", "README.md",
		tool.LinkMimeType("text/markdown"), tool.LinkSize(2048))
	out, _ := json.Marshal(b)
	fmt.Println(string(out))
	fmt.Println(tool.CheckContent(tool.NewResourceLink("README.md", "README.md")))
	// Output:
	// {"type":"resource_link","uri":"file:///project/README.md","name":"README.md","mimeType":"text/markdown","size":2048}
	// resource_link: uri "README.md" is not absolute (it needs a scheme, such as file: or https:)
}

func ExampleNewEmbeddedText() {
	b := tool.NewEmbeddedText("test://notes", "text/plain", "Remember the milk.")
	out, _ := json.Marshal(b)
	fmt.Println(string(out))
	// Output: {"type":"resource","resource":{"uri":"test://notes","mimeType":"text/plain","text":"Remember the milk."}}
}

func ExampleNewEmbeddedBlob() {
	b := tool.NewEmbeddedBlob("test://data.bin", "application/octet-stream", []byte{0, 1, 2})
	out, _ := json.Marshal(b)
	fmt.Println(string(out))
	// Output: {"type":"resource","resource":{"uri":"test://data.bin","mimeType":"application/octet-stream","blob":"AAEC"}}
}

func ExampleMetaResult() {
	probe := tool.MustNew("guarded", "", func(context.Context, struct{}) (int, error) { return 1, nil })
	res, err := probe.CheckResult(tool.MetaResult(map[string]any{"com.example/allowed": true}))
	fmt.Println(len(res.Content), res.Meta, err)
	// Output: 0 map[com.example/allowed:true] <nil>
}
