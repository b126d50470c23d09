package clip

import (
	"strings"
	"testing"
)

func TestClip(t *testing.T) {
	long := strings.Repeat("a", 10<<20)
	accents := strings.Repeat("é", 40) // 80 bytes, 2 bytes a character
	tests := []struct {
		name string
		got  string
		want string
	}{
		{"short string", String("abc"), "abc"},
		{"exactly Max", String(strings.Repeat("b", Max)), strings.Repeat("b", Max)},
		{"long string", String(long), strings.Repeat("a", Max) + "… (10485760 bytes)"},
		{"cut on a character", String(accents), strings.Repeat("é", 32) + "… (80 bytes)"},
		{"odd cut on a character", String("x" + accents), "x" + strings.Repeat("é", 31) + "… (81 bytes)"},
		{"short quote", Quote(`a"b`), `"a\"b"`},
		{"long quote", Quote(long), `"` + strings.Repeat("a", Max) + `…" (10485760 bytes)`},
		{"short bytes", Bytes([]byte(`{"a":1}`)), `{"a":1}`},
		{"long bytes", Bytes([]byte(long)), strings.Repeat("a", Max) + "… (10485760 bytes)"},
		{"bytes cut on a character", Bytes([]byte("x" + accents)), "x" + strings.Repeat("é", 31) + "… (81 bytes)"},
	}
	for _, tt := range tests {
		if tt.got != tt.want {
			t.Errorf("%s: got %q, want %q", tt.name, tt.got, tt.want)
		}
	}
}

func TestBytesShortBuffer(t *testing.T) {
	// Just over Max: Bytes must not read past the end of b.
	b := []byte(strings.Repeat("c", Max+1))
	if got, want := Bytes(b), strings.Repeat("c", Max)+"… (65 bytes)"; got != want {
		t.Errorf("got %q, want %q", got, want)
	}
}
