package tool

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
)

// fastSchemas are simple schemas the fast path must model.
var fastSchemas = []string{
	`{"type":"object","properties":{"text":{"type":"string","description":"d"}},"required":["text"],"additionalProperties":false}`,
	`{"type":"object","properties":{"a":{"type":"integer","minimum":-3,"maximum":10},"b":{"type":"number","exclusiveMinimum":0,"exclusiveMaximum":1.5}},"required":["a"]}`,
	`{"type":"object","properties":{"s":{"type":"string","minLength":2,"maxLength":3},"e":{"type":"string","enum":["x","y","é"]}},"additionalProperties":{"type":"boolean"}}`,
	`{"type":"object","properties":{"l":{"type":"array","items":{"type":"integer"},"minItems":1,"maxItems":2},"m":{"type":"object","additionalProperties":{"type":"string"}}}}`,
	`{"type":"object","properties":{"n":{"type":["integer","null"]},"o":{"type":"object","properties":{"k":{"type":"boolean"}},"required":["k"],"additionalProperties":false}},"required":["x"]}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","properties":{"f":true,"g":false,"h":{}},"x-mcp-header":"ignored-here"}`,
	`{"type":"object","properties":{"u":{"minimum":5,"maxLength":1,"minItems":1}}}`,
	`{"type":"array","items":{"type":"string"}}`,
	`{"type":"integer","minimum":9007199254740992}`,
	`{"type":"number","maximum":0.1}`,
}

// slowSchemas use keywords the fast path must leave to the full validator.
var slowSchemas = []string{
	`{"type":"object","allOf":[{"required":["a"]}]}`,
	`{"type":"object","anyOf":[{"required":["a"]}]}`,
	`{"type":"object","properties":{"a":{"$ref":"#/$defs/a"}},"$defs":{"a":{"type":"string"}}}`,
	`{"type":"object","properties":{"a":{"type":"string","pattern":"^a"}}}`,
	`{"type":"object","properties":{"a":{"const":1}}}`,
	`{"type":"object","properties":{"a":{"type":"number","multipleOf":2}}}`,
	`{"type":"object","properties":{"a":{"enum":[1,2]}}}`,
	`{"type":"object","minProperties":1}`,
	`{"type":"object","patternProperties":{"^a":{}}}`,
	`{"type":"object","if":{"required":["a"]},"then":{"required":["b"]}}`,
	`{"$schema":"http://json-schema.org/draft-04/schema#","type":"object","properties":{"a":{"maximum":1,"exclusiveMaximum":true}}}`,
	`{"type":"object","properties":{"a":{"type":"array","items":[{"type":"string"}]}}}`,
	`{"type":"object","properties":{"a":{"type":"string","contentEncoding":"base64"}}}`,
	`{"type":"object","unevaluatedProperties":false}`,
	`{"type":"object","properties":{"a":{"type":"array","uniqueItems":true}}}`,
}

func TestCompileFastCoverage(t *testing.T) {
	for _, s := range fastSchemas {
		if f, _ := compileFast(json.RawMessage(s)); f == nil {
			t.Errorf("not modelled: %s", s)
		}
	}
	for _, s := range slowSchemas {
		if f, _ := compileFast(json.RawMessage(s)); f != nil {
			t.Errorf("modelled, but it must not be: %s", s)
		}
	}
}

// instances exercise syntax, types, bounds and keys.
var instances = []string{
	`{}`, ` { } `, `{"text":"hi"}`, `{"text":"hi","x":1}`, `{"text":3}`, `{"text":"a\nb\u00e9"}`,
	`{"text":"hi","text":"ho"}`, `{"te\u0078t":"hi"}`, `{"text":"hi"} x`, `{"text":"hi"`, `{"text":"hi",}`, `{"text" "hi"}`,
	`{"text":"\x01"}`, `{"text":"bad \q escape"}`, `{"text":"\u12"}`,
	`{"a":3}`, `{"a":-3}`, `{"a":-4}`, `{"a":10}`, `{"a":11}`, `{"a":10.0}`, `{"a":1e1}`, `{"a":01}`, `{"a":-}`, `{"a":1.}`,
	`{"a":1,"b":0}`, `{"a":1,"b":1.5}`, `{"a":1,"b":1.4999999999999999999}`, `{"a":1,"b":0.0000001}`, `{"a":1,"b":1e400}`,
	`{"s":"ab"}`, `{"s":"a"}`, `{"s":"abcd"}`, `{"s":"éé"}`, `{"s":"\u00e9\u00e9\u00e9\u00e9"}`, `{"s":"😀😀"}`, `{"s":"\ud83d\ude00\ud83d\ude00"}`,
	`{"e":"x"}`, `{"e":"z"}`, `{"e":"\u00e9"}`, `{"e":1}`, `{"z":true}`, `{"z":"no"}`, `{"z":true,"z":false}`,
	`{"l":[1]}`, `{"l":[]}`, `{"l":[1,2,3]}`, `{"l":[1,"a"]}`, `{"l":[1,]}`, `{"m":{"k":"v","k2":"v"}}`, `{"m":{"k":1}}`, `{"m":{"k":"v","k":"w"}}`,
	`{"n":null}`, `{"n":2}`, `{"n":2.5}`, `{"o":{"k":true}}`, `{"o":{}}`, `{"o":{"k":true,"j":1}}`, `{"x":1}`, `{"x":1,"n":null}`,
	`{"f":[{"deep":[1,{"a":null}]}]}`, `{"g":1}`, `{"h":"anything"}`, `{"f":{"d":1,"d":2}}`,
	`{"u":4}`, `{"u":5}`, `{"u":"ab"}`, `{"u":"a"}`, `{"u":[]}`, `{"u":[1]}`, `{"u":null}`,
	`["a","b"]`, `[]`, `["a",1]`, `[`, `9007199254740992`, `9007199254740993`, `9007199254740991`, `1e16`, `0.1`, `0.10000000000000000001`, `0.09999999999999999999`,
	`"str"`, `true`, `null`, ``, `   `, `{"a":1}{"a":2}`,
}

