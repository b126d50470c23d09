package schema

import (
	"errors"
	"reflect"
	"testing"

	json "github.com/goccy/go-json"
)

// tagged is a struct with one field F of type typ, named f (with
// omitempty when optional is set) and carrying tag.
func tagged(typ reflect.Type, optional bool, tag string) reflect.Type {
	name := `json:"f"`
	if optional {
		name = `json:"f,omitempty"`
	}
	return reflect.StructOf([]reflect.StructField{{Name: "F", Type: typ, Tag: reflect.StructTag(name + " " + tag)}})
}

var (
	stringType  = reflect.TypeFor[string]()
	intType     = reflect.TypeFor[int]()
	floatType   = reflect.TypeFor[float64]()
	stringsType = reflect.TypeFor[[]string]()
)

// Every accepted form of the struct tags: today's and invopop/jsonschema's.
func TestTagsAccepted(t *testing.T) {
	tests := []struct {
		name     string
		typ      reflect.Type
		optional bool
		tag      string
		want     string // the property schema of f
		required bool   // whether f is in "required"
	}{
		{"description tag", stringType, false, `description:"the city"`,
			`{"type":"string","description":"the city"}`, true},
		{"bare description", stringType, false, `jsonschema:"the city, or a zip code"`,
			`{"type":"string","description":"the city, or a zip code"}`, true},
		{"description tag wins over bare", stringType, false, `description:"wins" jsonschema:"loses"`,
			`{"type":"string","description":"wins"}`, true},
		{"enum", stringType, false, `jsonschema:"enum=fast|slow"`,
			`{"type":"string","enum":["fast","slow"]}`, true},
		{"integer enum", intType, false, `jsonschema:"enum=1|2"`,
			`{"type":"integer","enum":[1,2]}`, true},
		{"bounds", intType, false, `jsonschema:"minimum=1,maximum=10"`,
			`{"type":"integer","minimum":1,"maximum":10}`, true},
		{"exclusive bounds", floatType, false, `jsonschema:"exclusiveMinimum=0,exclusiveMaximum=1.5"`,
			`{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1.5}`, true},
		{"lengths and format", stringType, false, `jsonschema:"minLength=1,maxLength=9,format=email"`,
			`{"type":"string","minLength":1,"maxLength":9,"format":"email"}`, true},
		{"pattern takes the rest", stringType, false, `jsonschema:"minLength=1, pattern=^a{1,3}\\,$"`,
			`{"type":"string","minLength":1,"pattern":"^a{1,3}\\,$"}`, true},
		{"own tags", stringType, true, `pattern:"^[a,b]$" format:"date" default:"a,b"`,
			`{"type":"string","pattern":"^[a,b]$","format":"date","default":"a,b"}`, false},
		{"array items and length", stringsType, false, `jsonschema:"enum=a|b,minItems=1"`,
			`{"type":"array","items":{"type":"string","enum":["a","b"]},"minItems":1}`, true},
		{"nullable", intType, true, `jsonschema:"nullable"`,
			`{"type":["integer","null"]}`, false},
		{"default", intType, true, `jsonschema:"default=3"`,
			`{"type":"integer","default":3}`, false},

		// invopop/jsonschema's style.
		{"invopop required", stringType, true, `jsonschema:"required"`,
			`{"type":"string"}`, true},
		{"invopop required on a pointer", reflect.TypeFor[*string](), false, `jsonschema:"required,nullable"`,
			`{"type":["string","null"]}`, true},
		{"invopop description", stringType, false, `jsonschema:"required,description=The speed"`,
			`{"type":"string","description":"The speed"}`, true},
		{"invopop description with commas", stringType, false, `jsonschema:"description=fast\\, cheap\\, good,minLength=1"`,
			`{"type":"string","description":"fast, cheap, good","minLength":1}`, true},
		{"invopop description after keywords", stringType, false, `jsonschema:"enum=a|b,description=x"`,
			`{"type":"string","description":"x","enum":["a","b"]}`, true},
		{"description tag wins over description=", stringType, false, `description:"wins" jsonschema:"description=loses"`,
			`{"type":"string","description":"wins"}`, true},
		{"invopop repeated enum", stringType, false, `jsonschema:"enum=fast,enum=slow"`,
			`{"type":"string","enum":["fast","slow"]}`, true},
		{"invopop bounds and default", intType, true, `jsonschema:"minimum=1,maximum=14,default=3"`,
			`{"type":"integer","minimum":1,"maximum":14,"default":3}`, false},
		{"escaped comma in a default", stringType, true, `jsonschema:"default=a\\,b"`,
			`{"type":"string","default":"a,b"}`, false},
		{"escaped comma in an enum", stringType, false, `jsonschema:"enum=a\\,b|c"`,
			`{"type":"string","enum":["a,b","c"]}`, true},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			raw, err := FromType(tagged(tt.typ, tt.optional, tt.tag))
			if err != nil {
				t.Fatal(err)
			}
			var doc struct {
				Properties map[string]json.RawMessage `json:"properties"`
				Required   []string                   `json:"required"`
			}
			if err := json.Unmarshal(raw, &doc); err != nil {
				t.Fatal(err)
			}
			if got := string(doc.Properties["f"]); got != tt.want {
				t.Errorf("property schema\n got %s\nwant %s", got, tt.want)
			}
			if got := len(doc.Required) == 1; got != tt.required {
				t.Errorf("required = %v, want %v (%s)", got, tt.required, raw)
			}
		})
	}
}

