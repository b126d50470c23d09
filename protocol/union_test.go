package protocol

import (
	"reflect"
	"testing"

	json "github.com/goccy/go-json"
)

// variantCase is one input for a union and the variant it must decode to
// (by the name of the set field), or the error it must give.
type variantCase struct {
	name    string
	in      string
	variant string
	wantErr string
}

// setField returns the name of the one non-nil pointer field of the union
// struct u points to, or "" when none or several are set.
func setField(t *testing.T, u any) string {
	t.Helper()
	v := reflect.ValueOf(u).Elem()
	name := ""
	for i := range v.NumField() {
		if v.Field(i).IsNil() {
			continue
		}
		if name != "" {
			return ""
		}
		name = v.Type().Field(i).Name
	}
	return name
}

// runVariants decodes each case into a fresh U, checks the variant chosen
// and that the value encodes back to the same JSON.
func runVariants[U any](t *testing.T, cases []variantCase) {
	t.Helper()
	for _, tt := range cases {
		t.Run(tt.name, func(t *testing.T) {
			var u U
			if tt.wantErr != "" {
				decodeFails(t, tt.in, &u, tt.wantErr)
				return
			}
			if err := json.Unmarshal([]byte(tt.in), &u); err != nil {
				t.Fatal(err)
			}
			if got := setField(t, &u); got != tt.variant {
				t.Errorf("variant %q, want %q", got, tt.variant)
			}
			roundTrip(t, []byte(tt.in), new(U))
		})
	}
}

func TestResourceContentsVariants(t *testing.T) {
	runVariants[ResourceContents](t, []variantCase{
		{name: "text", in: `{"uri":"file:///a","text":"x"}`, variant: "Text"},
		{name: "empty text", in: `{"uri":"file:///a","text":""}`, variant: "Text"},
		{name: "blob", in: `{"uri":"file:///a","blob":"AA==","mimeType":"image/png"}`, variant: "Blob"},
		{name: "both", in: `{"uri":"file:///a","text":"x","blob":"AA=="}`, wantErr: "both text and blob"},
		{name: "neither", in: `{"uri":"file:///a"}`, wantErr: "neither text nor blob"},
	})
}

func TestCompletionReferenceVariants(t *testing.T) {
	runVariants[CompletionReference](t, []variantCase{
		{name: "prompt", in: `{"type":"ref/prompt","name":"p","title":"P"}`, variant: "Prompt"},
		{name: "resource", in: `{"type":"ref/resource","uri":"file:///{path}"}`, variant: "Resource"},
		{name: "unknown", in: `{"type":"ref/tool","name":"t"}`, wantErr: `unknown completion reference type "ref/tool"`},
	})
}

func TestElicitRequestParamsVariants(t *testing.T) {
	const schema = `"requestedSchema":{"type":"object","properties":{"n":{"type":"string"}}}`
	runVariants[ElicitRequestParams](t, []variantCase{
		{name: "form by default", in: `{"message":"m",` + schema + `}`, variant: "Form"},
		{name: "form named", in: `{"mode":"form","message":"m",` + schema + `}`, variant: "Form"},
		{name: "url", in: `{"mode":"url","message":"m","url":"https://x"}`, variant: "URL"},
		{name: "unknown mode", in: `{"mode":"voice","message":"m"}`, wantErr: `unknown elicitation mode "voice"`},
		{name: "schema not an object", in: `{"message":"m","requestedSchema":{"type":"array","properties":{}}}`,
			wantErr: `type is "array", want "object"`},
	})
}

func TestPrimitiveSchemaVariants(t *testing.T) {
	runVariants[PrimitiveSchemaDefinition](t, []variantCase{
		{name: "string", in: `{"type":"string","format":"date","minLength":1}`, variant: "String"},
		{name: "number", in: `{"type":"number","minimum":0.5}`, variant: "Number"},
		{name: "integer", in: `{"type":"integer","maximum":9}`, variant: "Number"},
		{name: "boolean", in: `{"type":"boolean","default":false}`, variant: "Boolean"},
		{name: "untitled single", in: `{"type":"string","enum":["a","b"],"default":""}`, variant: "UntitledSingleSelectEnum"},
		{name: "titled single", in: `{"type":"string","oneOf":[{"const":"a","title":"A"}]}`, variant: "TitledSingleSelectEnum"},
		{name: "legacy titled", in: `{"type":"string","enum":["a"],"enumNames":["A"]}`, variant: "LegacyTitledEnum"},
		{name: "untitled multi", in: `{"type":"array","items":{"type":"string","enum":["a"]},"default":[]}`, variant: "UntitledMultiSelectEnum"},
		{name: "titled multi", in: `{"type":"array","items":{"anyOf":[{"const":"a","title":"A"}]},"maxItems":1}`, variant: "TitledMultiSelectEnum"},
		{name: "object", in: `{"type":"object"}`, wantErr: `unknown primitive schema type "object"`},
		{name: "no type", in: `{"enum":["a"]}`, wantErr: "primitive schema type is missing"},
	})
}

