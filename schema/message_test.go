package schema

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
	"github.com/kaptinlin/jsonschema"
)

// TestMessage is the table of the words: every keyword message has words
// for, in the singular and the plural, with values quoted as JSON and
// client input clipped.
func TestMessage(t *testing.T) {
	long := strings.Repeat("é", 40)
	tests := []struct {
		keyword string
		p       params
		want    string
	}{
		{"type", params{value: []byte(`"one"`), found: "string", types: []string{"integer"}}, `"one" should be an integer, not a string`},
		{"type", params{value: []byte(`1`), found: "integer", types: []string{"string", "null"}}, `1 should be a string or null, not an integer`},
		{"type", params{value: []byte(`{}`), found: "object", types: []string{"string", "array", "boolean"}}, `{} should be a string, an array or a boolean, not an object`},
		{"type", params{value: []byte(`null`), found: "null", types: []string{"number"}}, `null should be a number`},
		{"type", params{found: "null", types: []string{"number", "string"}}, `the value should be a number or a string, not null`},
		{"type", params{value: []byte(`[1]`), found: "array", types: []string{"object"}}, `[1] should be an object, not an array`},
		{"type", params{value: []byte(`1.5`), found: "number", types: []string{"integer"}}, `1.5 should be an integer, not a number with a fractional part`},
		{"type", params{value: []byte(`1.5`), found: "number", types: []string{"string"}}, `1.5 should be a string, not a number`},
		{"type", params{value: []byte(`1e9999999`), found: "unknown", types: []string{"number"}}, `1e9999999 should be a number, not a number with an exponent out of range`},
		{"type", params{found: "boolean", types: []string{"string"}}, `the value should be a string, not a boolean`},
		{"enum", params{value: []byte(`"kelvin"`), values: []string{`"metric"`, `"imperial"`}}, `"kelvin" should be one of "metric", "imperial"`},
		{"enum", params{value: []byte(`2`), values: []string{`1`}}, `2 should be 1`},
		{"enum", params{value: []byte(`2`)}, `2 should be one of the values the schema allows`},
		{"const", params{value: []byte(`5`), values: []string{`3`}}, `5 should be exactly 3`},
		{"const", params{value: []byte(`5`)}, `5 should be the value the schema sets`},
		{"minLength", params{value: []byte(`"ab"`), limit: "3"}, `"ab" should be at least 3 characters long`},
		{"minLength", params{value: []byte(`""`), limit: "1"}, `"" should be at least 1 character long`},
		{"maxLength", params{value: []byte(`"ab"`), limit: "1"}, `"ab" should be at most 1 character long`},
		{"maxLength", params{value: []byte(`"abc"`), limit: "2"}, `"abc" should be at most 2 characters long`},
		{"pattern", params{value: []byte(`"abc"`), text: "^[0-9]+$"}, `"abc" should match the pattern ^[0-9]+$`},
		{"format", params{value: []byte(`"x"`), text: "email"}, `"x" should be a valid email`},
		{"contentEncoding", params{value: []byte(`"!!"`), text: "base64"}, `"!!" should be valid base64`},
		{"contentMediaType", params{value: []byte(`"{"`), text: "application/json"}, `"{" should be valid application/json`},
		{"contentSchema", params{value: []byte(`"e30="`)}, `the content of "e30=" should match the contentSchema schema`},
		{"unsupportedEncoding", params{text: "base32"}, `the schema's contentEncoding "base32" is not supported`},
		{"unsupportedMediaType", params{text: "text/x"}, `the schema's contentMediaType "text/x" is not supported`},
		{"minimum", params{value: []byte(`0`), limit: "1"}, `0 should be at least 1`},
		{"maximum", params{value: []byte(`20`), limit: "14"}, `20 should be at most 14`},
		{"exclusiveMinimum", params{value: []byte(`0`), limit: "0"}, `0 should be greater than 0`},
		{"exclusiveMaximum", params{value: []byte(`1e2`), limit: "1.5"}, `1e2 should be less than 1.5`},
		{"multipleOf", params{value: []byte(`7`), limit: "2"}, `7 should be a multiple of 2`},
		{"minItems", params{value: []byte(`[]`), limit: "1"}, `[] should have at least 1 item`},
		{"maxItems", params{value: []byte(`[1,2,3]`), limit: "2"}, `[1,2,3] should have at most 2 items`},
		{"minProperties", params{value: []byte(`{}`), limit: "1"}, `{} should have at least 1 property`},
		{"maxProperties", params{value: []byte(`{"a":1,"b":2}`), limit: "1"}, `{"a":1,"b":2} should have at most 1 property`},
		{"maxProperties", params{value: []byte(`{"a":1,"b":2,"c":3}`), limit: "2"}, `{"a":1,"b":2,"c":3} should have at most 2 properties`},
		{"minContains", params{value: []byte(`[1]`), limit: "1"}, `[1] should have at least 1 item matching the contains schema`},
		{"maxContains", params{value: []byte(`[1,1,1]`), limit: "2"}, `[1,1,1] should have at most 2 items matching the contains schema`},
		{"uniqueItems", params{value: []byte(`[1,2,1]`), indexes: []string{"0", "2"}}, `[1,2,1] should have unique items, but items 0 and 2 are equal`},
		{"required", params{names: []string{"city"}}, `the required property "city" is missing`},
		{"required", params{names: []string{"b", "a\"" + long}}, `the required properties "b", "a\"` + long + `" are missing`},
		{"dependentRequired", params{deps: []dependency{{"a", []string{"b"}}}}, `the property "b" is required when "a" is present`},
		{"dependentRequired", params{deps: []dependency{{"a", []string{"b", "c"}}, {"d", []string{"e"}}}},
			`the properties "b", "c" are required when "a" is present; the property "e" is required when "d" is present`},
		{"propertyNames", params{names: []string{"k"}}, `the property name "k" should match the propertyNames schema`},
		{"propertyNames", params{names: []string{"a", long + "x\n"}}, `the property names "a", "` + long[:64] + `…" (82 bytes) should match the propertyNames schema`},
		{"additionalProperties", params{}, `additional property is not allowed`},
		{"unevaluatedProperties", params{}, `additional property is not allowed`},
		{"memberSchema", params{names: []string{"b"}, text: "unevaluatedProperties"}, `the property "b" should match the unevaluatedProperties schema`},
		{"memberSchema", params{names: []string{"a", "b"}, text: "patternProperties"}, `the properties "a", "b" should match the patternProperties schemas`},
		{"itemSchema", params{indexes: []string{"1"}, text: "items"}, `the item at index 1 should match the items schema`},
		{"itemSchema", params{indexes: []string{"0", "1", "3"}, text: "prefixItems"}, `the items at indexes 0, 1 and 3 should match the prefixItems schemas`},
		{"dependentSchemas", params{value: []byte(`{"a":1}`), names: []string{"a"}}, `{"a":1} should match the dependentSchemas schema of "a"`},
		{"dependentSchemas", params{value: []byte(`{"a":1,"b":2}`), names: []string{"a", "b"}}, `{"a":1,"b":2} should match the dependentSchemas schemas of "a", "b"`},
		{"unevaluatedItems", params{indexes: []string{"3"}}, `the item at index 3 is not allowed`},
		{"unevaluatedItems", params{indexes: []string{"3", "4"}}, `the items at indexes 3 and 4 are not allowed`},
		{"false", params{value: []byte(`1`)}, `no value is allowed here`},
		{"anyOf", params{value: []byte(`1.5`)}, `1.5 should match at least one of the anyOf schemas`},
		{"oneOf", params{value: []byte(`1`)}, `1 should match exactly one of the oneOf schemas, but matches none`},
		{"oneOf", params{value: []byte(`1`), indexes: []string{"0", "2"}}, `1 should match exactly one of the oneOf schemas, but matches schemas 0 and 2`},
		{"allOf", params{value: []byte(`1`), indexes: []string{"1"}}, `1 should match every allOf schema, but fails schema 1`},
		{"allOf", params{value: []byte(`1`), indexes: []string{"0", "1"}}, `1 should match every allOf schema, but fails schemas 0 and 1`},
		{"not", params{value: []byte(`1`)}, `1 should not match the not schema`},
		{"then", params{value: []byte(`1`)}, `1 matches the if schema, so it should match the then schema`},
		{"else", params{value: []byte(`"y"`)}, `"y" does not match the if schema, so it should match the else schema`},
		{"$ref", params{value: []byte(`1`)}, `1 should match the referenced schema`},
		{"$dynamicRef", params{value: []byte(`1`)}, `1 should match the dynamically referenced schema`},
		{"number", params{}, `a number has more than 400 digits or an exponent beyond 400; such numbers are not accepted`},
	}
	seen := map[string]bool{}
	for _, tt := range tests {
		seen[tt.keyword] = true
		if got, ok := message(tt.keyword, &tt.p); !ok || got != tt.want {
			t.Errorf("message(%s, %+v) = %q, %v\nwant %q", tt.keyword, tt.p, got, ok, tt.want)
		}
	}
	if _, ok := message("x-unknown", &params{}); ok {
		t.Error("words for an unknown keyword")
	}
	for _, kw := range []string{"type", "enum", "const", "minLength", "maxLength", "pattern", "format", "minimum", "maximum",
		"exclusiveMinimum", "exclusiveMaximum", "multipleOf", "minItems", "maxItems", "minProperties", "maxProperties",
		"uniqueItems", "minContains", "maxContains", "required", "dependentRequired", "propertyNames",
		"additionalProperties", "unevaluatedProperties", "unevaluatedItems", "false", "anyOf", "oneOf", "allOf", "not",
		"then", "else", "$ref", "$dynamicRef", "contentEncoding", "contentMediaType", "contentSchema"} {
		if !seen[kw] {
			t.Errorf("no row for %s", kw)
		}
	}
}

