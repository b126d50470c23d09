package jsonx

import (
	"encoding/binary"
	"math/rand/v2"
	"testing"
	"unicode/utf8"
)

// TestUTF8Len compares utf8Len with utf8.DecodeRune.
func TestUTF8Len(t *testing.T) {
	edges := []byte{0x00, 0x41, 0x7f, 0x80, 0x8f, 0x90, 0x9f, 0xa0, 0xbf, 0xc0, 0xff}
	for lead := 0x80; lead <= 0xff; lead++ {
		for second := range 256 {
			for _, third := range edges {
				for _, fourth := range edges {
					full := []byte{byte(lead), byte(second), third, fourth}
					for n := 1; n <= len(full); n++ {
						b := full[:n]
						want := 0
						if r, size := utf8.DecodeRune(b); r != utf8.RuneError || size > 1 {
							want = size
						}
						if got := utf8Len(b, 0); got != want {
							t.Fatalf("utf8Len(% x) = %d, want %d", b, got, want)
						}
					}
				}
			}
		}
	}
}

// TestPlain8 checks the 8-byte test against a byte-by-byte one.
func TestPlain8(t *testing.T) {
	rng := rand.New(rand.NewPCG(3, 4))
	special := []byte{0, 0x1f, 0x20, '"', '\\', 0x7f, 0x80, 0xff, 'a', '!', '#', '[', ']'}
	for range 200000 {
		var b [8]byte
		for i := range b {
			if rng.IntN(4) == 0 {
				b[i] = special[rng.IntN(len(special))]
			} else {
				b[i] = byte(rng.IntN(256))
			}
		}
		want := true
		for _, c := range b {
			if c < 0x20 || c == '"' || c == '\\' || c >= 0x80 {
				want = false
			}
		}
		if got := plain8(binary.LittleEndian.Uint64(b[:])); got != want {
			t.Fatalf("plain8(%q) = %v", b, got)
		}
	}
}

// StringValue reads one JSON string, aliasing it when it has no escape.
func TestStringValue(t *testing.T) {
	for _, tt := range []struct {
		raw, want string
		ok        bool
	}{
		{`"abc"`, "abc", true},
		{` "a\u0062c" `, "abc", true},
		{`""`, "", true},
		{`"abc`, "", false},
		{`"a" "b"`, "", false},
		{`1`, "", false},
		{``, "", false},
		{"\"a\x01\"", "", false},
	} {
		got, ok := StringValue([]byte(tt.raw))
		if ok != tt.ok || string(got) != tt.want {
			t.Errorf("StringValue(%q) = %q, %v; want %q, %v", tt.raw, got, ok, tt.want, tt.ok)
		}
	}
	raw := []byte(`"plain"`)
	if got, _ := StringValue(raw); &got[0] != &raw[1] {
		t.Error("a string without escapes was copied")
	}
}

// OneLine leaves one-line JSON alone (the same bytes) and compacts JSON
// that spans lines; a line break that is not white space is not JSON.
func TestOneLine(t *testing.T) {
	same := []byte(`{ "a": 1 }`)
	if got, err := OneLine(same); err != nil || &got[0] != &same[0] {
		t.Errorf("one line: %q, %v; want the same bytes", got, err)
	}
	got, err := OneLine([]byte("{\n  \"a\": [1,\r\n 2],\n  \"s\": \"x y\"\n}"))
	if err != nil || string(got) != `{"a":[1,2],"s":"x y"}` {
		t.Errorf("lines: %q, %v", got, err)
	}
	if _, err := OneLine([]byte("{\"a\":\n")); err == nil {
		t.Error("a cut value spanning lines: no error")
	}
}
