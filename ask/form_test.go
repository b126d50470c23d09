package ask

import (
	"bytes"
	"encoding/json"
	"reflect"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/protocol"
)

// formJSON returns the form of t as indented JSON, failing the test on an
// error.
func formJSON(t *testing.T, typ reflect.Type) string {
	t.Helper()
	form, err := formFor(typ)
	if err != nil {
		t.Fatalf("formFor(%s): %v", typ, err)
	}
	raw, err := json.Marshal(form)
	if err != nil {
		t.Fatalf("marshal: %v", err)
	}
	return indent(t, raw)
}

// indent re-indents a JSON document, for comparing documents.
func indent(t *testing.T, raw []byte) string {
	t.Helper()
	var v any
	if err := json.Unmarshal(raw, &v); err != nil {
		t.Fatalf("not JSON: %v\n%s", err, raw)
	}
	out, _ := json.MarshalIndent(v, "", "  ")
	return string(out)
}

// conformanceDefaults is the form of the elicitation-sep1034-defaults
// conformance scenario.
type conformanceDefaults struct {
	Name     string  `json:"name,omitempty" jsonschema:"default=John Doe"`
	Age      int     `json:"age,omitempty" jsonschema:"default=30"`
	Score    float64 `json:"score,omitempty" jsonschema:"default=95.5"`
	Status   string  `json:"status,omitempty" jsonschema:"enum=active|inactive|pending,default=active"`
	Verified bool    `json:"verified,omitempty" jsonschema:"default=true"`
}

// conformanceEnums is the form of the elicitation-sep1330-enums
// conformance scenario, less its legacy enumNames field.
type conformanceEnums struct {
	UntitledSingle string   `json:"untitledSingle,omitempty" jsonschema:"enum=option1|option2|option3"`
	TitledSingle   string   `json:"titledSingle,omitempty" jsonschema:"enum=value1|value2|value3" titles:"First Option|Second Option|Third Option"`
	UntitledMulti  []string `json:"untitledMulti,omitempty" jsonschema:"enum=option1|option2|option3,minItems=1,maxItems=3"`
	TitledMulti    []string `json:"titledMulti,omitempty" jsonschema:"enum=value1|value2|value3" titles:"First Choice|Second Choice|Third Choice"`
}

