package schema

import (
	"fmt"
	"math/rand/v2"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"
)

// validateAll is the library path without the cap: every violation, in
// order, repeats dropped as capFound drops them.
func validateAll(s *Schema, instance []byte) []Violation {
	var out []Violation
	for _, f := range sortFound(s.libraryFound(instance)) {
		out = append(out, f.v)
	}
	return out
}

// capped is what Validate returns for the violations all.
func capped(all []Violation) []Violation {
	if len(all) <= MaxViolations {
		return all
	}
	return append(all[:MaxViolations:MaxViolations], moreViolation(len(all)-MaxViolations))
}

// manyKeys builds an object with the given keys, each with value v.
func manyKeys(keys []string, v string) string {
	members := make([]string, len(keys))
	for i, k := range keys {
		members[i] = fmt.Sprintf("%q:%s", k, v)
	}
	return "{" + strings.Join(members, ",") + "}"
}

// Past MaxViolations both paths return the first MaxViolations in order
// and the exact count of the rest, whatever the order the instance holds
// them in.
func TestValidateCap(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	schemas := []string{
		`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"],"additionalProperties":false}`,
		`{"type":"object","additionalProperties":{"type":"string","maxLength":1}}`,
		`{"type":"array","items":{"type":"integer","minimum":10},"maxItems":3}`,
		`{"type":"array","items":{"type":"array","items":{"enum":["a","b"]}}}`,
		`{"type":"object","additionalProperties":{"type":"array","items":{"type":"string"}}}`,
	}
	var instances []string
	for _, n := range []int{1, 19, 20, 21, 22, 45, 300} {
		keys := make([]string, n)
		for i := range keys {
			keys[i] = fmt.Sprintf("k%d", rng.IntN(10*n))
		}
		keys = dedupe(keys)
		instances = append(instances, manyKeys(keys, "0"), manyKeys(keys, `"xy"`), manyKeys(keys, `[1,"a",2]`))
		elems := make([]string, n)
		for i := range elems {
			elems[i] = fmt.Sprint(rng.IntN(20))
		}
		arr := "[" + strings.Join(elems, ",") + "]"
		instances = append(instances, arr, "["+strings.Repeat(`["a","c",1],`, n)+`[]]`, `{"text":1,"z":`+arr+`,`+manyKeys(keys, "1")[1:])
	}
	for _, raw := range schemas {
		s := mustCompile(t, raw)
		for _, in := range instances {
			all := validateAll(s, []byte(in))
			want := capped(all)
			got := s.Validate(json.RawMessage(in))
			if !violationsAgree(got, want) {
				t.Errorf("schema %s, instance %.80s… (%d violations):\n got %q\nwant %q", raw, in, len(all), got, want)
			}
			assertAgree(t, raw, s, []byte(in))
			if len(got) > MaxViolations+1 {
				t.Errorf("%d violations returned", len(got))
			}
		}
	}
}

func dedupe(keys []string) []string {
	seen := map[string]bool{}
	out := keys[:0]
	for _, k := range keys {
		if !seen[k] {
			seen[k] = true
			out = append(out, k)
		}
	}
	return out
}

// The library path caps too, on schemas outside the fast path.
func TestValidateCapLibrary(t *testing.T) {
	s := mustCompile(t, `{"type":"object","additionalProperties":{"type":"string"},"allOf":[true]}`)
	if s.fast != nil {
		t.Fatal("fast path taken")
	}
	keys := make([]string, 30)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%02d", i)
	}
	got := s.Validate(json.RawMessage(manyKeys(keys, "1")))
	if len(got) != MaxViolations+1 || got[0].Pointer != "/k00" || got[MaxViolations-1].Pointer != "/k19" {
		t.Fatalf("got %q", got)
	}
	if want := moreViolation(10); got[MaxViolations] != want {
		t.Errorf("last entry %q, want %q", got[MaxViolations], want)
	}
}

