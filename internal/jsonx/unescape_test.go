package jsonx_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// TestUnescapeAsEncodingJSON checks decoded text against encoding/json,
// lone surrogates included.
func TestUnescapeAsEncodingJSON(t *testing.T) {
	for _, in := range []string{
		`"plain"`, `"\"\\\/\b\f\n\r\t"`, `"\u0000\u001f\u0041\u00e9\u2028\uffff"`, `"\ud83d\ude00"`, `"\uD83D\uDE00"`,
		`"\ud800"`, `"\udc00"`, `"\ud800\u0041"`, `"\ud800\ud800"`, `"\ud800\ud800\udc00"`, `"\udbff\udfff"`,
		`"\udfff\ud800"`, `"\ud800\\"`, `"\ud800\n"`, `"\ud800x"`, `"é\u00e9😀"`,
	} {
		var want string
		if err := json.Unmarshal([]byte(in), &want); err != nil {
			t.Fatalf("%s: %v", in, err)
		}
		content := []byte(in[1 : len(in)-1])
		if got := jsonx.Unescape(content, true); got != want {
			t.Errorf("Unescape(%s) = %q, want %q", in, got, want)
		}
		if !jsonx.EqualText(content, true, want) {
			t.Errorf("EqualText(%s, %q) = false", in, want)
		}
		if jsonx.EqualText(content, true, want+"x") || jsonx.EqualText(content, true, "x"+want) {
			t.Errorf("EqualText(%s) matches a longer text", in)
		}
		plain := []byte(want)
		if utf8.Valid(plain) && !strings.ContainsAny(want, "\"\\\x00\x1f\n\r\t\b\f") {
			if !jsonx.Equal(content, true, plain, false) || !jsonx.Equal(plain, false, content, true) {
				t.Errorf("Equal(%s, %q) = false", in, want)
			}
		}
	}
}

func TestNextRuneMalformed(t *testing.T) {
	for _, in := range []string{`\`, `\u`, `\u12`, `\uzzzz`, `\x`, "\xff", `\ud800\u`, `\ud800\udc`} {
		content := []byte(in)
		for i := 0; i < len(content); {
			_, next := jsonx.NextRune(content, i)
			if next <= i {
				t.Fatalf("NextRune(%q, %d) = %d: no progress", in, i, next)
			}
			i = next
		}
		_ = jsonx.Unescape(content, true)
	}
}

func TestEqualFold(t *testing.T) {
	words := []string{"name", "Name", "NAME", "nam", "naMe ", "é", "É", "σ", "ς", "Σ", "ſ", "s", "S",
		"\u212a", "k", "K", "ß", "ẞ", "ss", "ǅ", "ǆ", "Ǆ", "Ω", "\u2126", "ω", "", "ı", "i", "I", "İ"}
	esc := func(s string) []byte {
		var b strings.Builder
		for _, r := range s {
			if r < 0x10000 {
				b.WriteString(`\u` + hex4(r))
			} else {
				b.WriteRune(r)
			}
		}
		return []byte(b.String())
	}
	for _, a := range words {
		for _, b := range words {
			want := strings.EqualFold(a, b)
			if got := jsonx.EqualFold([]byte(a), false, []byte(b), false); got != want {
				t.Errorf("EqualFold(%q, %q) = %v, want %v", a, b, got, want)
			}
			if got := jsonx.EqualFold(esc(a), true, []byte(b), false); got != want {
				t.Errorf("EqualFold(escaped %q, %q) = %v, want %v", a, b, got, want)
			}
			if got := jsonx.Equal(esc(a), true, esc(b), true); got != (a == b) {
				t.Errorf("Equal(escaped %q, escaped %q) = %v", a, b, got)
			}
		}
	}
}

func hex4(r rune) string {
	const digits = "0123456789abcdef"
	return string([]byte{digits[r>>12&0xf], digits[r>>8&0xf], digits[r>>4&0xf], digits[r&0xf]})
}
