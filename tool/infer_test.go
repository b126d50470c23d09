package tool_test

import (
	"context"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// noop returns a typed handler that returns the zero Out.
func noop[In, Out any]() func(context.Context, In) (Out, error) {
	return func(context.Context, In) (Out, error) {
		var out Out
		return out, nil
	}
}

type inferBasic struct {
	Name  string   `json:"name"`
	Count int      `json:"count,omitempty"`
	Ptr   *string  `json:"ptr"`
	Tags  []string `json:"tags,omitempty"`
	skip  int
	Dash  int `json:"-"`
}

type inferTags struct {
	City  string  `json:"city" description:"City name."`
	Unit  string  `json:"unit,omitempty" jsonschema:"enum=metric|imperial" default:"metric"`
	Days  int     `json:"days,omitempty" jsonschema:"minimum=1,maximum=14" default:"3"`
	Ratio float64 `json:"ratio,omitempty" jsonschema:"exclusiveMinimum=0,maximum=1"`
	Code  string  `json:"code,omitempty" pattern:"^[A-Z]{3}$"`
	Mail  string  `json:"mail,omitempty" format:"email"`
}

type inferNested struct {
	Owner struct {
		ID string `json:"id"`
	} `json:"owner"`
	Points [][2]float64      `json:"points,omitempty"`
	Labels map[string]string `json:"labels,omitempty"`
	When   time.Time         `json:"when,omitempty"`
}

type inferTree struct {
	Value int         `json:"value"`
	Kids  []inferTree `json:"kids,omitempty"`
}

type inferForest struct {
	Trees []*inferBranch `json:"trees"`
}

type inferBranch struct {
	Leaf string       `json:"leaf"`
	Next *inferBranch `json:"next,omitempty"`
}

type inferOut struct {
	OK    bool     `json:"ok"`
	Notes []string `json:"notes,omitempty"`
}

func TestNewInfersSchemas(t *testing.T) {
	tests := []struct {
		name       string
		build      func() tool.Tool
		wantIn     string
		wantOut    string // "" for no output schema
		wantNoNull bool
	}{
		{
			name:  "required follows omitempty and pointers, strict by default",
			build: func() tool.Tool { return tool.New("t", "", noop[inferBasic, *tool.Result]()) },
			wantIn: `{"type":"object","properties":{"name":{"type":"string"},"count":{"type":"integer"},` +
				`"ptr":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},` +
				`"required":["name"],"additionalProperties":false}`,
			wantNoNull: true,
		},
		{
			name: "relaxed inference",
			build: func() tool.Tool {
				return tool.New("t", "", noop[inferBasic, *tool.Result](), tool.AllowAdditionalProperties())
			},
			wantIn: `{"type":"object","properties":{"name":{"type":"string"},"count":{"type":"integer"},` +
				`"ptr":{"type":"string"},"tags":{"type":"array","items":{"type":"string"}}},"required":["name"]}`,
		},
		{
			name:  "descriptions, enums, bounds, patterns, formats and defaults from tags",
			build: func() tool.Tool { return tool.New("t", "", noop[inferTags, *tool.Result]()) },
			wantIn: `{"type":"object","properties":{"city":{"type":"string","description":"City name."},` +
				`"unit":{"type":"string","enum":["metric","imperial"],"default":"metric"},` +
				`"days":{"type":"integer","minimum":1,"maximum":14,"default":3},` +
				`"ratio":{"type":"number","exclusiveMinimum":0,"maximum":1},` +
				`"code":{"type":"string","pattern":"^[A-Z]{3}$"},"mail":{"type":"string","format":"email"}},` +
				`"required":["city"],"additionalProperties":false}`,
		},
		{
			name:  "nested structs, arrays, slices, maps and time",
			build: func() tool.Tool { return tool.New("t", "", noop[inferNested, *tool.Result]()) },
			wantIn: `{"type":"object","properties":{"owner":{"type":"object","properties":{"id":{"type":"string"}},"required":["id"],"additionalProperties":false},` +
				`"points":{"type":"array","items":{"type":"array","items":{"type":"number"},"minItems":2,"maxItems":2}},` +
				`"labels":{"type":"object","additionalProperties":{"type":"string"}},` +
				`"when":{"type":"string","format":"date-time"}},"required":["owner"],"additionalProperties":false}`,
		},
		{
			name:  "recursive root type",
			build: func() tool.Tool { return tool.New("t", "", noop[inferTree, *tool.Result]()) },
			wantIn: `{"type":"object","properties":{"value":{"type":"integer"},"kids":{"type":"array","items":{"$ref":"#"}}},` +
				`"required":["value"],"additionalProperties":false}`,
		},
		{
			name:  "recursive nested type through $defs",
			build: func() tool.Tool { return tool.New("t", "", noop[inferForest, *tool.Result]()) },
			wantIn: `{"type":"object","properties":{"trees":{"type":"array","items":{"$ref":"#/$defs/inferBranch"}}},"required":["trees"],"additionalProperties":false,` +
				`"$defs":{"inferBranch":{"type":"object","properties":{"leaf":{"type":"string"},"next":{"$ref":"#/$defs/inferBranch"}},"required":["leaf"],"additionalProperties":false}}}`,
		},
		{
			name:    "output schema inferred from a struct",
			build:   func() tool.Tool { return tool.New("t", "", noop[struct{}, inferOut]()) },
			wantIn:  `{"type":"object","additionalProperties":false}`,
			wantOut: `{"type":"object","properties":{"ok":{"type":"boolean"},"notes":{"type":"array","items":{"type":"string"}}},"required":["ok"],"additionalProperties":false}`,
		},
		{
			name:    "output schema of any JSON type",
			build:   func() tool.Tool { return tool.New("t", "", noop[struct{}, []string]()) },
			wantIn:  `{"type":"object","additionalProperties":false}`,
			wantOut: `{"type":"array","items":{"type":"string"}}`,
		},
		{
			name:    "scalar output",
			build:   func() tool.Tool { return tool.New("t", "", noop[struct{}, float64]()) },
			wantIn:  `{"type":"object","additionalProperties":false}`,
			wantOut: `{"type":"number"}`,
		},
		{
			name:   "raw arguments",
			build:  func() tool.Tool { return tool.New("t", "", noop[json.RawMessage, *tool.Result]()) },
			wantIn: `{"type":"object"}`,
		},
		{
			name:   "map arguments",
			build:  func() tool.Tool { return tool.New("t", "", noop[map[string]any, *tool.Result]()) },
			wantIn: `{"type":"object","additionalProperties":{}}`,
		},
		{
			name: "explicit schemas win",
			build: func() tool.Tool {
				return tool.New("t", "", noop[inferBasic, inferOut](),
					tool.WithInputSchema(json.RawMessage(`{"type":"object","properties":{"name":{"type":"string","maxLength":3}}}`)),
					tool.WithOutputSchema(json.RawMessage(`{"type":"object"}`)))
			},
			wantIn:  `{"type":"object","properties":{"name":{"type":"string","maxLength":3}}}`,
			wantOut: `{"type":"object"}`,
		},
		{
			name: "explicit output schema on a *Result handler",
			build: func() tool.Tool {
				return tool.New("t", "", noop[struct{}, *tool.Result](), tool.WithOutputSchema(json.RawMessage(`{"type":"string"}`)))
			},
			wantIn:  `{"type":"object","additionalProperties":false}`,
			wantOut: `{"type":"string"}`,
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := compile(tt.build())
			if err != nil {
				t.Fatal(err)
			}
			if got := string(tl.InputSchema); got != tt.wantIn {
				t.Errorf("input schema:\n got %s\nwant %s", got, tt.wantIn)
			}
			if got := string(tl.OutputSchema); got != tt.wantOut {
				t.Errorf("output schema:\n got %s\nwant %s", got, tt.wantOut)
			}
			if tt.wantNoNull && strings.Contains(string(tl.InputSchema), "null") {
				t.Errorf("inference emitted a null type: %s", tl.InputSchema)
			}
		})
	}
}