// Once the list is full, the fast path only counts: an instance with
// 100 000 unknown keys costs about two passes of the scanner, not one
// pointer and one violation per key.
func TestValidateCapCost(t *testing.T) {
	keys := make([]string, 100_000)
	for i := range keys {
		keys[i] = fmt.Sprintf("k%d", i)
	}
	in := json.RawMessage(manyKeys(keys, "0"))
	strict := mustCompile(t, `{"type":"object","additionalProperties":false}`)
	loose := mustCompile(t, `{"type":"object"}`)
	got := strict.Validate(in)
	if len(got) != MaxViolations+1 || got[MaxViolations] != moreViolation(len(keys)-MaxViolations) {
		t.Fatalf("got %d violations, last %q", len(got), got[len(got)-1])
	}
	scan := testing.AllocsPerRun(3, func() { loose.Validate(in) })
	invalid := testing.AllocsPerRun(3, func() { strict.Validate(in) })
	t.Logf("allocations: %v for one scan, %v for the invalid instance", scan, invalid)
	if invalid > 2*scan+1000 {
		t.Errorf("%v allocations for the invalid instance, %v for one scan: the violations past the cap cost more than counting", invalid, scan)
	}
}

// Client input in pointers and messages is clipped, the same way on both
// paths.
func TestViolationsClipped(t *testing.T) {
	long := strings.Repeat("é", 5<<20) // 10 MiB
	clipped := strings.Repeat("é", 32) + "… (10485760 bytes)"
	a70 := strings.Repeat("a", 70)
	tests := []struct {
		schema, instance string
		want             []Violation
	}{
		{`{"type":"object","additionalProperties":false}`, `{"` + long + `":1}`,
			[]Violation{{"/" + clipped, "additionalProperties", "additional property is not allowed"}}},
		{`{"type":"object","additionalProperties":false}`, `{"` + strings.Repeat(`\u00e9`, 5<<20) + `":1}`,
			[]Violation{{"/" + clipped, "additionalProperties", "additional property is not allowed"}}},
		{`{"additionalProperties":{"items":{"type":"string"}}}`, `{"` + long + `":[1,"x",2]}`, []Violation{
			{"/" + clipped + "/0", "type", "1 should be a string, not an integer"},
			{"/" + clipped + "/2", "type", "2 should be a string, not an integer"},
		}},
		{`{"additionalProperties":{"type":"string"}}`, `{"` + strings.Repeat("/~", 40) + `":1}`,
			[]Violation{{"/" + strings.Repeat("~1~0", 32) + "… (80 bytes)", "type", "1 should be a string, not an integer"}}},
		{`{"enum":["a","b"]}`, `"` + long + `"`,
			[]Violation{{"", "enum", `"` + strings.Repeat("é", 32) + `…" (10485760 bytes) should be one of "a", "b"`}}},
		{`{"enum":["a","b"]}`, `"` + strings.Repeat(`\u00e9`, 11) + `"`, // cut inside an escape
			[]Violation{{"", "enum", `"` + strings.Repeat(`\u00e9`, 10) + `…" (66 bytes) should be one of "a", "b"`}}},
		{`{"enum":["a","b"]}`, `[` + strings.Repeat(`"xyz",`, 40) + `1]`,
			[]Violation{{"", "enum", `[` + strings.Repeat(`"xyz",`, 10) + `"xy… (243 bytes) should be one of "a", "b"`}}},
		{`{"type":"string"}`, "[\n  " + strings.Repeat(`"x", `, 40) + "1\n]", // written without white space
			[]Violation{{"", "type", `[` + strings.Repeat(`"x",`, 15) + `"x"… (163 bytes) should be a string, not an array`}}},
		{`{"maximum":1}`, "1" + strings.Repeat("0", 100),
			[]Violation{{"", "maximum", "1" + strings.Repeat("0", 63) + "… (101 bytes) should be at most 1"}}},
		// Two keys that clip alike are two violations, not a repeat.
		{`{"additionalProperties":false}`, `{"` + a70 + `x":1,"` + a70 + `y":1}`, []Violation{
			{"/" + a70[:64] + "… (71 bytes)", "additionalProperties", "additional property is not allowed"},
			{"/" + a70[:64] + "… (71 bytes)", "additionalProperties", "additional property is not allowed"},
		}},
		// The names "required" lists come from the schema: not clipped.
		{`{"required":["` + a70 + `"]}`, `{}`, []Violation{{"", "required", `the required property "` + a70 + `" is missing`}}},
	}
	for _, tt := range tests {
		s := mustCompile(t, tt.schema)
		if s.fast == nil {
			t.Fatalf("no fast path for %s", tt.schema)
		}
		got := s.Validate(json.RawMessage(tt.instance))
		if diff := cmp.Diff(tt.want, got); diff != "" {
			t.Errorf("Validate(%.40s…) against %s (-want +got):\n%.2000s", tt.instance, tt.schema, diff)
		}
		if slow := s.validateSlow([]byte(tt.instance)); !cmp.Equal(slow, tt.want) {
			t.Errorf("library path: %.300q", slow)
		}
	}
}