// The constructors for other packages word violations as the validator
// does.
func TestViolationConstructors(t *testing.T) {
	got := []Violation{
		TypeViolation("/a", []byte(`"12"`), "string", "integer"),
		TypeViolation("", nil, "object", "array"),
		NewViolation("/a", "maximum", []byte("1e300"), "9223372036854775807"),
		NewViolation("/by", "contentEncoding", []byte(`"!!"`), "base64"),
		NewViolation("/x", "x-custom", []byte(`1`), "p"),
		NewViolation("/Text", "additionalProperties", nil, ""),
	}
	want := []Violation{
		{"/a", "type", `"12" should be an integer, not a string`},
		{"", "type", "the value should be an array, not an object"},
		{"/a", "maximum", "1e300 should be at most 9223372036854775807"},
		{"/by", "contentEncoding", `"!!" should be valid base64`},
		{"/x", "x-custom", "1 breaks the x-custom rule"},
		{"/Text", "additionalProperties", "additional property is not allowed"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("(-want +got):\n%s", diff)
	}
	s := mustCompile(t, `{"properties":{"a":{"type":"integer","maximum":9223372036854775807}}}`)
	if v := s.Validate(json.RawMessage(`{"a":"12"}`)); !cmp.Equal(v, want[:1]) {
		t.Errorf("the validator says %q", v)
	}
	if v := s.Validate(json.RawMessage(`{"a":1e300}`)); !cmp.Equal(v, want[2:3]) {
		t.Errorf("the validator says %q", v)
	}
}

// TestLibraryMessages pins the words of the library path for keywords
// and schemas the fast path does not take: the applicators, references
// (whose allowed values and constants are read from the schema they
// resolve to), the older dialects.
func TestLibraryMessages(t *testing.T) {
	tests := []struct {
		schema, instance string
		want             []Violation
	}{
		{`{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `1.5`, []Violation{{"", "anyOf", "1.5 should match at least one of the anyOf schemas"}}},
		{`{"oneOf":[{"type":"number"},{"type":"integer"}]}`, `1`, []Violation{{"", "oneOf", "1 should match exactly one of the oneOf schemas, but matches schemas 0 and 1"}}},
		{`{"oneOf":[{"type":"string"},{"type":"boolean"}]}`, `1`, []Violation{{"", "oneOf", "1 should match exactly one of the oneOf schemas, but matches none"}}},
		{`{"not":{"type":"integer"}}`, `1`, []Violation{{"", "not", "1 should not match the not schema"}}},
		{`{"allOf":[{"type":"string"},{"minimum":3}]}`, `1`, []Violation{
			{"", "minimum", "1 should be at least 3"}, {"", "type", "1 should be a string, not an integer"}}},
		{`{"if":{"type":"integer"},"then":{"minimum":3},"else":{"enum":["x"]}}`, `1`, []Violation{{"", "minimum", "1 should be at least 3"}}},
		{`{"if":{"type":"integer"},"then":{"minimum":3},"else":{"enum":["x"]}}`, `"y"`, []Violation{{"", "enum", `"y" should be "x"`}}},
		{`{"dependentRequired":{"a":["b","c"],"d":["e"]}}`, `{"a":1,"d":2}`, []Violation{{"", "dependentRequired",
			`the properties "b", "c" are required when "a" is present; the property "e" is required when "d" is present`}}},
		{`{"propertyNames":{"maxLength":2}}`, `{"abc":1,"de":2,"fgh":3}`, []Violation{{"", "propertyNames", `the property names "abc", "fgh" should match the propertyNames schema`}}},
		{`{"contains":{"type":"string"}}`, `[1,2]`, []Violation{{"", "minContains", "[1,2] should have at least 1 item matching the contains schema"}}},
		{`{"contains":{"type":"string"},"maxContains":1}`, `["a","b"]`, []Violation{{"", "maxContains", `["a","b"] should have at most 1 item matching the contains schema`}}},
		{`{"prefixItems":[{"type":"string"}],"unevaluatedItems":false}`, `["a",1,2]`, []Violation{{"", "unevaluatedItems", "the items at indexes 1 and 2 are not allowed"}}},
		{`{"properties":{"a":true},"unevaluatedProperties":false}`, `{"a":1,"b":2}`, []Violation{
			{"", "properties", `the property "b" should match the unevaluatedProperties schema`},
			{"/b", "unevaluatedProperties", "additional property is not allowed"}}},
		{`{"$defs":{"u":{"enum":["metric","imperial"]}},"properties":{"units":{"$ref":"#/$defs/u"}}}`, `{"units":"kelvin"}`,
			[]Violation{{"/units", "enum", `"kelvin" should be one of "metric", "imperial"`}}},
		{`{"$defs":{"u":{"const":{"a":[1.0]}}},"items":{"$ref":"#/$defs/u"}}`, `[{"a":[1]},5]`, []Violation{{"/1", "const", `5 should be exactly {"a":[1.0]}`}}},
		{`{"$defs":{"n":{"type":"object","properties":{"next":{"$ref":"#/$defs/n"},"v":{"enum":[1]}}}},"$ref":"#/$defs/n"}`, `{"next":{"next":{"v":2}}}`,
			[]Violation{{"/next/next/v", "enum", "2 should be 1"}}},
		{`{"$id":"https://e.com/root","$defs":{"x":{"$id":"x","enum":[1]}},"properties":{"p":{"$ref":"x"}}}`, `{"p":2}`, []Violation{{"/p", "enum", "2 should be 1"}}},
		{`{"patternProperties":{"^a":{"enum":[1,2]},"^b":{"const":"x"}}}`, `{"bc":"y","ab":3}`, []Violation{
			{"", "properties", `the properties "ab", "bc" should match the patternProperties schemas`},
			{"/ab", "enum", "3 should be one of 1, 2"}, {"/bc", "const", `"y" should be exactly "x"`}}},
		// Two patterns match: which one refused the value is not known,
		// so neither list is given, and the two violations read alike.
		{`{"patternProperties":{"^a":{"enum":[1,2]},"b$":{"enum":[3]}}}`, `{"ab":4}`, []Violation{
			{"", "properties", `the property "ab" should match the patternProperties schema`},
			{"/ab", "enum", "4 should be one of the values the schema allows"}}},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","items":[{"enum":["a"]}],"additionalItems":{"const":2}}`, `["b",3]`,
			[]Violation{{"/0", "enum", `"b" should be "a"`}, {"/1", "const", "3 should be exactly 2"}}},
		{`{"$schema":"http://json-schema.org/draft-07/schema#","definitions":{"x":{"enum":[true]}},"properties":{"p":{"$ref":"#/definitions/x"}}}`, `{"p":false}`,
			[]Violation{{"/p", "enum", "false should be true"}}},
		{`{"contentEncoding":"base64","contentMediaType":"application/json"}`, `"!!"`, []Violation{{"", "contentEncoding", `"!!" should be valid base64`}}},
		{`{"contentEncoding":"base64","contentMediaType":"application/json"}`, `"e30x"`, []Violation{{"", "contentMediaType", `"e30x" should be valid application/json`}}},
		{`{"contentEncoding":"base32"}`, `"x"`, []Violation{{"", "contentEncoding", `the schema's contentEncoding "base32" is not supported`}}},
		{`{"type":"object","required":["a","b"],"properties":{"a":{"type":"string"}},"allOf":[true]}`, `{ }`,
			[]Violation{{"", "required", `the required properties "a", "b" are missing`}}},
		{`{"minLength":1000000,"maxProperties":1,"multipleOf":1e-7,"allOf":[true]}`, `"a"`, []Violation{{"", "minLength", `"a" should be at least 1000000 characters long`}}},
		{`{"multipleOf":1e-7,"maximum":1e21,"allOf":[true]}`, `1e22`, []Violation{{"", "maximum", "1e22 should be at most 1e+21"}}},
	}
	for _, tt := range tests {
		s := mustCompile(t, tt.schema)
		if s.fast != nil {
			t.Fatalf("fast path for %s", tt.schema)
		}
		got := s.Validate(json.RawMessage(tt.instance))
		if diff := cmp.Diff(sorted(tt.want), got); diff != "" {
			t.Errorf("Validate(%s) against %s (-want +got):\n%s", tt.instance, tt.schema, diff)
		}
	}
}

// An error whose code has no words here keeps the library's text, with
// the client input it repeats clipped.
func TestLibraryFallback(t *testing.T) {
	long := strings.Repeat("x", 100)
	e := &jsonschema.EvaluationError{Keyword: "x-new", Code: "x_new_code", Message: "Value {value} breaks {rule}",
		Params: map[string]any{"value": long, "rule": "x-new"}}
	r := &jsonschema.EvaluationResult{}
	var lw libraryWalk
	got := lw.violation(r, frame{ptr: "/a", raw: []byte(`"` + long + `"`)}, "x-new", e, &members{})
	want := Violation{"/a", "x-new", "Value " + long[:64] + "… (100 bytes) breaks x-new"}
	if got != want {
		t.Errorf("got %q, want %q", got, want)
	}
	// A known code with words of its own does not.
	e = &jsonschema.EvaluationError{Keyword: "maximum", Code: "value_above_maximum", Message: "{value} should be at most {maximum}",
		Params: map[string]any{"value": "100", "maximum": "1000000000000000000000"}}
	got = lw.violation(r, frame{ptr: "/a", raw: []byte(`1e2`)}, "maximum", e, &members{})
	if want := (Violation{"/a", "maximum", "1e2 should be at most 1e+21"}); got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