func TestNewDescriptorOptions(t *testing.T) {
	ann := &tool.Annotations{ReadOnlyHint: new(true)}
	icon := tool.Icon{Src: "https://example.com/i.png", MimeType: "image/png"}
	meta := map[string]any{"com.example/k": "v"}
	tl := tool.New("described", "Does things.", noop[struct{}, *tool.Result](),
		tool.WithTitle("Described"), tool.WithAnnotations(ann), tool.WithIcons(icon), tool.WithMeta(meta))
	if tl.Name != "described" || tl.Description != "Does things." || tl.Title != "Described" {
		t.Errorf("name/description/title = %q/%q/%q", tl.Name, tl.Description, tl.Title)
	}
	if tl.Annotations != ann || len(tl.Icons) != 1 || tl.Icons[0].Src != icon.Src || tl.Meta["com.example/k"] != "v" {
		t.Errorf("annotations/icons/meta not set: %+v %+v %+v", tl.Annotations, tl.Icons, tl.Meta)
	}
	if tl.Handler == nil {
		t.Error("no handler")
	}
}

type badTag struct {
	N int `json:"n" jsonschema:"minLength=1"`
}

func TestNewInferenceErrors(t *testing.T) {
	tests := []struct {
		name  string
		build func() tool.Tool
		want  string
	}{
		{"unrepresentable input", func() tool.Tool {
			return tool.New("t", "", noop[struct{ C chan int }, *tool.Result]())
		}, `tool "t": input schema: schema:`},
		{"bad struct tag", func() tool.Tool { return tool.New("t", "", noop[badTag, *tool.Result]()) },
			`tool "t": input schema: schema:`},
		{"unrepresentable output", func() tool.Tool { return tool.New("t", "", noop[struct{}, func()]()) },
			`tool "t": output schema: schema:`},
		{"non-object input type", func() tool.Tool { return tool.New("t", "", noop[int, *tool.Result]()) },
			`tool "t": input schema: the root must declare "type": "object"`},
		{"nil handler", func() tool.Tool { return tool.New[struct{}, *tool.Result]("t", "", nil) },
			`tool "t" has no handler`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			tl, err := compile(tt.build())
			if err == nil || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("New = %v, %v; want an error containing %q", tl, err, tt.want)
			}
		})
	}
}

func TestNewReportsAtRegistration(t *testing.T) {
	tl := tool.New("bad name", "", noop[struct{}, *tool.Result]())
	if tl.Err() != nil {
		t.Errorf("Err() = %v; a bad name is the server's to report", tl.Err())
	}
	if _, err := compile(tl); err == nil || !strings.Contains(err.Error(), "is invalid") {
		t.Errorf("compile = %v, want the name error", err)
	}
	bad := tool.New("t", "", noop[struct{ C chan int }, *tool.Result]())
	if bad.Err() == nil || bad.InputSchema != nil || bad.Handler != nil {
		t.Errorf("New of an unfillable In: Err %v, schema %s, handler set %v", bad.Err(), bad.InputSchema, bad.Handler != nil)
	}
	if _, err := compile(bad); err == nil || err.Error() != bad.Err().Error() {
		t.Errorf("compile = %v, want %v", err, bad.Err())
	}
	if nilFn := tool.New[struct{}, int]("t", "", nil); nilFn.Err() == nil {
		t.Error("New with a nil function has no Err")
	}
}
