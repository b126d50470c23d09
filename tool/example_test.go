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
	forecast := tool.New("forecast", "Forecasts the weather.",
		func(_ context.Context, in Args) (Forecast, error) {
			return Forecast{City: in.City, Days: in.Days}, nil
		}, tool.WithTitle("Forecast"))
	fmt.Println(string(forecast.InputSchema))
	fmt.Println(string(forecast.OutputSchema))

	// A server registers it (srv.MustAddTool(forecast)) and answers each
	// call: arguments validated and defaulted, handler run, result checked.
	callTool(forecast, `{"city":"Oslo"}`)
	// Output:
	// {"type":"object","properties":{"city":{"type":"string","description":"City name."},"days":{"type":"integer","minimum":1,"maximum":14,"default":3}},"required":["city"],"additionalProperties":false}
	// {"type":"object","properties":{"city":{"type":"string"},"days":{"type":"integer"}},"required":["city","days"],"additionalProperties":false}
	// {"content":[{"type":"text","text":"{\"city\":\"Oslo\",\"days\":3}"}],"structuredContent":{"city":"Oslo","days":3}}
}

// Arguments that break the input schema never reach the handler: the
// client gets an isError result listing every violation.
func ExampleNew_invalidArguments() {
	add := tool.New("add", "Adds two integers.",
		func(_ context.Context, in struct {
			A int `json:"a"`
			B int `json:"b"`
		}) (int, error) {
			return in.A + in.B, nil
		})
	callTool(add, `{"a":"one","c":3}`)
	// Output:
	// {"content":[{"type":"text","text":"invalid arguments for tool add:\n- (root): the required property \"b\" is missing (required)\n- /a: \"one\" should be an integer, not a string (type)\n- /c: additional property is not allowed (additionalProperties)"}],"isError":true}
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
	list := tool.New("list", "Lists the items.", func(context.Context, struct{}) (Page, error) {
		return Page{}, nil
	})
	callTool(list, `{}`)
	// Output: {"content":[{"type":"text","text":"{\"items\":[],\"labels\":{}}"}],"structuredContent":{"items":[],"labels":{}}}
}

// Arguments are decoded by exact key: with a relaxed schema, which lets
// unknown keys through, a key that differs from a member only in case is
// still refused, never decoded into the member.
func ExampleAllowAdditionalProperties() {
	type Args struct {
		Text string `json:"text,omitempty"`
	}
	echo := tool.New("echo", "Echoes text.", func(_ context.Context, in Args) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}, tool.AllowAdditionalProperties())
	callTool(echo, `{"Text":"hi","extra":1}`)
	// Output:
	// {"content":[{"type":"text","text":"invalid arguments for tool echo:\n- /Text: additional property is not allowed (additionalProperties)"}],"isError":true}
}

func ExampleFail() {
	type Args struct {
		Region string `json:"region"`
	}
	type Report struct {
		Accepted bool   `json:"accepted"`
		Region   string `json:"region"`
	}
	route := tool.New("route", "Plans a route.",
		func(_ context.Context, in Args) (Report, error) {
			if in.Region != "eu-west" {
				// Fail inside the contract: still a conforming Report.
				return Report{Accepted: false, Region: in.Region}, tool.Fail("unknown region %q", in.Region)
			}
			return Report{Accepted: true, Region: in.Region}, nil
		})
	callTool(route, `{"region":"mars"}`)
	// Output:
	// {"content":[{"type":"text","text":"unknown region \"mars\""},{"type":"text","text":"{\"accepted\":false,\"region\":\"mars\"}"}],"structuredContent":{"accepted":false,"region":"mars"},"isError":true}
}

// A result that breaks the tool's own contract is never sent: the client
// gets an isError result naming the violation, and the server logs it.
func ExampleResult_brokenContract() {
	count := tool.Tool{
		Name:         "count",
		OutputSchema: json.RawMessage(`{"type":"integer","minimum":0}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return &tool.Result{Structured: -1}, nil
		},
	}
	callTool(count, `{}`)
	// Output:
	// {"content":[{"type":"text","text":"tool count returned a result that breaks its contract, so it was not sent (this is a bug in the tool, not in the call):\n- structuredContent does not match the output schema:\n  - (root): -1 should be at least 0 (minimum)"}],"isError":true}
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
	fmt.Println(string(out))
	// Output: {"type":"image","data":"iVBORw0KGgo=","mimeType":"image/png"}
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
	// Output:
	// {"type":"resource_link","uri":"file:///project/README.md","name":"README.md","mimeType":"text/markdown","size":2048}
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

// A result with no content that carries only _meta, such as a reply to a
// permission probe, is exempt from the tool's output schema.
func ExampleMetaResult() {
	guarded := tool.Tool{
		Name:         "guarded",
		OutputSchema: json.RawMessage(`{"type":"integer"}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return tool.MetaResult(map[string]any{"com.example/allowed": true}), nil
		},
	}
	callTool(guarded, `{}`)
	// Output: {"content":[],"_meta":{"com.example/allowed":true}}
}