func TestInputRequestVariants(t *testing.T) {
	runVariants[InputRequest](t, []variantCase{
		{name: "elicitation", in: `{"method":"elicitation/create","params":{"mode":"url","message":"m","url":"https://x"}}`, variant: "Elicit"},
		{name: "sampling", in: `{"method":"sampling/createMessage","params":{"messages":[],"maxTokens":1}}`, variant: "CreateMessage"},
		{name: "roots", in: `{"method":"roots/list","params":{}}`, variant: "ListRoots"},
		{name: "roots with params", in: `{"method":"roots/list","params":{"_meta":{"a/b":1}}}`, variant: "ListRoots"},
		{name: "legacy ping", in: `{"method":"ping"}`, wantErr: `unknown input request method "ping"`},
	})
}

// TestInputRequestEncoding shows that an input request encodes its method
// and always its params: roots/list without params decodes as empty ones.
func TestInputRequestEncoding(t *testing.T) {
	var r InputRequest
	if err := json.Unmarshal([]byte(`{"method":"roots/list"}`), &r); err != nil || r.ListRoots == nil {
		t.Fatalf("roots/list without params: %+v, %v", r, err)
	}
	encodeCase(t, r, `{"method":"roots/list","params":{}}`, "")
	encodeCase(t, InputRequest{}, "", "input request has no variant set")
	encodeCase(t, InputRequest{ListRoots: &ListRootsRequestParams{}, CreateMessage: &CreateMessageRequestParams{}}, "", "more than one variant")
}

func TestInputResponseVariants(t *testing.T) {
	runVariants[InputResponse](t, []variantCase{
		{name: "elicitation", in: `{"action":"accept","content":{"n":"x","k":["a"],"b":true,"i":3}}`, variant: "Elicit"},
		{name: "declined", in: `{"action":"decline"}`, variant: "Elicit"},
		{name: "sampling", in: `{"role":"assistant","content":[{"type":"text","text":"t"}],"model":"m"}`, variant: "CreateMessage"},
		{name: "roots", in: `{"roots":[]}`, variant: "ListRoots"},
		{name: "none", in: `{"role":"assistant"}`, wantErr: "exactly one of action, model and roots"},
		{name: "ambiguous", in: `{"action":"accept","roots":[]}`, wantErr: "exactly one of action, model and roots"},
	})
}

func TestOutcomeVariants(t *testing.T) {
	runVariants[Outcome[CallToolResult]](t, []variantCase{
		{name: "complete", in: `{"resultType":"complete","content":[]}`, variant: "Result"},
		{name: "legacy without resultType", in: `{"content":[{"type":"text","text":"t"}]}`, variant: "Result"},
		{name: "input required", in: `{"resultType":"input_required","requestState":"s"}`, variant: "InputRequired"},
		{name: "bad content", in: `{"resultType":"complete","content":[{"type":"tool_use"}]}`, wantErr: "unknown content block type"},
	})
}

func TestSamplingContentForms(t *testing.T) {
	tests := []struct {
		name    string
		in      string
		blocks  int
		asArray bool
	}{
		{"single object", `{"type":"text","text":"t"}`, 1, false},
		{"array of one", `[{"type":"text","text":"t"}]`, 1, true},
		{"array of two", `[{"type":"tool_use","id":"1","name":"n","input":{}},{"type":"tool_result","toolUseId":"1","content":[]}]`, 2, true},
		{"empty array", `[]`, 0, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var c SamplingContent
			if err := json.Unmarshal([]byte(tt.in), &c); err != nil {
				t.Fatal(err)
			}
			if len(c.Blocks) != tt.blocks || c.AsArray != tt.asArray {
				t.Fatalf("got %d blocks, AsArray %v; want %d, %v", len(c.Blocks), c.AsArray, tt.blocks, tt.asArray)
			}
			roundTrip(t, []byte(tt.in), new(SamplingContent))
		})
	}
	var bad SamplingContent
	if err := json.Unmarshal([]byte(`{"type":"resource_link","uri":"a","name":"b"}`), &bad); err == nil {
		t.Error("a resource_link block decoded as sampling content")
	}
	out, err := json.Marshal(SamplingContent{})
	if err != nil || string(out) != "[]" {
		t.Errorf("empty content encodes as %s (%v), want []", out, err)
	}
}
