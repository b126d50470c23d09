package protocol

import (
	"reflect"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

func TestContentBlockDecode(t *testing.T) {
	tests := []struct {
		name string
		in   string
		want ContentBlock
	}{
		{
			name: "text",
			in:   `{"type":"text","text":"hi","_meta":{"k":1}}`,
			want: ContentBlock{Text: &TextContent{Text: "hi", Meta: Meta{"k": json.RawMessage(`1`)}}},
		},
		{
			name: "image",
			in:   `{"type":"image","data":"AAAA","mimeType":"image/png","annotations":{"audience":["user"],"priority":0.5}}`,
			want: ContentBlock{Image: &ImageContent{Data: "AAAA", MimeType: "image/png",
				Annotations: &Annotations{Audience: []Role{RoleUser}, Priority: ptr(0.5)}}},
		},
		{
			name: "audio",
			in:   `{"type":"audio","data":"UklG","mimeType":"audio/wav"}`,
			want: ContentBlock{Audio: &AudioContent{Data: "UklG", MimeType: "audio/wav"}},
		},
		{
			name: "resource_link",
			in:   `{"type":"resource_link","uri":"file:///a.rs","name":"a.rs","size":12}`,
			want: ContentBlock{ResourceLink: &ResourceLink{URI: "file:///a.rs", Name: "a.rs", Size: ptr(int64(12))}},
		},
		{
			name: "embedded text resource",
			in:   `{"type":"resource","resource":{"uri":"file:///a.txt","text":""}}`,
			want: ContentBlock{Resource: &EmbeddedResource{Resource: ResourceContents{
				Text: &TextResourceContents{URI: "file:///a.txt"}}}},
		},
		{
			name: "embedded blob resource",
			in:   `{"type":"resource","resource":{"uri":"file:///a.png","blob":"AA==","mimeType":"image/png"}}`,
			want: ContentBlock{Resource: &EmbeddedResource{Resource: ResourceContents{
				Blob: &BlobResourceContents{URI: "file:///a.png", Blob: "AA==", MimeType: "image/png"}}}},
		},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			var got ContentBlock
			if err := json.Unmarshal([]byte(tt.in), &got); err != nil {
				t.Fatal(err)
			}
			if diff := cmp.Diff(tt.want, got); diff != "" {
				t.Errorf("decoded block differs (-want +got):\n%s", diff)
			}
			if got.Type() != tt.name && !strings.HasPrefix(tt.name, "embedded") {
				t.Errorf("Type() = %q, want %q", got.Type(), tt.name)
			}
			encodesAs(t, got, []byte(tt.in))
		})
	}
}

func TestContentBlockDecodeErrors(t *testing.T) {
	tests := []struct {
		name, in, wantErr string
	}{
		{"unknown type", `{"type":"video","data":"AA=="}`, `unknown content block type "video"`},
		{"sampling-only type", `{"type":"tool_use","id":"1","name":"n","input":{}}`, `unknown content block type "tool_use"`},
		{"missing type", `{"text":"hi"}`, "content block type is missing"},
		{"type not a string", `{"type":1,"text":"hi"}`, "type must be a string"},
		{"type differs in case", `{"Type":"text","text":"hi"}`, "content block type is missing"},
		{"not an object", `["text"]`, "want a JSON object"},
		{"bad member", `{"type":"text","text":5}`, "cannot unmarshal"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			decodeFails(t, tt.in, new(ContentBlock), tt.wantErr)
		})
	}
}

