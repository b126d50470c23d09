package scenario

import (
	"strings"
	"testing"
	"unicode/utf8"
)

func TestBigText(t *testing.T) {
	for _, n := range []int{0, 1, 3, 1000, 1 << 20} {
		s := BigText(n)
		if len(s) != n {
			t.Errorf("BigText(%d) has %d bytes", n, len(s))
		}
		if !utf8.ValidString(s) {
			t.Errorf("BigText(%d) is not valid UTF-8", n)
		}
		if BigText(n) != s {
			t.Errorf("BigText(%d) is not deterministic", n)
		}
	}
	big := BigText(1 << 20)
	for _, want := range []string{`"`, `\`, "\n", "é", "✓", "😀"} {
		if !strings.Contains(big, want) {
			t.Errorf("BigText(1 MiB) lacks %q", want)
		}
	}
}
