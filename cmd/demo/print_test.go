package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestDisplay(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 300) + `"}}`
	tools := `{"jsonrpc":"2.0","id":2,"result":{"tools":[` +
		`{"name":"echo","description":"` + strings.Repeat("d", 100) + `"},` +
		`{"name":"add","description":"` + strings.Repeat("d", 100) + `"}],"nextCursor":"abc"}}`
	tests := []struct {
		name, line, want string
	}{
		{"compacts JSON", `{ "jsonrpc": "2.0", "id": 1 }`, `{"jsonrpc":"2.0","id":1}`},
		{"keeps non-JSON text", `this is not json`, `this is not json`},
		{"hides control characters", "bad\x1b[31mline\x00", "bad·[31mline·"},
		{"cuts long lines", long, long[:maxShown-1] + "…"},
		{"summarises tools/list", tools, `{"jsonrpc":"2.0","id":2,"result":{"tools":[2 tools: echo, add],"nextCursor":"abc"}}`},
		{"short tools/list stays as is", `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`, `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := display([]byte(tt.line)); got != tt.want {
				t.Errorf("display(%q)\n got %q\nwant %q", tt.line, got, tt.want)
			}
		})
	}
}

func TestTruncateCountsCharacters(t *testing.T) {
	tests := []struct {
		in   string
		n    int
		want string
	}{
		{"héllo", 5, "héllo"},
		{"héllo✓", 5, "héll…"},
		{"", 3, ""},
	}
	for _, tt := range tests {
		if got := truncate(tt.in, tt.n); got != tt.want {
			t.Errorf("truncate(%q, %d) = %q, want %q", tt.in, tt.n, got, tt.want)
		}
	}
}

func TestPrinterColour(t *testing.T) {
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		p := newPrinter(&b, color)
		p.step(1, "caption")
		p.client([]byte(`{"jsonrpc":"2.0","method":"ping"}`))
		p.server([]byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), false)
		p.ok("fine")
		p.fail("broken")
		p.stderr([]byte("a log line\n"), 10)
		out := b.String()
		if got := strings.Contains(out, "\x1b["); got != color {
			t.Errorf("color %v: escape codes present = %v:\n%q", color, got, out)
		}
		for _, want := range []string{"1. caption", "→ client", "← server", "✓ fine", "FAIL broken", "server stderr (1 line)", "a log line"} {
			if !strings.Contains(out, want) {
				t.Errorf("color %v: output lacks %q", color, want)
			}
		}
	}
}
