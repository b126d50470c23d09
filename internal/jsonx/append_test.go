package jsonx_test

import (
	"encoding/json"
	"strings"
	"testing"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

func TestAppendString(t *testing.T) {
	tests := []struct {
		in, want string
	}{
		{"", `""`},
		{"plain", `"plain"`},
		{`q"b\`, `"q\"b\\"`},
		{"\n\r\t", `"\n\r\t"`},
		{"\x00\x01\x1f\x7f", `"\u0000\u0001\u001f` + "\x7f" + `"`},
		{"\b\f", `"\b\f"`},
		{"a\u2028b\u2029", `"a\u2028b\u2029"`},
		{"héllo ✓ 😀", `"héllo ✓ 😀"`},
		{"a\xffb", `"a\ufffdb"`},
		{"\xc3", `"\ufffd"`},
		{"\xed\xa0\x80", `"\ufffd\ufffd\ufffd"`}, // surrogate half, byte by byte
		{"\xf0\x9f\x98", `"\ufffd\ufffd\ufffd"`}, // truncated 4-byte sequence
		{"</script>&", `"</script>&"`},
	}
	for _, tt := range tests {
		got := string(jsonx.AppendString([]byte("x"), tt.in))
		if got != "x"+tt.want {
			t.Errorf("AppendString(%q) = %s, want %s", tt.in, got[1:], tt.want)
		}
		checkJSONString(t, tt.in, got[1:])
	}
	// Every byte value, alone and after a multi-byte rune.
	for c := 0; c < 256; c++ {
		for _, s := range []string{string([]byte{byte(c)}), "é" + string([]byte{byte(c)}) + "x"} {
			checkJSONString(t, s, string(jsonx.AppendString(nil, s)))
		}
	}
}

// checkJSONString checks that enc, the encoding of in, is valid UTF-8 and
// valid JSON, and decodes (with encoding/json) to in with invalid bytes
// replaced by U+FFFD.
func checkJSONString(t *testing.T, in, enc string) {
	t.Helper()
	if !utf8.ValidString(enc) {
		t.Errorf("AppendString(%q) = %q is not valid UTF-8", in, enc)
	}
	if strings.ContainsAny(enc, "\n\r") {
		t.Errorf("AppendString(%q) = %q holds a raw line break", in, enc)
	}
	var back string
	if err := json.Unmarshal([]byte(enc), &back); err != nil {
		t.Errorf("AppendString(%q) = %q is not a JSON string: %v", in, enc, err)
		return
	}
	if back != replaceEachByte(in) {
		t.Errorf("AppendString(%q) decodes to %q", in, back)
	}
}

// replaceEachByte replaces every invalid byte with U+FFFD.
func replaceEachByte(s string) string {
	var b strings.Builder
	for _, r := range s {
		b.WriteRune(r) // range yields U+FFFD for each invalid byte
	}
	return b.String()
}
