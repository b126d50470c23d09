package schema

import (
	"fmt"
	"math/rand/v2"
	"slices"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// agreeSchemas are schemas of the fast-path subset, between them using
// every keyword of it.
var agreeSchemas = []string{
	`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
	`{"type":"object","properties":{"city":{"type":"string","minLength":1},"days":{"type":"integer","minimum":1,"maximum":14},"metric":{"type":"boolean"}},"required":["city"],"additionalProperties":false}`,
	`{"type":["string","null"]}`,
	`{"type":["integer","boolean"]}`,
	`{"type":"number"}`,
	`{"type":"integer"}`,
	`{"type":"array"}`,
	`{"enum":["a","b",1,1.50,null,true,{"k":[1,2]},[1,"x"],1e2]}`,
	`{"enum":["é","\u00e9x","a\"b","{expected}"]}`,
	`{"const":{"a":1,"b":[true,null]}}`,
	`{"const":null}`,
	`{"const":1.0}`,
	`{"const":"x\/y"}`,
	`{"minimum":1,"maximum":10}`,
	`{"exclusiveMinimum":0,"exclusiveMaximum":1.5}`,
	`{"multipleOf":0.01}`,
	`{"multipleOf":3,"type":"integer"}`,
	`{"multipleOf":1e-7,"maximum":1e300,"minimum":-1e-300}`,
	`{"minimum":-9007199254740993,"maximum":12345678901234567890123}`,
	`{"minLength":2,"maxLength":3}`,
	`{"pattern":"^[a-z]+$"}`,
	`{"pattern":"é{2}|\\d"}`,
	`{"type":"string","format":"email","minLength":1e0}`,
	`{"maxLength":0,"minLength":0}`,
	`{"minLength":1000000}`,
	`{"type":"array","items":{"type":"integer","minimum":0},"minItems":1,"maxItems":3,"uniqueItems":true}`,
	`{"items":false,"uniqueItems":true}`,
	`{"items":true,"maxItems":1e6}`,
	`{"uniqueItems":true}`,
	`{"uniqueItems":false,"minItems":2}`,
	`{"properties":{"a/b":{"type":"string"},"c~d":{"type":"integer"},"":{"const":1}},"additionalProperties":{"type":"boolean"},"minProperties":1,"maxProperties":3}`,
	`{"additionalProperties":false,"required":["x","y"]}`,
	`{"properties":{"a":false,"b":true},"required":["a"]}`,
	`{"type":"object","properties":{"o":{"type":"object","properties":{"p":{"type":"array","items":{"type":"object","required":["q"],"additionalProperties":false,"properties":{"q":{"type":"string","maxLength":2}}}}},"required":["p"]}},"required":["o"]}`,
	`{"properties":{"é":{"type":"string"}},"required":["é","\u00e9","z"],"additionalProperties":{"type":"integer"}}`,
	`{"properties":{"a":{"type":"integer","default":3},"b":{"type":"string"}},"required":["a","b"]}`,
	`true`,
	`false`,
	`{}`,
	`{"$schema":"https://json-schema.org/draft/2020-12/schema","type":"object","title":"t","description":"d","examples":[{}],"$comment":"c","default":{},"deprecated":true,"readOnly":false,"writeOnly":false}`,
	`{"type":"object","additionalProperties":{"type":"array","items":{"enum":[1,"1",[1]]}}}`,
	`{"enum":["\u0000","\ud83d\ude00","\/",12345678901234567890123]}`,
	`{"const":12345678901234567890123}`,
	`{"required":["it's","a', 'b"],"properties":{"it's":{"pattern":"{value}"}}}`,
	`{"enum":["{received}","{expected}",{"a":"b"}]}`,
	manyProperties(12),
	manyProperties(70),
	manyProperties(300),
}

// manyProperties builds an object schema with n integer properties, every
// third one required.
func manyProperties(n int) string {
	var props, req []string
	for i := range n {
		props = append(props, fmt.Sprintf(`"p%d":{"type":"integer"}`, i))
		if i%3 == 0 {
			req = append(req, fmt.Sprintf(`"p%d"`, i))
		}
	}
	return `{"type":"object","properties":{` + strings.Join(props, ",") + `},"required":[` + strings.Join(req, ",") + `]}`
}

// manyValues builds an instance of manyProperties(n).
func manyValues(n int) string {
	var members []string
	for i := range n {
		members = append(members, fmt.Sprintf(`"p%d":%d`, i, i))
	}
	return "{" + strings.Join(members, ",") + "}"
}

// agreeInstances are valid and invalid instances for those schemas.
var agreeInstances = []string{
	`{"text":"hello"}`, `{}`, `[]`, `null`, `true`, `false`,
	`0`, `-0`, `1`, `1.0`, `1.5`, `1.50`, `1e2`, `100`, `1E400`, `-1e-400`, `0.1e1`, `10e-1`,
	`1e1000001`, `1.0e1000000`, `0e99999999999999999999`, `1e99999999999999999999`,
	`12345678901234567890123`, `12345678901234567890124`, `-9007199254740993`, `-9007199254740994`,
	`0.01`, `1.23`, `1.234`, `0.3`, `9`, `10`, `10.000001`, `1e300`, `1e301`, `-1e-300`, `-1e-299`, `3e-7`, `3.5e-7`,
	`"a"`, `"ab"`, `"abc"`, `"abcd"`, `"é"`, `"éé"`, `"ééé"`, `"\u00e9\u00e9"`, `"😀😀"`, `"\ud83d\ude00"`,
	`"a\"b"`, `"\u0000"`, `"x\/y"`, `"x/y"`, `"é"`, `"\u00e9x"`, `"{expected}"`, `"1"`, `"b"`,
	`{"a/b":"s","c~d":1,"":1,"z":true}`, `{"a/b":1,"c~d":"x","":2,"z":1,"w":2}`,
	`{"x":1}`, `{"x":1,"y":2}`, `{"y":1,"z":2}`, `{"a":1}`, `{"b":1}`, `{"a":1,"b":"s"}`, `{"a":"1","b":2}`,
	`[1,2,3]`, `[1,2,3,4]`, `[1,1]`, `[1,1.0]`, `[2,1,2,1]`, `[{"a":1,"b":2},{"b":2,"a":1}]`, `["a","\u0061"]`,
	`[1,"1"]`, `[-1,2,3]`, `[[1],[1]]`, `[[1],[1,2]]`, `[1.5]`, `[{"k":[1,2]}]`,
	`{"o":{"p":[{"q":"ab"},{"q":"abc","r":1},{},5]}}`, `{"o":{}}`, `{"o":[]}`,
	`{"é":"x"}`, `{"\u00e9":1}`, `{"é":1,"z":"q"}`, `{"text":"hello","text2":1}`, `{"text":1}`,
	`{"k":[1,2]}`, `[1,"x"]`, `{"a":1,"b":[true,null]}`, `{"b":[true,null],"a":1.0}`, `{"a":1,"b":[true]}`,
	`{"city":"Paris","days":3,"metric":true}`, `{"city":"","days":15,"metric":"yes","extra":null}`, `{"days":0.5}`,
	`{"p0":1,"p1":"x","p3":2.5}`, `{"p0":1,"p3":1,"p6":1,"p9":1,"p12":1,"p15":1,"p18":1,"p21":1,"p24":1,"p27":1,"p30":1,"p33":1,"p36":1,"p39":1,"p42":1,"p45":1,"p48":1,"p51":1,"p54":1,"p57":1,"p60":1,"p63":1,"p66":1,"p69":1}`,
	`{"a":[1],"b":["1"],"c":[[1]],"d":[[2]],"e":{}}`,
	` {"text" : "hello" } `, "\t[ 1 ,\n2 ]\r\n",
	// Not JSON as the library reads it.
	``, ` `, `{`, `[1,]`, `{"a":1,}`, `01`, `1.`, `.5`, `-`, `+1`, `1e`, `nul`, `tru`, `1 2`, `{"a" 1}`, `{"a":1 "b":2}`,
	`{"a":1,"a":2}`, `{"a":1,"\u0061":2}`, `{"text":"a","text":"b"}`, `"\ud800"`, `"\udc00\ud800"`, `"\ud800\u0041"`, "\"\xff\"", "\"\x01\"", `"\x"`, `"\u12"`,
	`[1]]`, `{"a":1}}`, `NaN`, `Infinity`, `'a'`, `{a:1}`,
	`{"text":"a","\u0074ext":"b"}`, "\f1", "\v1", "\xef\xbb\xbf{}", "{} \x00", `-01`, `1.0e+`, `1e+5`, `-0.0e-0`, `[1e]`,
	`"\u00E9"`, `"\uD83D\uDE00"`, `"\uDE00"`, `"\ud83d\ud83d"`, `"\ud83d"`, `"\ud83d\u"`, "\"\xed\xa0\x80\"", "\"\xef\xbf\xbd\"", "\"\x7f\"",
	`{"p0":1,"p0":1}`, `{"p69":1,"p\u0036\u0039":2}`, `{"a\/b":"s"}`, `{"a/b":1,"a\/b":2}`, `{"c~d":1,"c\u007ed":1}`,
	// More violations than MaxViolations.
	manyValues(30), "[" + strings.Repeat(`"x",-1,`, 15) + "1.5]", `{"o":{"p":[` + strings.Repeat(`{"q":"abc","r":1},`, 12) + `5]}}`,
}

// TestFastPathTaken checks which schemas get the fast path.
func TestFastPathTaken(t *testing.T) {
	for _, raw := range agreeSchemas {
		if s := mustCompile(t, raw); s.fast == nil {
			t.Errorf("no fast path for %s", raw)
		}
	}
	for _, raw := range []string{
		`{"$ref":"#/$defs/a","$defs":{"a":{}}}`,
		`{"properties":{"a":{"anyOf":[{"type":"string"}]}}}`,
		`{"allOf":[{}]}`, `{"oneOf":[{}]}`, `{"not":{}}`,
		`{"if":{},"then":{},"else":{}}`,
		`{"dependentRequired":{"a":["b"]}}`,
		`{"patternProperties":{"^a":{}}}`,
		`{"unevaluatedProperties":false}`,
		`{"prefixItems":[{}]}`,
		`{"contains":{}}`,
		`{"items":[{}]}`,
		`{"propertyNames":{"maxLength":2}}`,
		`{"$schema":"http://json-schema.org/draft-07/schema#","type":"string"}`,
		`{"properties":{"a":{"$schema":"https://json-schema.org/draft/2020-12/schema"}}}`,
		`{"$id":"https://example.com/s","type":"object"}`,
		`{"contentEncoding":"base64"}`,
		`{"x-extension":1}`,
		`{"minLength":9007199254740992}`,
		`{"additionalProperties":{"not":{}}}`,
	} {
		if s := mustCompile(t, raw); s.fast != nil {
			t.Errorf("fast path taken for %s", raw)
		}
	}
}

// TestFastPathAgrees compares both paths on every schema and instance.
func TestFastPathAgrees(t *testing.T) {
	for _, raw := range agreeSchemas {
		s := mustCompile(t, raw)
		for _, in := range agreeInstances {
			assertAgree(t, raw, s, []byte(in))
		}
	}
}

// assertAgree fails when the fast and slow paths do not find the same
// rules broken at the same places: same verdict, same pointers and
// keywords in the same order. Their words are compared by
// TestFastPathSameMessages.
func assertAgree(t *testing.T, raw string, s *Schema, instance []byte) {
	t.Helper()
	fast, slow := s.fast.validate(instance), slowVerdict(s, instance)
	if !violationsAgree(fast, slow) {
		t.Errorf("schema %s, instance %q:\nfast %q\nslow %q", raw, instance, fast, slow)
	}
}

// slowVerdict is what the fast path must report for instance: the
// library's violations, except for an instance nested deeper than
// jsonx.MaxDepth, which the fast path refuses with depthViolation where
// the library (limit 10000) may accept it. Whether it is too deep is told
// by jsonx's scanner, whose steps the fast path walks with.
func slowVerdict(s *Schema, instance []byte) []Violation {
	sc := jsonx.Scanner{Mode: jsonx.Pairs, CheckKeys: true}
	if _, ok := sc.Scan(instance); !ok && sc.TooDeep {
		return []Violation{depthViolation}
	}
	return s.validateSlow(instance)
}

// violationsAgree compares violation lists by verdict, pointer and
// keyword, not by message, except for the count a MoreKeyword entry
// gives.
func violationsAgree(fast, slow []Violation) bool {
	if (fast == nil) != (slow == nil) || len(fast) != len(slow) {
		return false
	}
	for i := range fast {
		f, s := fast[i], slow[i]
		if f.Pointer != s.Pointer || f.Keyword != s.Keyword || (f.Keyword == MoreKeyword && f.Message != s.Message) {
			return false
		}
	}
	return true
}

// TestFastPathSameMessages checks that both paths word what they find
// alike, since they share the words (message.go): on every schema and
// instance of the agreement tests, the violations are equal, messages
// included.
func TestFastPathSameMessages(t *testing.T) {
	for _, raw := range agreeSchemas {
		s := mustCompile(t, raw)
		for _, in := range agreeInstances {
			fast, slow := s.fast.validate([]byte(in)), slowVerdict(s, []byte(in))
			if diff := cmp.Diff(slow, fast); diff != "" {
				t.Errorf("schema %s, instance %.200q (-library +fast):\n%s", raw, in, diff)
			}
		}
	}
}

// TestFastPathMessages pins what the fast path reports, words included,
// for instances that break each of its keywords.
func TestFastPathMessages(t *testing.T) {
	tests := []struct {
		schema, instance string
		want             []Violation
	}{
		{agreeSchemas[1], `{"city":"","days":15.5,"metric":"yes","extra":null}`, []Violation{
			{"/city", "minLength", `"" should be at least 1 character long`},
			{"/days", "maximum", "15.5 should be at most 14"},
			{"/days", "type", "15.5 should be an integer, not a number with a fractional part"},
			{"/extra", "additionalProperties", "additional property is not allowed"},
			{"/metric", "type", `"yes" should be a boolean, not a string`},
		}},
		{agreeSchemas[33], `{"o":{"p":[{"q":"ab"},{"q":"abc","r":1},{},5]}}`, []Violation{
			{"/o/p/1/q", "maxLength", `"abc" should be at most 2 characters long`},
			{"/o/p/1/r", "additionalProperties", "additional property is not allowed"},
			{"/o/p/2", "required", `the required property "q" is missing`},
			{"/o/p/3", "type", "5 should be an object, not an integer"},
		}},
		{agreeSchemas[30], `{"a/b":1,"c~d":"x","":2,"z":1,"w":2}`, []Violation{
			{"/", "const", "2 should be exactly 1"},
			{"/a~1b", "type", "1 should be a string, not an integer"},
			{"/c~0d", "type", `"x" should be an integer, not a string`},
			{"/w", "type", "2 should be a boolean, not an integer"},
			{"/z", "type", "1 should be a boolean, not an integer"},
			{"", "maxProperties", `{"a/b":1,"c~d":"x","":2,"z":1,"w":2} should have at most 3 properties`},
		}},
		{agreeSchemas[7], `{ "k" : [1] }`, []Violation{
			{"", "enum", `{"k":[1]} should be one of "a", "b", 1, 1.50, null, true, {"k":[1,2]}, [1,"x"], 1e2`},
		}},
		{agreeSchemas[25], `[2,1,2,1,-1]`, []Violation{
			{"", "maxItems", "[2,1,2,1,-1] should have at most 3 items"},
			{"", "uniqueItems", "[2,1,2,1,-1] should have unique items, but items 0 and 2 are equal"},
			{"/4", "minimum", "-1 should be at least 0"},
		}},
		{`{"type":"integer"}`, `1e1000001`, []Violation{{"", "type", "1e1000001 should be an integer, not a number with an exponent out of range"}}},
		{`{"type":"integer"}`, `1.0`, nil},
		{`{"type":["string","null"]}`, `[]`, []Violation{{"", "type", "[] should be a string or null, not an array"}}},
		{`{"minLength":2,"maxLength":3}`, `"\ud83d\ude00é\u00e9😀"`, []Violation{{"", "maxLength", `"\ud83d\ude00é\u00e9😀" should be at most 3 characters long`}}},
		{`{"const":null}`, `0`, []Violation{{"", "const", "0 should be exactly null"}}},
		{`{"enum":["a"],"multipleOf":0.5,"exclusiveMinimum":1e-7}`, `-1e2`, []Violation{
			{"", "enum", `-1e2 should be "a"`},
			{"", "exclusiveMinimum", "-1e2 should be greater than 1e-7"},
		}},
		{`false`, `{}`, []Violation{{"", "false", "no value is allowed here"}}},
		{`{"required":["b","a"]}`, `{}`, []Violation{{"", "required", `the required properties "b", "a" are missing`}}},
		{`{}`, `{"a":1,"\u0061":2}`, []Violation{jsonViolation}},
	}
	for _, tt := range tests {
		s := mustCompile(t, tt.schema)
		if s.fast == nil {
			t.Fatalf("no fast path for %s", tt.schema)
		}
		got := s.Validate(json.RawMessage(tt.instance))
		// The table lists violations in a readable order; compare sorted.
		if diff := cmp.Diff(sorted(tt.want), got); diff != "" {
			t.Errorf("Validate(%s) against %s (-want +got):\n%s", tt.instance, tt.schema, diff)
		}
		assertAgree(t, tt.schema, s, []byte(tt.instance))
	}
}

// sorted returns a sorted copy of vs.
func sorted(vs []Violation) []Violation {
	out := slices.Clone(vs)
	slices.SortFunc(out, func(a, b Violation) int { return compareViolations(&a, &b) })
	return out
}

// TestFastPathEdges compares both paths on instances too long to list:
// many members, long keys, long numbers, long arrays with uniqueItems.
func TestFastPathEdges(t *testing.T) {
	var ins []string
	var keys []string
	for i := range 40 {
		keys = append(keys, fmt.Sprintf(`"k%d":%d`, i, i))
	}
	ins = append(ins,
		"{"+strings.Join(keys, ",")+"}",
		"{"+strings.Join(keys, ",")+`,"k\u0033\u0037":1}`,
		"{"+strings.Join(keys[:17], ",")+`,"k1":1}`,
		"{"+strings.Join(keys[:16], ",")+`,"k15":1}`,
		`{"`+strings.Repeat(`\u00e9`, 40)+`":1,"`+strings.Repeat("é", 40)+`":2}`,
		`{"`+strings.Repeat(`\u00e9`, 40)+`":1}`,
		"1"+strings.Repeat("0", 1000)+"e-1000", "1e-1000", "-2.5e1000", "7e-2000",
	)
	// Duplicates among many names, plain and escaped, near and far apart,
	// and the same names in sibling objects (not duplicates).
	var many []string
	for i := range 1000 {
		many = append(many, fmt.Sprintf(`"n%d":%d`, i, i))
	}
	body := strings.Join(many, ",")
	ins = append(ins,
		"{"+body+"}",
		"{"+body+`,"n0":1}`,
		"{"+body+`,"\u006e999":1}`,
		`{"\u006e500":1,`+body+"}",
		"{"+body+`,"x":{`+body+`},"y":[{`+body+`}]}`,
		"{"+body+`,"x":{`+body+`,"n7":0}}`,
	)
	for _, n := range []int{70, 300} {
		all := manyValues(n)
		ins = append(ins, all, all[:len(all)-1]+`,"p3":1}`, all[:len(all)-1]+`,"p299":"x"}`, "{"+all[len(`{"p0":0,`):])
	}
	for _, n := range []int{31, 32, 33, 64, 100} {
		for _, dup := range [][2]int{{-1, -1}, {0, n - 1}, {n - 2, n - 1}, {3, 20}, {5, 7}} {
			elems := make([]string, n)
			for i := range elems {
				elems[i] = fmt.Sprintf(`{"v":%d}`, i)
			}
			if dup[0] >= 0 && dup[1] < n {
				elems[dup[1]] = fmt.Sprintf(`{"v":%d.0}`, dup[0])
				if n > 40 {
					elems[n-1-dup[0]%3] = elems[dup[1]] // a second duplicate of the same value
				}
			}
			ins = append(ins, "["+strings.Join(elems, ",")+"]")
		}
	}
	schemas := append([]string{`{"uniqueItems":true}`, `{"type":"object","additionalProperties":false}`}, agreeSchemas...)
	for _, raw := range schemas {
		s := mustCompile(t, raw)
		for _, in := range ins {
			assertAgree(t, raw, s, []byte(in))
		}
	}
}

// hugeNumbers sit at the limits of what math/big reads: the library calls
// those beyond "unknown". The fraction digits count: 1.0e-999999 is known,
// 1.00e-999999 is not.
var hugeNumbers = []string{
	"1.0e-999999", "1.00e-999999", "1.0e1000001", "1.00e1000002", "0.5e-999999", "0.5e-1000000",
	"5e-1000000", "5e-1000001", "5e1000000", "5e1000001", "0.000e99999999", "1e-9223372036854775808",
	"1e-9223372036854775809", "0e-9223372036854775809", "0e9223372036854775807", "1e9223372036854775807",
	"0.1e9223372036854775807", "-0.0e-9223372036854775808",
}

// TestFastPathHugeNumbers compares both paths on those numbers where the
// library is quick: it formats numbers for messages in quadratic time.
func TestFastPathHugeNumbers(t *testing.T) {
	for _, raw := range []string{`{"type":"integer"}`, `{"enum":[1,"a"]}`, `{"uniqueItems":true}`} {
		s := mustCompile(t, raw)
		for _, n := range hugeNumbers {
			assertAgree(t, raw, s, []byte(n))
			assertAgree(t, raw, s, []byte("["+n+","+n+"]"))
		}
	}
	// Long literals take the library seconds to read; check the fast path
	// alone, by the rule the short ones above confirm.
	s := mustCompile(t, `{"type":"integer"}`)
	for n, valid := range map[string]bool{
		"1." + strings.Repeat("0", 1000000): true,
		"1." + strings.Repeat("0", 1000001): false,
		"0." + strings.Repeat("0", 1000001): true,
	} {
		if got := s.Validate(json.RawMessage(n)); (got == nil) != valid {
			t.Errorf("Validate(%.8s… %d bytes) = %v", n, len(n), got)
		}
	}
	// The fast path is quick with the numeric keywords too.
	s = mustCompile(t, `{"minimum":1,"maximum":1e999999,"multipleOf":0.7}`)
	got := s.Validate(json.RawMessage("5e-999999"))
	// The messages write the value as sent and the bounds in short.
	want := []Violation{
		{"", "minimum", "5e-999999 should be at least 1"},
		{"", "multipleOf", "5e-999999 should be a multiple of 0.7"},
	}
	if !cmp.Equal(got, want) {
		t.Errorf("Validate(5e-999999) = %.80q", got)
	}
}

// TestFastPathDepth checks the nesting limit, jsonx.MaxDepth: within it
// both paths agree; past it (where the library would still accept the
// instance) the fast path gives the wire's verdict.
func TestFastPathDepth(t *testing.T) {
	s := mustCompile(t, `{"items":{"items":{"type":"array"}}}`)
	for _, d := range []int{jsonx.MaxDepth - 1, jsonx.MaxDepth, jsonx.MaxDepth + 1} {
		for _, in := range []string{
			strings.Repeat("[", d) + strings.Repeat("]", d),
			strings.Repeat(`{"a":`, d-1) + "{}" + strings.Repeat("}", d-1),
			strings.Repeat("[", d-1) + "{}" + strings.Repeat("]", d-1),
		} {
			fast, slow := s.fast.validate([]byte(in)), slowVerdict(s, []byte(in))
			if !cmp.Equal(fast, slow) {
				t.Errorf("depth %d (%.12s…): fast %v, slow %v", d, in, fast, slow)
			}
			if wantValid := d <= jsonx.MaxDepth; (fast == nil) != wantValid {
				t.Errorf("depth %d (%.12s…): %v", d, in, fast)
			}
			if d > jsonx.MaxDepth && !cmp.Equal(fast, []Violation{depthViolation}) {
				t.Errorf("depth %d (%.12s…): %v, want %v", d, in, fast, depthViolation)
			}
		}
	}
}

// TestFastPathDepthVerdict checks which verdict an instance that is both
// too deep and otherwise invalid gets, as the wire decides: a syntax error
// before the nesting goes too deep is invalid JSON, a repeated key is not
// (the scan goes on), and whatever comes after the nesting is not seen.
func TestFastPathDepthVerdict(t *testing.T) {
	deep := strings.Repeat("[", jsonx.MaxDepth+1)
	tests := []struct {
		name, in string
		want     Violation
	}{
		{"deep", deep + strings.Repeat("]", jsonx.MaxDepth+1), depthViolation},
		{"deep and cut short", deep, depthViolation},
		{"syntax error first", `[1,,` + deep, jsonViolation},
		{"repeated key first", `{"a":1,"a":2,"b":` + deep + `}`, depthViolation},
		{"repeated tracked key first", `{"x":1,"x":2,"b":` + deep + `}`, depthViolation},
		{"repeated key after", `{"b":` + deep + `,"a":1,"a":2}`, depthViolation},
		{"repeated key only", `{"a":1,"a":2,"b":[[]]}`, jsonViolation},
		{"repeated key in a skipped value", `[{"a":1,"a":2},` + deep + `]`, depthViolation},
	}
	for _, schema := range []string{`{}`, `{"properties":{"x":{"type":"integer"}}}`, `{"items":{"type":"array"}}`} {
		s := mustCompile(t, schema)
		for _, tt := range tests {
			got := s.fast.validate([]byte(tt.in))
			if !cmp.Equal(got, []Violation{tt.want}) {
				t.Errorf("schema %s, %s: %v, want %v", schema, tt.name, got, tt.want)
			}
			if slow := slowVerdict(s, []byte(tt.in)); !violationsAgree(got, slow) {
				t.Errorf("schema %s, %s: fast %v, slow %v", schema, tt.name, got, slow)
			}
		}
	}
}

// TestFastPathLongStrings compares both paths on long strings mixing
// ASCII, multi-byte characters and escapes around the 8-byte blocks the
// scanner reads at once.
func TestFastPathLongStrings(t *testing.T) {
	parts := []string{"a", "é", "😀", `\n`, `\u00e9`, `\ud83d\ude00`, `\"`, "abcdefgh", "\u2028"}
	rng := rand.New(rand.NewPCG(1, 2))
	for range 200 {
		var b strings.Builder
		for range rng.IntN(40) {
			b.WriteString(parts[rng.IntN(len(parts))])
		}
		str := `"` + b.String() + `"`
		n := rng.IntN(30)
		raw := fmt.Sprintf(`{"minLength":%d,"maxLength":%d,"pattern":"^[^\\d]*$","enum":[%s,"x"]}`, n, n+3, str)
		s := mustCompile(t, raw)
		for _, in := range []string{str, `["` + b.String() + `"]`, `"` + b.String() + `1"`} {
			assertAgree(t, raw, s, []byte(in))
		}
	}
}

// TestFastPathBigString checks an 8 MiB string argument.
func TestFastPathBigString(t *testing.T) {
	text := strings.Repeat("héllo wörld ", 8<<20/13)
	in := []byte(`{"text":"` + text + `"}`)
	for _, raw := range []string{
		`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`,
		`{"type":"object","properties":{"text":{"type":"string","maxLength":100}}}`,
	} {
		s := mustCompile(t, raw)
		assertAgree(t, raw, s, in)
	}
}

// TestFastPathNoAllocs checks that a valid instance costs no allocation,
// defaults included.
func TestFastPathNoAllocs(t *testing.T) {
	tests := []struct{ schema, instance string }{
		{agreeSchemas[0], `{"text":"hello"}`},
		{agreeSchemas[1], `{"city":"Paris","days":3,"metric":true}`},
		{agreeSchemas[33], `{"o":{"p":[{"q":"ab"},{"q":"\u00e9"}]}}`},
		{`{"enum":["a","b",{"k":[1]}]}`, `{"k":[1.0]}`},
		{`{"type":"number","multipleOf":0.01,"exclusiveMaximum":1e300}`, `12.34`},
		{`{"type":"array","uniqueItems":true}`, `[1,"1",[1],{"a":1},{"a":2},"\u00e9","é2"]`},
		{`{"type":"object"}`, `{"a":1,"b":2,"c":3,"d":4,"e":5,"f":6,"g":7,"h":8,"i":9,"j":10,"k":11,"l":12,"\u006d":13}`},
		{`{"pattern":"^h"}`, `"hello"`},
		{manyProperties(12), `{"p0":1,"p3":2,"p6":3,"p9":4,"p11":5}`},
		{agreeSchemas[0], `{"\u0074ext":"hello"}`},
		{manyProperties(70), manyValues(70)},
		{manyProperties(200), manyValues(200)},
	}
	for _, tt := range tests {
		s := mustCompile(t, tt.schema)
		in := json.RawMessage(tt.instance)
		if vs := s.Validate(in); vs != nil {
			t.Fatalf("Validate(%s) = %v", in, vs)
		}
		n := testing.AllocsPerRun(100, func() {
			filled, err := s.ApplyDefaults(in)
			if err != nil || s.Validate(filled) != nil {
				t.Fatal("invalid")
			}
		})
		if n != 0 {
			t.Errorf("ApplyDefaults+Validate(%s) against %s: %v allocations", tt.instance, tt.schema, n)
		}
	}
}

// TestFastPathConcurrent runs under -race: a compiled schema is shared by
// every call.
func TestFastPathConcurrent(t *testing.T) {
	s := mustCompile(t, agreeSchemas[1])
	var wg sync.WaitGroup
	for i := range 8 {
		wg.Go(func() {
			in := `{"city":"Paris","days":3}`
			if i%2 == 1 {
				in = `{"city":"","days":30,"x":1}`
			}
			for range 100 {
				if vs := s.Validate(json.RawMessage(in)); (vs == nil) != (i%2 == 0) {
					t.Errorf("Validate(%s) = %v", in, vs)
					return
				}
			}
		})
	}
	wg.Wait()
}

// TestFastPathDuplicateNames checks the names past the first sixteen,
// which are compared by hash.
func TestFastPathDuplicateNames(t *testing.T) {
	var many []string
	for i := range 1000 {
		many = append(many, fmt.Sprintf(`"n%d":%d`, i, i))
	}
	body := strings.Join(many, ",")
	s := mustCompile(t, `{"type":"object"}`)
	for in, valid := range map[string]bool{
		"{" + body + "}":                                         true,
		"{" + body + `,"n0":1}`:                                  false,
		"{" + body + `,"\u006e999":1}`:                           false,
		`{"\u006e500":1,` + body + "}":                           false,
		`{"n\u0031":1,"x":0,` + body[len(`"n0":0,`):] + "}":      false,
		"{" + body + `,"x":{` + body + `},"y":[{` + body + `}]}`: true,
		"{" + body + `,"x":{` + body + `,"n7":0}}`:               false,
	} {
		got := s.Validate(json.RawMessage(in))
		if (got == nil) != valid || (!valid && !cmp.Equal(got, []Violation{jsonViolation})) {
			t.Errorf("Validate(%.40s…%s) = %v", in, in[len(in)-20:], got)
		}
	}
}