// The library path clips the property names its own messages quote.
func TestLibraryMessagesClipped(t *testing.T) {
	s := mustCompile(t, `{"propertyNames":{"maxLength":3}}`)
	long := strings.Repeat("k", 10<<20)
	got := s.Validate(json.RawMessage(`{"` + long + `":1}`))
	want := []Violation{{"", "propertyNames", `the property name "` + strings.Repeat("k", 64) + `…" (10485760 bytes) should match the propertyNames schema`}}
	if !cmp.Equal(got, want) {
		t.Errorf("got %.300q", got)
	}
}

func TestFormatViolationsCap(t *testing.T) {
	var vs []Violation
	for i := range 25 {
		vs = append(vs, Violation{Pointer: fmt.Sprintf("/k%02d", i), Keyword: "type", Message: "m"})
	}
	lines := func(n int) string {
		var b strings.Builder
		b.WriteString("invalid arguments:")
		for i := range n {
			fmt.Fprintf(&b, "\n- /k%02d: m (type)", i)
		}
		return b.String()
	}
	tests := []struct {
		name string
		vs   []Violation
		want string
	}{
		{"under the cap", vs[:3], lines(3)},
		{"at the cap", vs[:20], lines(20)},
		{"past the cap", vs, lines(20) + "\n- … and 5 more"},
		{"capped by Validate", append(vs[:20:20], moreViolation(999980)), lines(20) + "\n- … and 999980 more"},
		{"both", append(vs[:25:25], moreViolation(10)), lines(20) + "\n- … and 15 more"},
		{"a keyword named more", []Violation{{"", "more", "not a count"}}, "invalid arguments:\n- (root): not a count (more)"},
	}
	for _, tt := range tests {
		if got := FormatViolations("invalid arguments", tt.vs); got != tt.want {
			t.Errorf("%s:\n got %q\nwant %q", tt.name, got, tt.want)
		}
	}
}

func TestCmpChild(t *testing.T) {
	for _, parent := range []string{"", "/a", "/a/b", "/ab"} {
		for _, tok := range []string{"", "a", "b", "ab", "0", "10", "9"} {
			for _, p := range []string{"", "/", "/a", "/a/", "/a/b", "/a/b/c", "/ab", "/a0", "/a/10", "/a.", "/9", "/a/b0"} {
				want := strings.Compare(parent+"/"+tok, p)
				if got := cmpChild(parent, tok, p); got != want {
					t.Errorf("cmpChild(%q, %q, %q) = %d, want %d", parent, tok, p, got, want)
				}
				if got := cmpChild(parent, []byte(tok), p); got != want {
					t.Errorf("cmpChild(%q, []byte(%q), %q) = %d, want %d", parent, tok, p, got, want)
				}
			}
		}
	}
}
