package schema

import (
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

func TestCompileErrors(t *testing.T) {
	tests := []struct {
		name, schema string
		want         error
		msg          string
	}{
		{"not JSON", `{"type":`, ErrInvalidSchema, "not valid JSON"},
		{"trailing data", `{} {}`, ErrInvalidSchema, "data after"},
		{"not a schema", `[1]`, ErrInvalidSchema, "must be a JSON object or a boolean"},
		{"unknown type", `{"type":"strng"}`, ErrInvalidSchema, `/type: unknown type "strng"`},
		{"bad type array", `{"type":["string","string"]}`, ErrInvalidSchema, "listed twice"},
		{"negative minLength", `{"properties":{"a":{"minLength":-1}}}`, ErrInvalidSchema, "/properties/a/minLength"},
		{"string minimum", `{"minimum":"1"}`, ErrInvalidSchema, "/minimum: must be a number"},
		{"zero multipleOf", `{"multipleOf":0}`, ErrInvalidSchema, "multipleOf"},
		{"required not strings", `{"required":[1]}`, ErrInvalidSchema, "/required"},
		{"property not a schema", `{"properties":{"a":3}}`, ErrInvalidSchema, "/properties/a"},
		{"empty anyOf", `{"anyOf":[]}`, ErrInvalidSchema, "/anyOf"},
		{"enum not array", `{"enum":"a"}`, ErrInvalidSchema, "/enum"},
		{"bad regex", `{"pattern":"("}`, ErrInvalidSchema, "regex"},
		{"missing local ref", `{"$ref":"#/$defs/missing"}`, ErrUnresolvedRef, "#/$defs/missing"},
		{"remote ref never loaded", `{"properties":{"a":{"$ref":"https://example.com/s.json"}}}`, ErrUnresolvedRef, "https://example.com/s.json"},
		{"unknown dialect", `{"$schema":"https://example.com/my-meta"}`, ErrUnsupportedDialect, "example.com"},
		{"dialect not a string", `{"$schema":7}`, ErrInvalidSchema, "$schema"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s, err := Compile(json.RawMessage(tt.schema))
			if !errors.Is(err, tt.want) {
				t.Fatalf("Compile = %v, %v; want %v", s, err, tt.want)
			}
			if !strings.Contains(err.Error(), tt.msg) {
				t.Errorf("error %q lacks %q", err, tt.msg)
			}
		})
	}
}

func TestCompileKeywords(t *testing.T) {
	tests := []struct {
		name, schema, good, bad string
		badKeyword              string
	}{
		{"draft-07 definitions and tuple items",
			`{"$schema":"http://json-schema.org/draft-07/schema#","type":"object","definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s"},"t":{"items":[{"type":"integer"}]}}}`,
			`{"a":"x","t":[1,"y"]}`, `{"a":1}`, "type"},
		{"draft-07 $ref ignores siblings",
			`{"$schema":"http://json-schema.org/draft-07/schema","definitions":{"s":{"type":"string"}},"properties":{"a":{"$ref":"#/definitions/s","maxLength":1}}}`,
			`{"a":"long"}`, `{"a":1}`, "type"},
		{"2020-12 explicit", `{"$schema":"https://json-schema.org/draft/2020-12/schema","prefixItems":[{"type":"string"}]}`, `["a"]`, `[1]`, "type"},
		{"$defs and $ref", `{"$defs":{"pos":{"type":"integer","minimum":1}},"properties":{"n":{"$ref":"#/$defs/pos"}}}`, `{"n":1}`, `{"n":0}`, "minimum"},
		{"$anchor", `{"$defs":{"x":{"$anchor":"word","type":"string"}},"properties":{"w":{"$ref":"#word"}}}`, `{"w":"a"}`, `{"w":2}`, "type"},
		{"allOf", `{"allOf":[{"minimum":1},{"maximum":5}]}`, `3`, `6`, "maximum"},
		{"anyOf", `{"anyOf":[{"type":"string"},{"type":"integer"}]}`, `1`, `true`, "anyOf"},
		{"oneOf", `{"oneOf":[{"type":"integer"},{"minimum":0}]}`, `-1`, `1`, "oneOf"},
		{"not", `{"not":{"type":"null"}}`, `1`, `null`, "not"},
		{"if then else", `{"if":{"properties":{"k":{"const":"a"}}},"then":{"required":["a"]},"else":{"required":["b"]}}`, `{"k":"a","a":1}`, `{"k":"z","a":1}`, "required"},
		{"boolean schema", `true`, `[1,{}]`, ``, ""},
		{"recursive $ref #", `{"type":"object","properties":{"kids":{"type":"array","items":{"$ref":"#"}}},"additionalProperties":false}`, `{"kids":[{"kids":[]}]}`, `{"kids":[{"x":1}]}`, "additionalProperties"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			s := mustCompile(t, tt.schema)
			if vs := s.Validate(json.RawMessage(tt.good)); vs != nil {
				t.Errorf("Validate(%s) = %v, want valid", tt.good, vs)
			}
			if tt.bad == "" {
				return
			}
			vs := s.Validate(json.RawMessage(tt.bad))
			if len(vs) != 1 || vs[0].Keyword != tt.badKeyword {
				t.Errorf("Validate(%s) = %+v, want one %q violation", tt.bad, vs, tt.badKeyword)
			}
		})
	}
}