func TestContentBlockEncode(t *testing.T) {
	tests := []struct {
		name    string
		in      ContentBlock
		want    string
		wantErr string
	}{
		{"text helper", TextBlock("hello"), `{"type":"text","text":"hello"}`, ""},
		{"empty text keeps text", ContentBlock{Text: &TextContent{}}, `{"type":"text","text":""}`, ""},
		{"image", ContentBlock{Image: &ImageContent{Data: "AA==", MimeType: "image/png"}},
			`{"type":"image","data":"AA==","mimeType":"image/png"}`, ""},
		{"resource link", ContentBlock{ResourceLink: &ResourceLink{URI: "https://x/y", Name: "y"}},
			`{"type":"resource_link","uri":"https://x/y","name":"y"}`, ""},
		{"no variant", ContentBlock{}, "", "content block has no variant set"},
		{"two variants", ContentBlock{Text: &TextContent{}, Audio: &AudioContent{}}, "",
			"content block has more than one variant set"},
		{"embedded resource without contents", ContentBlock{Resource: &EmbeddedResource{}}, "",
			"resource contents has no variant set"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) { encodeCase(t, tt.in, tt.want, tt.wantErr) })
	}
}

// TestVariantTypeChecked shows that a variant type decoded on its own
// refuses a block of another type.
func TestVariantTypeChecked(t *testing.T) {
	decodeFails(t, `{"type":"image","text":"hi"}`, new(TextContent), `type is "image", want "text"`)
	var r ResourceLink
	if err := json.Unmarshal([]byte(`{"uri":"a","name":"b"}`), &r); err == nil {
		t.Fatal("a resource link without type decoded")
	}
}

// TestPlainTypedVariantsChecked shows that variant types whose
// discriminator is a field still refuse a value of another variant.
func TestPlainTypedVariantsChecked(t *testing.T) {
	var n NumberSchema
	if err := json.Unmarshal([]byte(`{"type":"string"}`), &n); err == nil {
		t.Error("a string schema decoded as a number schema")
	}
	var f ElicitRequestFormParams
	if err := json.Unmarshal([]byte(`{"mode":"url","message":"m","url":"https://x"}`), &f); err == nil {
		t.Error("URL params decoded as form params")
	}
}

// Every variant of ContentBlock encodes alone and decodes back into its
// own field: a new block type added as a field but left out of the
// union's encoding fails here.
func TestContentBlockEveryVariant(t *testing.T) {
	u := reflect.TypeFor[ContentBlock]()
	for i := range u.NumField() {
		c := reflect.New(u.Field(i).Type.Elem()).Interface().(Content)
		if e, ok := c.(*EmbeddedResource); ok {
			e.Resource.Text = &TextResourceContents{URI: "a:b"}
		}
		b := BlockOf(c)
		if b.Content() != c || b.Type() != c.ContentType() {
			t.Fatalf("%s: BlockOf/Content do not round-trip", c.ContentType())
		}
		data, err := json.Marshal(b)
		if err != nil {
			t.Fatalf("%s: %v", c.ContentType(), err)
		}
		var got ContentBlock
		if err := json.Unmarshal(data, &got); err != nil {
			t.Fatalf("%s: %v", c.ContentType(), err)
		}
		if got.Type() != c.ContentType() || reflect.ValueOf(got).Field(i).IsNil() {
			t.Errorf("%s decoded as %+v", data, got)
		}
	}
}

// TestTagsOfZeroValues shows that a variant built without its tag, as a
// user builds it, still encodes with it, and that decoding refuses another
// value.
func TestTagsOfZeroValues(t *testing.T) {
	encodeCase(t, &TextContent{Text: "x"}, `{"type":"text","text":"x"}`, "")
	encodeCase(t, ImageContent{}, `{"type":"image","data":"","mimeType":""}`, "")
	encodeCase(t, ElicitRequestURLParams{Message: "m", URL: "u"}, `{"mode":"url","message":"m","url":"u"}`, "")
	encodeCase(t, BooleanSchema{}, `{"type":"boolean"}`, "")
	decodeFails(t, `{"type":"image","text":"x"}`, new(TextContent), `type is "image", want "text"`)
	decodeFails(t, `{"type":1,"text":"x"}`, new(TextContent), "type must be a string")
	decodeFails(t, `{"mode":"form","message":"m"}`, new(ElicitRequestURLParams), `mode is "form", want "url"`)
}