// The fast path never accepts what the full validator refuses.
func TestFastNeverAcceptsInvalid(t *testing.T) {
	for _, s := range fastSchemas {
		full, err := schema.Compile(json.RawMessage(s))
		if err != nil {
			t.Fatal(err)
		}
		fast, _ := compileFast(json.RawMessage(s))
		for _, in := range instances {
			ok, _ := fast.accepts([]byte(in))
			if ok && full.Validate([]byte(in)) != nil {
				t.Errorf("schema %s\ninstance %s: fast path accepted, full validator refuses: %v", s, in, full.Validate([]byte(in)))
			}
		}
	}
}

// And it vouches for the common valid cases, or it would not help.
func TestFastAcceptsCommonCases(t *testing.T) {
	tests := []struct{ schema, instance string }{
		{fastSchemas[0], `{"text":"hi"}`},
		{fastSchemas[0], `{"text":"multi\nline \"quoted\" é"}`},
		{fastSchemas[1], `{"a":-3,"b":0.5}`},
		{fastSchemas[1], `{"a":10}`},
		{fastSchemas[2], `{"s":"éé","e":"é","other":true}`},
		{fastSchemas[2], `{"s":"\u00e9\u00e9"}`},
		{fastSchemas[3], `{"l":[1,2],"m":{"a":"b"}}`},
		{fastSchemas[4], `{"x":[1,{"y":null}],"n":null,"o":{"k":false}}`},
		{fastSchemas[5], `{"f":{"any":[true]},"h":0}`},
		{fastSchemas[7], `["a","b"]`},
		{fastSchemas[8], `9007199254740994`},
	}
	for _, tt := range tests {
		fast, _ := compileFast(json.RawMessage(tt.schema))
		if ok, _ := fast.accepts([]byte(tt.instance)); !ok {
			t.Errorf("schema %s\ninstance %s: not accepted by the fast path", tt.schema, tt.instance)
		}
	}
}

// A random search for disagreements: instances built from the names,
// types and boundary values the schemas use.
func TestFastAgreesOnRandomInstances(t *testing.T) {
	r := rand.New(rand.NewPCG(3, 4))
	keys := []string{"text", "a", "b", "s", "e", "l", "m", "n", "o", "k", "x", "f", "g", "h", "u", "z"}
	var gen func(depth int) string
	gen = func(depth int) string {
		switch r.IntN(10) {
		case 0:
			return []string{"null", "true", "false"}[r.IntN(3)]
		case 1, 2:
			return []string{"0", "-3", "-4", "10", "11", "1.5", "0.5", "1e1", "2.0", "9007199254740993", "-0"}[r.IntN(11)]
		case 3, 4:
			return []string{`""`, `"a"`, `"ab"`, `"abcd"`, `"x"`, `"é"`, `"\u00e9"`, `"y\n"`}[r.IntN(8)]
		case 5, 6:
			if depth > 3 {
				return "[]"
			}
			n := r.IntN(4)
			parts := make([]string, n)
			for i := range parts {
				parts[i] = gen(depth + 1)
			}
			return "[" + strings.Join(parts, ",") + "]"
		}
		if depth > 3 {
			return "{}"
		}
		n := r.IntN(4)
		parts := make([]string, n)
		for i := range parts {
			parts[i] = fmt.Sprintf("%q:%s", keys[r.IntN(len(keys))], gen(depth+1))
		}
		return "{" + strings.Join(parts, ",") + "}"
	}
	for _, s := range fastSchemas {
		full, _ := schema.Compile(json.RawMessage(s))
		fast, _ := compileFast(json.RawMessage(s))
		for range 3000 {
			in := gen(0)
			if ok, _ := fast.accepts([]byte(in)); ok && full.Validate([]byte(in)) != nil {
				t.Fatalf("schema %s\ninstance %s: fast path accepted, full validator refuses: %v", s, in, full.Validate([]byte(in)))
			}
		}
	}
}

func TestFastDefaultsFill(t *testing.T) {
	const s = `{"type":"object","properties":{"a":{"type":"integer","default":1},"b":{"type":"string","default":"x\"y"},"c":{"type":"boolean"}}}`
	fast, defs := compileFast(json.RawMessage(s))
	if fast == nil || defs.nested || defs.top != 0b011 {
		t.Fatalf("defaults: %+v", defs)
	}
	tests := []struct {
		in      string
		missing uint64
		want    string
	}{
		{`{}`, 0b011, `{"a":1,"b":"x\"y"}`},
		{` { } `, 0b011, ` { "a":1,"b":"x\"y"}`},
		{`{"c":true} `, 0b010, `{"c":true,"b":"x\"y"}`},
		{`{"a":5}`, 0b010, `{"a":5,"b":"x\"y"}`},
	}
	for _, tt := range tests {
		if got := string(defs.fill(json.RawMessage(tt.in), tt.missing)); got != tt.want {
			t.Errorf("fill(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
}
