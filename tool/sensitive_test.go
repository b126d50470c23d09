package tool_test

import (
	"os"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/internal/header"
)

// Tool.SensitiveHeaderNames spells out the built-in list in words: it must
// name every entry of it.
func TestSensitiveHeaderNamesDocListsTheDefaults(t *testing.T) {
	src, err := os.ReadFile("tool.go")
	if err != nil {
		t.Fatal(err)
	}
	words := map[string]bool{}
	for _, w := range strings.FieldsFunc(string(src), func(r rune) bool { return r != '_' && (r < 'a' || r > 'z') }) {
		words[w] = true
	}
	for _, n := range header.DefaultSensitiveNames() {
		if !words[n] {
			t.Errorf("Tool.SensitiveHeaderNames' doc does not name %q", n)
		}
	}
}