func TestValidateListsEveryViolation(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"a":{"type":"integer","maximum":3},
		"b":{"type":"array","items":{"type":"object","properties":{"c":{"type":"string"}},"required":["c","d"]}},
		"s":{"type":"string","minLength":5,"pattern":"^a"}},
		"required":["x"],"additionalProperties":false}`)
	got := s.Validate(json.RawMessage(`{"a":5,"b":[{"c":1},{"c":"ok","d":1}],"s":"b","z":1}`))
	want := []Violation{
		{Pointer: "", Keyword: "required", Message: `the required property "x" is missing`},
		{Pointer: "/a", Keyword: "maximum", Message: "5 should be at most 3"},
		{Pointer: "/b/0", Keyword: "required", Message: `the required property "d" is missing`},
		{Pointer: "/b/0/c", Keyword: "type", Message: "1 should be a string, not an integer"},
		{Pointer: "/s", Keyword: "minLength", Message: `"b" should be at least 5 characters long`},
		{Pointer: "/s", Keyword: "pattern", Message: `"b" should match the pattern ^a`},
		{Pointer: "/z", Keyword: "additionalProperties", Message: "additional property is not allowed"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
	text := FormatViolations("invalid arguments", got)
	for _, line := range []string{
		"invalid arguments:",
		`- (root): the required property "x" is missing (required)`,
		"- /a: 5 should be at most 3 (maximum)",
		"- /z: additional property is not allowed (additionalProperties)",
	} {
		if !strings.Contains(text, line) {
			t.Errorf("FormatViolations lacks %q:\n%s", line, text)
		}
	}
	if FormatViolations("invalid arguments", nil) != "" {
		t.Error("FormatViolations of no violations is not empty")
	}
}

func TestValidateRefPointers(t *testing.T) {
	s := mustCompile(t, `{"$defs":{"item":{"type":"object","properties":{"n":{"type":"integer"}}}},
		"properties":{"list":{"type":"array","items":{"$ref":"#/$defs/item"}}},
		"allOf":[{"$ref":"#/$defs/item"}]}`)
	got := s.Validate(json.RawMessage(`{"n":"x","list":[{"n":1},{"n":true}]}`))
	want := []Violation{
		{Pointer: "/list/1/n", Keyword: "type", Message: "true should be an integer, not a boolean"},
		{Pointer: "/n", Keyword: "type", Message: `"x" should be an integer, not a string`},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
}

func TestValidateEscapesPointers(t *testing.T) {
	s := mustCompile(t, `{"properties":{"a/b":{"type":"string"}},"additionalProperties":false}`)
	got := s.Validate(json.RawMessage(`{"a/b":1,"c~d":2}`))
	want := []Violation{
		{Pointer: "/a~1b", Keyword: "type", Message: "1 should be a string, not an integer"},
		{Pointer: "/c~0d", Keyword: "additionalProperties", Message: "additional property is not allowed"},
	}
	if diff := cmp.Diff(want, got); diff != "" {
		t.Errorf("Validate (-want +got):\n%s", diff)
	}
}

func TestValidateNotJSON(t *testing.T) {
	s := mustCompile(t, `{"type":"object"}`)
	for _, in := range []string{``, `{`, `{"a":1,"a":2}`} {
		vs := s.Validate(json.RawMessage(in))
		if len(vs) != 1 || vs[0].Keyword != "json" || vs[0].Pointer != "" {
			t.Errorf("Validate(%q) = %+v, want one json violation", in, vs)
		}
	}
}

func TestSchemaAccessors(t *testing.T) {
	raw := `{"type":"object","properties":{}}`
	s := mustCompile(t, "  "+raw+"\n")
	if string(s.Raw()) != raw || !s.IsObjectRoot() {
		t.Errorf("Raw = %s, IsObjectRoot = %v", s.Raw(), s.IsObjectRoot())
	}
	if mustCompile(t, `{"type":"array"}`).IsObjectRoot() || mustCompile(t, `true`).IsObjectRoot() {
		t.Error("IsObjectRoot is true for a non-object root")
	}
}

// TestValidateConcurrent runs under -race: the library caches compiled
// patterns during validation.
func TestValidateConcurrent(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"a":{"type":"string","pattern":"^x"}},"patternProperties":{"^p":{"type":"integer"}}}`)
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for range 50 {
				in := `{"a":"xy","p1":1}`
				if i%2 == 1 {
					in = `{"a":"y","p1":"s"}`
				}
				vs := s.Validate(json.RawMessage(in))
				if (len(vs) == 0) != (i%2 == 0) {
					t.Errorf("Validate(%s) = %v", in, vs)
					return
				}
			}
		}()
	}
	wg.Wait()
}

