package jsonx

import (
	"strings"
	"testing"
)

// TestValueText checks how a value is quoted: as sent, without white
// space, clipped, a string's ellipsis inside its quotes and never in the
// middle of an escape sequence.
func TestValueText(t *testing.T) {
	a64 := strings.Repeat("a", 64)
	for _, tt := range []struct{ in, want string }{
		{`"x"`, `"x"`},
		{`1.50`, `1.50`},
		{"[ 1 ,\n\t2 ]", `[1,2]`},
		{`{ "a b" : "c d" }`, `{"a b":"c d"}`},
		{`{"a":" \" ]"  }`, `{"a":" \" ]"}`},
		{`"` + a64 + `"`, `"` + a64 + `"`},
		{`"` + a64 + `b"`, `"` + a64 + `…" (65 bytes)`},
		{`"` + a64[:60] + `\u00e9\n"`, `"` + a64[:60] + `…" (68 bytes)`},
		{`"` + a64[:62] + `\\x"`, `"` + a64[:62] + `\\…" (65 bytes)`},
		{`"` + a64[:63] + `é"`, `"` + a64[:63] + `…" (65 bytes)`},
		{`[` + a64 + `]`, `[` + a64[:63] + `… (66 bytes)`},
		{"1" + strings.Repeat("0", 100), "1" + strings.Repeat("0", 63) + "… (101 bytes)"},
	} {
		if got := ValueText([]byte(tt.in)); got != tt.want {
			t.Errorf("ValueText(%s) = %s, want %s", tt.in, got, tt.want)
		}
	}
	for _, odd := range []string{`"`, `"abc`, `"a\`, "[ \"\\"} { // not JSON: no panic
		_ = ValueText([]byte(odd))
	}
	if got := ValueText(nil); got != "the value" {
		t.Errorf("ValueText(nil) = %s", got)
	}
}

func TestPointer(t *testing.T) {
	for _, tt := range []struct {
		tokens []string
		want   string
	}{
		{nil, ""},
		{[]string{"a", "0"}, "/a/0"},
		{[]string{"a/b", "c~d", ""}, "/a~1b/c~0d/"},
		{[]string{strings.Repeat("x", 65)}, "/" + strings.Repeat("x", 64) + "… (65 bytes)"},
	} {
		if got := Pointer(tt.tokens...); got != tt.want {
			t.Errorf("Pointer(%q) = %q, want %q", tt.tokens, got, tt.want)
		}
	}
}
