package main

import (
	"bytes"
	"strings"
	"testing"
)

func TestClip(t *testing.T) {
	long := `{"jsonrpc":"2.0","id":1,"result":{"text":"` + strings.Repeat("x", 300) + `"}}`
	tests := []struct {
		name, line string
		n          int
		want       string
	}{
		{"short line as sent", `{"jsonrpc":"2.0", "id":1}`, 200, `{"jsonrpc":"2.0", "id":1}`},
		{"exactly n bytes", "abcde", 5, "abcde"},
		{"cut with a count", long, maxShown, long[:maxShown] + "… (" + itoa(len(long)-maxShown) + " more bytes)"},
		{"one byte cut", "abcdef", 5, "abcde… (1 more byte)"},
		{"cut at a character boundary", "héllo", 2, "h… (5 more bytes)"},
		{"cut to nothing", "abc", 0, "… (3 more bytes)"},
		{"non-JSON text kept", "this is not json", 200, "this is not json"},
		{"control characters hidden", "bad\x1b[31mline\x00", 200, "bad·[31mline·"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := clip([]byte(tt.line), tt.n); got != tt.want {
				t.Errorf("clip(%q, %d)\n got %q\nwant %q", tt.line, tt.n, got, tt.want)
			}
		})
	}
}

func itoa(n int) string { return jsonInt(int64(n)) }

func TestAfterFirstTool(t *testing.T) {
	first := `{"name":"echo","inputSchema":{"type":"object","properties":{"text":{"type":"string"}}}}`
	page := `{"jsonrpc":"2.0","id":2,"result":{"tools":[` + first + `,{"name":"add"}],"nextCursor":"AAAAAAAAABYAAAABGJJ8-hIg6I4"}}`
	tests := []struct {
		name, line string
		want       int // -1: just after first
	}{
		{"a page of tools", page, -1},
		{"spaces inside the entry", strings.Replace(page, `"name":"echo"`, `"name": "echo"`, 1), -1},
		{"an empty page", `{"jsonrpc":"2.0","id":2,"result":{"tools":[]}}`, 0},
		{"another result", `{"jsonrpc":"2.0","id":2,"result":{}}`, 0},
		{"not JSON", `tools`, 0},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			want := tt.want
			if want < 0 {
				want = strings.Index(tt.line, `{"name":"add"}`) - 1 // the comma after the first entry
			}
			if got := afterFirstTool([]byte(tt.line)); got != want {
				t.Errorf("afterFirstTool = %d, want %d (%q)", got, want, tt.line[:max(got, 0)])
			}
		})
	}
	end := strings.Index(page, first) + len(first)
	if got, want := clip([]byte(page), afterFirstTool([]byte(page))), page[:end]+"… ("+itoa(len(page)-end)+" more bytes)"; got != want {
		t.Errorf("the cut page is %q, want %q", got, want)
	}
}

func TestPrinterColour(t *testing.T) {
	for _, color := range []bool{false, true} {
		var b bytes.Buffer
		p := newPrinter(&b, color)
		p.title("title")
		p.era("era")
		p.step(1, "caption")
		p.client(`{"jsonrpc":"2.0","method":"ping"}`)
		p.server(`{"jsonrpc":"2.0","id":1,"result":{}}`, false)
		p.server(`{"jsonrpc":"2.0","id":1,"error":{}}`, true)
		p.clientEvent("closes stdin")
		p.serverEvent("exits with status 0")
		p.note("a note")
		p.ok("fine")
		p.fail("broken")
		p.stderr([]byte("a log line\n"), 10)
		out := b.String()
		if got := strings.Contains(out, "\x1b["); got != color {
			t.Errorf("color %v: escape codes present = %v:\n%q", color, got, out)
		}
		for _, want := range []string{"title", "era", "1. caption", "→", "←", "(closes stdin)", "(exits with status 0)",
			"a note", "✓ fine", "FAIL broken", "server stderr, last 1 line of 1:", "a log line"} {
			if !strings.Contains(out, want) {
				t.Errorf("color %v: output lacks %q", color, want)
			}
		}
		if color {
			continue
		}
		for _, want := range []string{"\nera\n", "  → {\"jsonrpc\":\"2.0\",\"method\":\"ping\"}\n", "  ← {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n"} {
			if !strings.Contains(out, want) {
				t.Errorf("plain output lacks %q:\n%s", want, out)
			}
		}
	}
}

func TestStderrKeepsTheLastLines(t *testing.T) {
	var b bytes.Buffer
	newPrinter(&b, false).stderr([]byte("one\ntwo\nthree\n"), 2)
	out := b.String()
	if strings.Contains(out, "one") || !strings.Contains(out, "two") || !strings.Contains(out, "three") || !strings.Contains(out, "last 2 lines of 3") {
		t.Errorf("stderr(limit 2) printed:\n%s", out)
	}
	b.Reset()
	newPrinter(&b, false).stderr(nil, 2)
	if !strings.Contains(b.String(), "nothing") {
		t.Errorf("stderr(nil) printed %q", b.String())
	}
}