func TestFormOfConformanceShapes(t *testing.T) {
	tests := []struct {
		name string
		typ  reflect.Type
		want string
	}{
		{"defaults", reflect.TypeFor[conformanceDefaults](), `{"type":"object","properties":{
			"name":{"type":"string","default":"John Doe"},
			"age":{"type":"integer","default":30},
			"score":{"type":"number","default":95.5},
			"status":{"type":"string","enum":["active","inactive","pending"],"default":"active"},
			"verified":{"type":"boolean","default":true}}}`},
		{"enums", reflect.TypeFor[conformanceEnums](), `{"type":"object","properties":{
			"untitledSingle":{"type":"string","enum":["option1","option2","option3"]},
			"titledSingle":{"type":"string","oneOf":[
				{"const":"value1","title":"First Option"},
				{"const":"value2","title":"Second Option"},
				{"const":"value3","title":"Third Option"}]},
			"untitledMulti":{"type":"array","minItems":1,"maxItems":3,
				"items":{"type":"string","enum":["option1","option2","option3"]}},
			"titledMulti":{"type":"array","items":{"anyOf":[
				{"const":"value1","title":"First Choice"},
				{"const":"value2","title":"Second Choice"},
				{"const":"value3","title":"Third Choice"}]}}}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			got := formJSON(t, tt.typ)
			if want := indent(t, []byte(tt.want)); got != want {
				t.Errorf("form:\n%s\nwant:\n%s", got, want)
			}
			// The form decodes back into the variants it was built from.
			var back protocol.RequestedSchema
			if err := json.Unmarshal([]byte(got), &back); err != nil {
				t.Fatalf("decode: %v", err)
			}
			again, _ := json.Marshal(back)
			if indent(t, again) != got {
				t.Errorf("round trip changed the form:\n%s", again)
			}
		})
	}
}

// profile exercises every field kind, title, description and bound.
type profile struct {
	Email    string    `json:"email" title:"Email" description:"Where we write to" jsonschema:"format=email,minLength=3,maxLength=80"`
	Site     *string   `json:"site" jsonschema:"format=uri"`
	Born     string    `json:"born,omitzero" jsonschema:"your birthday" format:"date"`
	Seen     time.Time `json:"seen"`
	Level    int8      `json:"level" title:"Level"`
	Count    uint      `json:"count,omitempty" jsonschema:"maximum=10"`
	Ratio    float64   `json:"ratio" jsonschema:"minimum=0,maximum=1"`
	Size     string    `json:"size" title:"Size" jsonschema:"enum=s|m|l" titles:"Small|Medium|Large, roomy"`
	Tags     []string  `json:"tags,omitempty" title:"Tags" description:"Pick some" jsonschema:"enum=a|b,maxItems=2" titles:"A|B" default:"[\"a\"]"`
	Agree    bool      `json:"agree" title:"I agree"`
	Quoted   int       `json:"quoted,string"`
	Ignored  string    `json:"-"`
	internal string
}

func TestFormOfKinds(t *testing.T) {
	want := `{"type":"object","properties":{
		"email":{"type":"string","title":"Email","description":"Where we write to","minLength":3,"maxLength":80,"format":"email"},
		"site":{"type":"string","format":"uri"},
		"born":{"type":"string","description":"your birthday","format":"date"},
		"seen":{"type":"string","format":"date-time"},
		"level":{"type":"integer","title":"Level","minimum":-128,"maximum":127},
		"count":{"type":"integer","minimum":0,"maximum":10},
		"ratio":{"type":"number","minimum":0,"maximum":1},
		"size":{"type":"string","title":"Size","oneOf":[{"const":"s","title":"Small"},{"const":"m","title":"Medium"},{"const":"l","title":"Large, roomy"}]},
		"tags":{"type":"array","title":"Tags","description":"Pick some","maxItems":2,"items":{"anyOf":[{"const":"a","title":"A"},{"const":"b","title":"B"}]},"default":["a"]},
		"agree":{"type":"boolean","title":"I agree"},
		"quoted":{"type":"string"}},
		"required":["email","seen","level","ratio","size","agree","quoted"]}`
	if got := formJSON(t, reflect.TypeFor[*profile]()); got != indent(t, []byte(want)) {
		t.Errorf("form:\n%s\nwant:\n%s", got, indent(t, []byte(want)))
	}
}

func TestFormOfEmbedded(t *testing.T) {
	type Base struct {
		ID string `json:"id"`
	}
	type withBase struct {
		Base
		*profileNote
		Name string `json:"name"`
	}
	want := `{"type":"object","properties":{"id":{"type":"string"},"note":{"type":"string"},"name":{"type":"string"}},"required":["id","name"]}`
	if got := formJSON(t, reflect.TypeFor[withBase]()); got != indent(t, []byte(want)) {
		t.Errorf("form:\n%s\nwant:\n%s", got, indent(t, []byte(want)))
	}
}

// profileNote is embedded through a pointer: its fields are optional.
type profileNote struct {
	Note string `json:"note"`
}

func TestFormOfCopies(t *testing.T) {
	a, err := FormOf[conformanceDefaults]()
	if err != nil {
		t.Fatal(err)
	}
	a.Properties["name"].String.Title = "changed"
	a.Required = append(a.Required, "x")
	delete(a.Properties, "age")
	b, _ := FormOf[conformanceDefaults]()
	if b.Properties["name"].String.Title != "" || len(b.Required) != 0 || b.Properties["age"].Number == nil {
		t.Errorf("changing one form changed the next: %+v", b)
	}
}

func TestFormOfConcurrent(t *testing.T) {
	type fresh struct {
		A string `json:"a"`
	}
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := FormOf[fresh](); err != nil {
				t.Error(err)
			}
			if _, err := FormOf[map[string]int](); err == nil {
				t.Error("a map gave a form")
			}
		})
	}
	wg.Wait()
}

// marshals has its own JSON encoding.
type marshals struct{}

// MarshalJSON encodes nothing in particular.
func (marshals) MarshalJSON() ([]byte, error) { return []byte("{}"), nil }

func TestFormOfRefusals(t *testing.T) {
	type inner struct{ X string } // a struct to nest
	tests := []struct {
		name string
		typ  any // a pointer to a zero value of the type
		want []string
	}{
		{"not a struct", new(int), []string{"from a struct, not from int"}},
		{"pointer to a map", new(*map[string]string), []string{"from a struct, not from *map[string]string"}},
		{"nested struct", new(struct {
			In inner `json:"in"`
		}), []string{`field "in"`, "nested struct"}},
		{"pointer to struct", new(struct {
			In *inner `json:"in"`
		}), []string{`field "in"`, "nested struct"}},
		{"map", new(struct {
			M map[string]string `json:"m"`
		}), []string{`field "m"`, "a map"}},
		{"interface", new(struct {
			V any `json:"v"`
		}), []string{`field "v"`, "an interface"}},
		{"slice of ints", new(struct {
			N []int `json:"n" jsonschema:"enum=1|2"`
		}), []string{`field "n"`, "a slice of int"}},
		{"bytes", new(struct {
			B []byte `json:"b"`
		}), []string{`field "b"`, "a slice of uint8"}},
		{"slice of pointers", new(struct {
			P []*string `json:"p"`
		}), []string{`field "p"`, "a slice of *string"}},
		{"array", new(struct {
			A [2]string `json:"a"`
		}), []string{`field "a"`, "an array"}},
		{"chan", new(struct {
			C chan int `json:"c"`
		}), []string{`field "c"`, "a chan cannot be a form field"}},
		{"own JSON", new(struct {
			M marshals `json:"m"`
		}), []string{`field "m"`, "own JSON encoding"}},
		{"raw JSON", new(struct {
			R json.RawMessage `json:"r"`
		}), []string{`field "r"`, "own JSON encoding"}},
		{"strings without enum", new(struct {
			S []string `json:"s"`
		}), []string{`field "s"`, "needs its choices"}},
		{"nullable", new(struct {
			S string `json:"s" jsonschema:"nullable"`
		}), []string{`field "s"`, "cannot be null"}},
		{"pattern", new(struct {
			S string `json:"s" jsonschema:"pattern=^a"`
		}), []string{`field "s"`, "pattern is not in an elicitation form's string field"}},
		{"exclusive bound", new(struct {
			N int `json:"n" jsonschema:"exclusiveMinimum=0"`
		}), []string{`field "n"`, "exclusiveMinimum", "use minimum and maximum"}},
		{"integer enum", new(struct {
			N int `json:"n" jsonschema:"enum=1|2"`
		}), []string{`field "n"`, "enum on a integer field"}},
		{"boolean enum", new(struct {
			B bool `json:"b" jsonschema:"enum=true"`
		}), []string{`field "b"`, "enum on a boolean field"}},
		{"format", new(struct {
			S string `json:"s" format:"hostname"`
		}), []string{`field "s"`, `format "hostname"`}},
		{"length of a choice", new(struct {
			S string `json:"s" jsonschema:"enum=a|b,maxLength=1"`
		}), []string{`field "s"`, "maxLength does not apply to a choice"}},
		{"length of the choices", new(struct {
			S []string `json:"s" jsonschema:"enum=a|b,maxLength=1"`
		}), []string{`field "s"`, "maxLength does not apply to the choices"}},
		{"choice twice", new(struct {
			S string `json:"s" jsonschema:"enum=a|b|a"`
		}), []string{`field "s"`, `the choice "a" is listed twice`}},
		{"default not a choice", new(struct {
			S string `json:"s" jsonschema:"enum=a|b,default=c"`
		}), []string{`field "s"`, `the default "c" is not one of the choices`}},
		{"defaults not choices", new(struct {
			S []string `json:"s" jsonschema:"enum=a|b" default:"[\"a\",\"z\"]"`
		}), []string{`field "s"`, `the default "z" is not one of the choices`}},
		{"titles without enum", new(struct {
			S string `json:"s" titles:"A|B"`
		}), []string{`field "s"`, "has none"}},
		{"titles on a number", new(struct {
			N int `json:"n" titles:"One"`
		}), []string{`field "n"`, "has none"}},
		{"too few titles", new(struct {
			S string `json:"s" jsonschema:"enum=a|b|c" titles:"A|B"`
		}), []string{`field "s"`, "2 titles for 3 enum values"}},
		{"empty title", new(struct {
			S []string `json:"s" jsonschema:"enum=a|b" titles:"A|"`
		}), []string{`field "s"`, `the choice "b" an empty title`}},
		{"bad tag", new(struct {
			N int `json:"n" jsonschema:"minimum=low"`
		}), []string{"schema:", ".N", `minimum="low" is not a number`}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			typ := reflect.TypeOf(tt.typ).Elem()
			form, err := formFor(typ)
			if err == nil {
				t.Fatalf("formFor(%s) = %+v, want an error", typ, form)
			}
			for _, w := range tt.want {
				if !strings.Contains(err.Error(), w) {
					t.Errorf("error %q does not contain %q", err, w)
				}
			}
			if _, again := formFor(typ); again == nil || again.Error() != err.Error() {
				t.Errorf("second call: %v, want the same error", again)
			}
		})
	}
}

func TestFormOfNilType(t *testing.T) {
	if _, err := formFor(nil); err == nil {
		t.Error("formFor(nil) gave a form")
	}
}

func TestFormOfEmpty(t *testing.T) {
	form, err := FormOf[struct{}]()
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := json.Marshal(form)
	if !bytes.Equal(raw, []byte(`{"type":"object","properties":{}}`)) {
		t.Errorf("empty form: %s", raw)
	}
}