func TestApplyDefaults(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{
		"a":{"type":"integer","default":1},
		"b":{"type":"string","default":"x<y"},
		"big":{"type":"integer","default":12345678901234567890},
		"o":{"type":"object","properties":{"c":{"type":"boolean","default":true},"d":{"type":"string"}}},
		"n":{"default":{"k":[1]}}}}`)
	tests := []struct{ in, want string }{
		{`{}`, `{"a":1,"b":"x<y","big":12345678901234567890,"n":{"k":[1]}}`},
		{`{"a":5,"b":"y","big":0,"n":null}`, `{"a":5,"b":"y","big":0,"n":null}`},
		{`{"a":5,"b":"y","big":0,"n":1,"o":{}}`, `{"a":5,"b":"y","big":0,"n":1,"o":{"c":true}}`},
		{`{"a":2,"b":"","big":1,"n":1,"o":{"c":false,"d":"z"}}`, `{"a":2,"b":"","big":1,"n":1,"o":{"c":false,"d":"z"}}`},
		{`[1]`, `[1]`},
		{`{"a":1.50,"b":"q","big":1,"n":1,"o":"not an object"}`, `{"a":1.50,"b":"q","big":1,"n":1,"o":"not an object"}`},
	}
	for _, tt := range tests {
		got, err := s.ApplyDefaults(json.RawMessage(tt.in))
		if err != nil {
			t.Fatalf("ApplyDefaults(%s): %v", tt.in, err)
		}
		if string(got) != tt.want {
			t.Errorf("ApplyDefaults(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	if _, err := s.ApplyDefaults(json.RawMessage(`{"a":`)); err == nil {
		t.Error("ApplyDefaults on bad JSON: no error")
	}
}

func TestApplyDefaultsNoDefaults(t *testing.T) {
	s := mustCompile(t, `{"type":"object","properties":{"a":{"type":"integer"}}}`)
	in := json.RawMessage(`{}`)
	out, err := s.ApplyDefaults(in)
	if err != nil || &out[0] != &in[0] {
		t.Errorf("ApplyDefaults did not return its input: %s, %v", out, err)
	}
	if n := testing.AllocsPerRun(100, func() { _, _ = s.ApplyDefaults(in) }); n != 0 {
		t.Errorf("ApplyDefaults allocates %v times without defaults", n)
	}
}

// BenchmarkValidate compares the fast path with the library ("slow") on
// a small object, the echo tool's arguments, an 8 MiB string argument and
// an invalid instance.
func BenchmarkValidate(b *testing.B) {
	const (
		weather = `{"type":"object","properties":{
			"city":{"type":"string","minLength":1},
			"days":{"type":"integer","minimum":1,"maximum":14},
			"metric":{"type":"boolean"}},"required":["city"],"additionalProperties":false}`
		echo = `{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`
	)
	big := `{"text":"` + strings.Repeat("hello wörld ", 8<<20/13) + `"}`
	cases := []struct{ name, schema, instance string }{
		{"small", weather, `{"city":"Paris","days":3,"metric":true}`},
		{"echo", echo, `{"text":"hello"}`},
		{"8MiB", echo, big},
		{"invalid", weather, `{"city":"","days":15,"extra":1}`},
	}
	for _, c := range cases {
		s, err := Compile(json.RawMessage(c.schema))
		if err != nil || s.fast == nil {
			b.Fatal(err)
		}
		in := json.RawMessage(c.instance)
		wantValid := c.name != "invalid"
		for _, path := range []struct {
			name     string
			validate func(json.RawMessage) []Violation
		}{{"fast", s.Validate}, {"slow", s.validateSlow}} {
			b.Run(c.name+"/"+path.name, func(b *testing.B) {
				b.SetBytes(int64(len(in)))
				b.ReportAllocs()
				for b.Loop() {
					if vs := path.validate(in); (vs == nil) != wantValid {
						b.Fatal(vs)
					}
				}
			})
		}
	}
}

// Numbers whose size would stall the library validator are refused at once
// on the slow path (a schema outside the fast subset), while ordinary ones
// pass through.
func TestSlowPathRefusesOversizeNumbers(t *testing.T) {
	s, err := Compile(json.RawMessage(`{"type":"object","properties":{"n":{"minimum":1}},"anyOf":[{"required":["n"]}]}`))
	if err != nil {
		t.Fatal(err)
	}
	if s.fast != nil {
		t.Fatal("schema unexpectedly on the fast path; the test needs the library path")
	}
	for _, tc := range []struct {
		in      string
		refused bool
	}{
		{`{"n":1e-60000}`, true},
		{`{"n":1` + strings.Repeat("0", 1000) + `}`, true},
		{`{"n":2.5e10}`, false},
		{`{"n":"1e-60000"}`, false},
	} {
		start := time.Now()
		vs := s.Validate(json.RawMessage(tc.in))
		refused := len(vs) == 1 && vs[0].Keyword == "number"
		if refused != tc.refused {
			t.Errorf("%.40s: violations %v, want refused=%v", tc.in, vs, tc.refused)
		}
		if d := time.Since(start); d > time.Second {
			t.Errorf("%.40s took %v", tc.in, d)
		}
	}
}
