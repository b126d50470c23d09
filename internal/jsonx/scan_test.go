package jsonx_test

import (
	"encoding/json"
	"fmt"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// scanInputs are texts around every rule of the grammar; validity is
// decided by encoding/json and utf8.Valid, which the lenient scanner must
// agree with.
var scanInputs = []string{
	``, ` `, `1`, `-0`, `-`, `01`, `1.`, `.5`, `1.5e`, `1e+`, `1E-7`, `-0.0e00`, `2.5E+10`, `1x`,
	`true`, `tru`, `false`, `null`, `nul`, `nulls`, `True`,
	`""`, `"`, `"a`, `"\"`, `"\\"`, `"\/"`, `"\x"`, `"\u"`, `"\u12"`, `"\u12g4"`, `"\uD83D\uDE00"`,
	`"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800\ud800\udc00"`,
	"\"a\tb\"", "\"a\x7fb\"", "\"\x00\"", "\"é\"", "\"\xff\"", "\"\xc3\"", "\"\xed\xa0\x80\"", "\"\xc0\xaf\"",
	"\"\xf4\x90\x80\x80\"", "\"\xf0\x9f\x98\x80\"", "\"\u2028\"",
	`[]`, `[ ]`, `[1,]`, `[,1]`, `[1 2]`, `[1,2]`, `[[[]]]`, `[`, `]`, `[1`,
	`{}`, `{ }`, `{"a":1}`, `{"a":1,}`, `{"a"}`, `{"a":}`, `{a:1}`, `{'a':1}`, `{"a":1 "b":2}`, `{"a" : 1 , "b" : [ ] }`,
	`{"a":1}x`, `{"a":1} {}`, " \t\r\n{}\n", "\xef\xbb\xbf{}", `{"a":{"b":{"c":[{"d":null}]}}}`,
	`{"a":1,"a":2}`, `{"a":1,"A":2}`,
}

func TestScanAgreesWithEncodingJSON(t *testing.T) {
	for _, in := range scanInputs {
		want := json.Valid([]byte(in)) && utf8.ValidString(in)
		var s jsonx.Scanner
		end, ok := s.Scan([]byte(in))
		if ok != want {
			t.Errorf("Scan(%q) = %v (stopped at %d), want %v", in, ok, end, want)
		}
		if ok && end != len(in) {
			t.Errorf("Scan(%q) ended at %d of %d", in, end, len(in))
		}
		if !ok && (end < 0 || end > len(in)) {
			t.Errorf("Scan(%q) stopped at %d, outside the input", in, end)
		}
	}
}

func TestScanModes(t *testing.T) {
	tests := []struct {
		in            string
		lenient, pair bool
	}{
		{`"\ud83d\ude00"`, true, true},
		{`"\uD83D\uDE00"`, true, true},
		{`"\ud800"`, true, false},
		{`"\udc00"`, true, false},
		{`"\udc00\ud800"`, true, false},
		{`"\ud800\u0041"`, true, false},
		{`"\ud800\ud800\udc00"`, true, false},
		{`"\ud800\\u0041"`, true, false},
		{`"\ud800`, false, false},
		{`"\u00e9"`, true, true},
		{"\"\xed\xa0\x80\"", false, false}, // a surrogate encoded in UTF-8
	}
	for _, tt := range tests {
		for _, m := range []struct {
			mode jsonx.Mode
			want bool
		}{{jsonx.Lenient, tt.lenient}, {jsonx.Pairs, tt.pair}} {
			s := jsonx.Scanner{Mode: m.mode}
			if _, ok := s.Scan([]byte(tt.in)); ok != m.want {
				t.Errorf("mode %d: Scan(%s) = %v, want %v", m.mode, tt.in, ok, m.want)
			}
		}
	}
}

func TestScanStringRunes(t *testing.T) {
	tests := []struct {
		in      string
		runes   int
		escaped bool
	}{
		{`""`, 0, false},
		{`"abc"`, 3, false},
		{`"héllo wörld, quite a long one"`, 29, false},
		{`"\n\u00e9\ud83d\ude00x"`, 4, true},
		{`"\ud800x"`, 2, true}, // lenient: the lone surrogate is one character
	}
	for _, tt := range tests {
		s, next, ok := jsonx.ScanString([]byte(tt.in), 0, jsonx.Lenient)
		if !ok || next != len(tt.in) || s.Runes != tt.runes || s.Escaped != tt.escaped {
			t.Errorf("ScanString(%s) = %+v, %d, %v; want %d runes, escaped %v", tt.in, s, next, ok, tt.runes, tt.escaped)
		}
		var want string
		if err := json.Unmarshal([]byte(tt.in), &want); err != nil {
			t.Fatal(err)
		}
		if got := s.Text([]byte(tt.in)); got != want || utf8.RuneCountInString(got) != tt.runes {
			t.Errorf("Text(%s) = %q, want %q", tt.in, got, want)
		}
	}
}

func TestScanDepth(t *testing.T) {
	nest := func(open, close string, d int) string {
		return strings.Repeat(open, d) + strings.Repeat(close, d)
	}
	for _, d := range []int{1, jsonx.MaxDepth - 1, jsonx.MaxDepth, jsonx.MaxDepth + 1, 3 * jsonx.MaxDepth} {
		for _, in := range []string{
			nest("[", "]", d),
			strings.Repeat(`{"a":`, d-1) + "{}" + strings.Repeat("}", d-1),
			strings.Repeat(`[{"a":`, d/2) + map[int]string{0: "0", 1: "[]"}[d%2] + strings.Repeat("}]", d/2),
		} {
			var s jsonx.Scanner
			_, ok := s.Scan([]byte(in))
			if want := d <= jsonx.MaxDepth; ok != want || s.TooDeep == want {
				t.Errorf("depth %d (%.10s…): ok %v, TooDeep %v", d, in, ok, s.TooDeep)
			}
		}
	}
	// Cut short before it closes, a deep value is still too deep.
	var s jsonx.Scanner
	if _, ok := s.Scan([]byte(strings.Repeat("[", jsonx.MaxDepth+1))); ok || !s.TooDeep {
		t.Errorf("unclosed, too deep: ok %v, TooDeep %v", ok, s.TooDeep)
	}
	// A syntax error first is not a depth problem.
	s = jsonx.Scanner{}
	if _, ok := s.Scan([]byte("[x" + strings.Repeat("[", jsonx.MaxDepth+1))); ok || s.TooDeep {
		t.Errorf("syntax error first: ok %v, TooDeep %v", ok, s.TooDeep)
	}
	// Skip counts the levels that enclose the value.
	in := []byte(nest("[", "]", 10))
	for _, outer := range []int{0, jsonx.MaxDepth - 10, jsonx.MaxDepth - 9} {
		s = jsonx.Scanner{}
		next, ok := s.Skip(in, 0, outer)
		if want := outer+10 <= jsonx.MaxDepth; ok != want || (ok && next != len(in)) {
			t.Errorf("Skip at depth %d: %d, %v", outer, next, ok)
		}
	}
	if jsonx.ErrTooDeep.Error() != "nesting deeper than 1000 levels" {
		t.Errorf("ErrTooDeep = %q", jsonx.ErrTooDeep)
	}
}

func TestScanMembers(t *testing.T) {
	data := []byte(` {"a":1, "b" : [1,{"c":2}] ,"\u0064":"x","e":{},"f":null,"g":true} `)
	for _, trusted := range []bool{false, true} {
		s := jsonx.Scanner{Collect: true, Trusted: trusted}
		if _, ok := s.Scan(data); !ok {
			t.Fatal("Scan failed")
		}
		var got []string
		for i := range s.NumMembers() {
			m := s.Member(i)
			got = append(got, m.Key.Text(data)+"="+string(data[m.Value.Start:m.Value.End]))
		}
		want := `a=1 b=[1,{"c":2}] d="x" e={} f=null g=true`
		if strings.Join(got, " ") != want {
			t.Errorf("trusted %v: members %s, want %s", trusted, strings.Join(got, " "), want)
		}
	}
	// A scan that stops keeps the members read in full before it did.
	prefix := []byte(`{"id":7,"n":12`)
	s := jsonx.Scanner{Collect: true}
	if _, ok := s.Scan(prefix); ok || s.NumMembers() != 2 || s.Member(1).Value.End != len(prefix) {
		t.Errorf("prefix: ok %v, %d members", ok, s.NumMembers())
	}
	// Only the top-level object's members are recorded.
	s = jsonx.Scanner{Collect: true}
	s.Scan([]byte(`[{"a":1}]`))
	if s.NumMembers() != 0 {
		t.Errorf("array: %d members", s.NumMembers())
	}
}

// TestScanRepeatedKeys checks where repeated keys and case variants are
// found, on both the pairwise and the hashed path.
func TestScanRepeatedKeys(t *testing.T) {
	filler := func(n int) string {
		var b strings.Builder
		for i := range n {
			fmt.Fprintf(&b, `"k%d":%d,`, i, i)
		}
		return b.String()
	}
	tests := []struct {
		name, in string
		want     string // the error, "" for none
	}{
		{"distinct", `{"a":1,"b":{"a":2}}`, ""},
		{"top duplicate", `{"a":1,"a":2}`, `duplicate key "a"`},
		{"escaped duplicate", `{"a":1,"\u0061":2}`, `duplicate key "a"`},
		{"deep duplicate", `{"x":[{"y":{"a":1,"a":2}}]}`, `duplicate key "a"`},
		{"top case variant", `{"name":1,"Name":2}`, `keys "name" and "Name" differ only in case`},
		{"depth 2 case variant", `{"p":{"name":1,"NAME":2}}`, `keys "name" and "NAME" differ only in case`},
		{"depth 2 in an array", `[{"name":1,"NAME":2}]`, `keys "name" and "NAME" differ only in case`},
		{"depth 3 case variant", `{"p":{"q":{"name":1,"Name":2}}}`, ""},
		{"depth 3 in an array", `{"p":[{"name":1,"Name":2}]}`, ""},
		{"the first problem", `{"a":1,"a":2,"p":{"b":1,"B":2}}`, `duplicate key "a"`},
		{"hashed duplicate", `{` + filler(40) + `"k3":0}`, `duplicate key "k3"`},
		{"hashed case variant", `{"p":{` + filler(40) + `"K39":0}}`, `keys "k39" and "K39" differ only in case`},
		{"hashed case variant, deep", `{"p":{"q":{` + filler(40) + `"K39":0}}}`, ""},
		{"hashed, escaped", `{` + filler(20) + `"\u006b5":0}`, `duplicate key "k5"`},
	}
	for _, tt := range tests {
		data := []byte(tt.in)
		s := jsonx.Scanner{CheckKeys: true, FoldDepth: 2}
		if _, ok := s.Scan(data); !ok {
			t.Fatalf("%s: Scan(%s) failed", tt.name, tt.in)
		}
		got := ""
		if e := s.RepeatedKey(data); e != nil {
			got = e.Error()
		}
		if got != tt.want || s.Repeated() != (tt.want != "") {
			t.Errorf("%s: %q (repeated %v), want %q", tt.name, got, s.Repeated(), tt.want)
		}
		// Without CheckKeys, nothing is reported.
		s = jsonx.Scanner{}
		s.Scan(data)
		if s.Repeated() {
			t.Errorf("%s: repeated without CheckKeys", tt.name)
		}
	}
}

// TestKeySetPathsAgree checks that the pairwise check (first 16 keys) and
// the hashed one judge every pair of keys the same way, as strings.EqualFold
// and == do.
func TestKeySetPathsAgree(t *testing.T) {
	pairs := [][2]string{
		{"name", "Name"}, {"a", "b"}, {"é", "É"}, {"σ", "ς"}, {"σ", "Σ"},
		{"ſ", "s"}, {"ſ", "S"}, {"\u212a", "k"}, {"\u212a", "K"}, // long s, Kelvin sign
		{"ı", "i"}, {"ı", "I"}, {"İ", "i"}, {"İ", "I"}, // Turkish dotless and dotted i
		{"ß", "ẞ"}, {"ß", "ss"}, {"ǅ", "ǆ"}, {"ǅ", "Ǆ"}, {"Ω", "\u2126"}, // ohm sign
		{"ꭰ", "Ꭰ"}, {"a", "a"}, {"😀", "😀"}, {"😀", "😁"},
	}
	for _, p := range pairs {
		for _, fold := range []bool{false, true} {
			want := p[0] == p[1]
			if fold {
				want = strings.EqualFold(p[0], p[1])
			}
			for _, n := range []int{0, 40} {
				members := []string{fmt.Sprintf("%q:1", p[0])}
				for i := range n {
					members = append(members, fmt.Sprintf(`"f%d":0`, i))
				}
				members = append(members, fmt.Sprintf("%q:2", p[1]))
				data := []byte("{" + strings.Join(members, ",") + "}")
				depth := 0
				if fold {
					depth = 1
				}
				s := jsonx.Scanner{CheckKeys: true, FoldDepth: depth}
				if _, ok := s.Scan(data); !ok {
					t.Fatalf("Scan(%.40s…) failed", data)
				}
				if s.Repeated() != want {
					t.Errorf("keys %q and %q, fold %v, %d keys between: repeated = %v, want %v", p[0], p[1], fold, n, s.Repeated(), want)
				}
			}
		}
	}
}

// TestTrustedDoesNotPanic scans malformed data as trusted: data cut short
// is refused, and bad escapes, which a trusted scan does not look at, are
// decoded without a panic.
func TestTrustedDoesNotPanic(t *testing.T) {
	for _, in := range []string{`{"a\`, `{"a\"`, `{"a":"\`, `{`, `"`, `"\`, `["\u`, `{"a":1`, `{"\u00":1}`, `{"\` + "\xff" + `":1}`} {
		s := jsonx.Scanner{Trusted: true, Collect: true}
		if _, ok := s.Scan([]byte(in)); ok && !strings.Contains(in, "}") {
			t.Errorf("trusted Scan(%q) accepted", in)
		}
		for i := range s.NumMembers() {
			s.Member(i).Key.Text([]byte(in))
		}
	}
}

func TestScanMembersCounts(t *testing.T) {
	for n := range 12 {
		var members []string
		for i := range n {
			members = append(members, fmt.Sprintf(`"m%d":%d`, i, i))
		}
		data := []byte("{" + strings.Join(members, ",") + "}")
		s := jsonx.Scanner{Collect: true}
		if _, ok := s.Scan(data); !ok || s.NumMembers() != n {
			t.Fatalf("%d members: ok %v, NumMembers %d", n, ok, s.NumMembers())
		}
		all := s.Members()
		if len(all) != n {
			t.Fatalf("%d members: Members() has %d", n, len(all))
		}
		for i, m := range all {
			if m != s.Member(i) || m.Key.Text(data) != fmt.Sprintf("m%d", i) || string(data[m.Value.Start:m.Value.End]) != fmt.Sprint(i) {
				t.Errorf("%d members: member %d = %+v", n, i, m)
			}
		}
	}
}