// Every refused form, with the exact reason: it names the accepted syntax.
func TestTagsRefused(t *testing.T) {
	const syntax = `the items are key=value with the keys description, enum, minimum, maximum, exclusiveMinimum, exclusiveMaximum, minLength, maxLength, minItems, maxItems, format, default, pattern, and the flags required and nullable, separated by ","`
	tests := []struct {
		name string
		typ  reflect.Type
		tag  string
		want string // the Reason of the *Error
	}{
		{"enum values cut at a comma", stringType, `jsonschema:"enum=fast,slow"`,
			`struct tag: "slow" is neither a key=value item nor a flag (required, nullable): enum values are separated by "|": enum=fast|slow`},
		{"enum values cut at commas", stringType, `jsonschema:"required,enum=a,b,c,minLength=1"`,
			`struct tag: "b" is neither a key=value item nor a flag (required, nullable): enum values are separated by "|": enum=a|b|c`},
		{"description cut at a comma", stringType, `jsonschema:"required,description=fast, cheap"`,
			`struct tag: "cheap" is neither a key=value item nor a flag (required, nullable): a comma inside a value is written \\, in the tag: description=fast\\, cheap`},
		{"default cut at a comma", stringType, `jsonschema:"default=a,b"`,
			`struct tag: "b" is neither a key=value item nor a flag (required, nullable): a comma inside a value is written \\, in the tag: default=a\\,b`},
		{"bare description among items", stringType, `jsonschema:"required,the city"`,
			`struct tag: "the city" is neither a key=value item nor a flag (required, nullable): a description among other items is written description=the city`},
		{"unknown flag", stringType, `jsonschema:"required,deprecated"`,
			`struct tag: "deprecated" is neither a key=value item nor a flag (required, nullable): ` + syntax},
		{"unknown key", stringType, `jsonschema:"title=City"`,
			`struct tag: unknown jsonschema key "title": ` + syntax},
		{"misspelt key", stringType, `jsonschema:"minimun=1"`,
			`struct tag: unknown jsonschema key "minimun": ` + syntax},
		{"required with a value", stringType, `jsonschema:"required=true"`,
			`struct tag: required takes no value: write required alone`},
		{"nullable with a value", stringType, `jsonschema:"nullable=yes"`,
			`struct tag: nullable takes no value: write nullable alone`},
		{"flag then text", stringType, `jsonschema:"nullable, or a name"`,
			`struct tag: "or a name" is neither a key=value item nor a flag (required, nullable): a description among other items is written description=or a name`},
		{"bad enum value", intType, `jsonschema:"enum=1|two"`,
			`struct tag: enum value "two" is not an integer`},
		{"bound on a string", stringType, `jsonschema:"required,maximum=3"`,
			`struct tag: maximum needs a numeric field, not "string"`},
		{"bad default", intType, `jsonschema:"default=abc"`,
			`struct tag: default "abc" is not a valid integer`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			_, err := FromType(tagged(tt.typ, false, tt.tag))
			var se *Error
			if !errors.As(err, &se) {
				t.Fatalf("error = %v, want *Error", err)
			}
			if se.Reason != tt.want {
				t.Errorf("reason\n got %s\nwant %s", se.Reason, tt.want)
			}
			if se.Path == "" {
				t.Error("no path")
			}
		})
	}
}

// The required flag and nullable agree with the wire model's members.
func TestTagFlagsInMembers(t *testing.T) {
	type args struct {
		A *int `json:"a" jsonschema:"required,nullable"`
		B *int `json:"b" jsonschema:"may be null, nullable"` // a description
	}
	ms := Members(reflect.TypeFor[args]())
	if !ms[0].Nullable || ms[1].Nullable {
		t.Errorf("Nullable = %v, %v; want true, false", ms[0].Nullable, ms[1].Nullable)
	}
}
