package main

import (
	"bytes"
	"fmt"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// The command line: usage, help, unknown subcommands and bad flags.
func TestCommandLine(t *testing.T) {
	for _, c := range []struct {
		args   []string
		exit   int
		stdout string // a substring, "" for nothing
		stderr string
	}{
		{nil, exitNotRun, "", "Usage:"},
		{[]string{"help"}, exitOK, "mcpwire check [--json]", ""},
		{[]string{"--help"}, exitOK, "Usage:", ""},
		{[]string{"lint"}, exitNotRun, "", `unknown subcommand "lint"`},
		{[]string{"check"}, exitNotRun, "", "no server command given"},
		{[]string{"check", "--url", "http://127.0.0.1:1/mcp"}, exitNotRun, "cannot reach http://127.0.0.1:1/mcp", ""},
		{[]string{"check", "--timeout", "0s", "--", "x"}, exitNotRun, "", "must be positive"},
		{[]string{"check", "--bogus", "--", "x"}, exitNotRun, "", "flag provided but not defined: -bogus"},
		{[]string{"check", "-h"}, exitOK, "", "Usage:"},
		{[]string{"check", "--", "./no-such-server"}, exitNotRun, "could not run (start)", ""},
	} {
		res := runCheckCmd(t, c.args...)
		if res.exit != c.exit || !contains(res.stdout, c.stdout) || !contains(res.stderr, c.stderr) {
			t.Errorf("mcpwire %q: exit %d, stdout %q, stderr %q; want exit %d, stdout with %q, stderr with %q",
				c.args, res.exit, res.stdout, res.stderr, c.exit, c.stdout, c.stderr)
		}
	}
}

// contains is strings.Contains where want "" means s must be empty.
func contains(s, want string) bool {
	if want == "" {
		return s == ""
	}
	return strings.Contains(s, want)
}

// The stderr tail keeps the last lines, each bounded, across writes
// that split lines anywhere.
func TestTail(t *testing.T) {
	tl := newTail(3)
	for i := range 5 {
		fmt.Fprintf(tl, "line %d\n", i)
	}
	tl.Write([]byte("long " + strings.Repeat("é", tailLineSize)))
	tl.Write([]byte("\r\nun"))
	tl.Write([]byte("finished"))
	got := tl.Lines()
	if len(got) != 4 || got[0] != "line 3" || got[1] != "line 4" || got[3] != "unfinished" {
		t.Fatalf("lines %q", got)
	}
	if l := got[2]; !strings.HasSuffix(l, "é…") || len(l) > tailLineSize+len("…") {
		t.Errorf("long line kept as %q (%d bytes)", l, len(l))
	}
}

// The sniffer counts the stdout lines that cannot be JSON-RPC and keeps
// the first, whatever the reads' boundaries.
func TestSniffer(t *testing.T) {
	in := "{\"a\":1}\n  [1]\nStarting server" + strings.Repeat(".", 100) + "\r\n\n{}\nready\n"
	for _, chunk := range []int{1, 3, len(in)} {
		s := newSniffer(nopCloser{strings.NewReader(in)})
		buf := make([]byte, chunk)
		for {
			if _, err := s.Read(buf); err != nil {
				break
			}
		}
		n, first := s.seen()
		if n != 2 || !strings.HasPrefix(first, "Starting server...") || !strings.Contains(first, "… (") {
			t.Errorf("chunks of %d: %d lines, first %q; want 2, the banner clipped", chunk, n, first)
		}
	}
}

type nopCloser struct{ *strings.Reader }

func (nopCloser) Close() error { return nil }

// safe neutralises what a hostile server could send to a terminal.
func TestSafe(t *testing.T) {
	for in, want := range map[string]string{
		"plain name":         "plain name",
		"é and 日本":           "é and 日本",
		"\x1b[31mred\x1b[0m": `\u001b[31mred\u001b[0m`,
		"tab\tnew\nline":     `tab\u0009new\u000aline`,
		"bad \xff byte":      `bad \xff byte`,
		"bidi \u202e":        `bidi \u202e`,
	} {
		if got := safe(in); got != want {
			t.Errorf("safe(%q) = %q, want %q", in, got, want)
		}
	}
}

// Progress lines appear only once the review has been long.
func TestProgress(t *testing.T) {
	var buf bytes.Buffer
	p := newProgress(&buf)
	p.step("quick")
	p.after = 0
	p.step("calling %d tools…", 12)
	if buf.String() != "mcpwire: calling 12 tools…\n" {
		t.Errorf("progress %q", buf.String())
	}
	var none *progress
	none.step("nothing") // a nil progress is silent
	if progressAfter < time.Second/2 {
		t.Errorf("progressAfter = %v", progressAfter)
	}
}

// The table: colour only when asked, verdicts aligned, findings under
// their row, server text made safe.
func TestTable(t *testing.T) {
	rep := newReport()
	rep.command = "srv"
	rep.Tools = []*toolReport{
		{Name: "ok_tool", Admitted: true, Called: true, Outcome: outcomeSuccess},
		{Name: "bad\x1b]0;pwned\x07", Reason: skipNotAdmitted, Problems: []review.Problem{{Gate: "admit", Rule: "tool-name", Path: "/name", Message: "bad"}}},
	}
	rep.Pages["tools"] = 1
	rep.finish()
	for _, colour := range []bool{false, true} {
		var buf bytes.Buffer
		if err := writeTable(&buf, rep, colour); err != nil {
			t.Fatal(err)
		}
		out := buf.String()
		if strings.Contains(out, "\x1b[") != colour || strings.Contains(out, "\x1b]") || strings.Contains(out, "\x07") {
			t.Errorf("colour %v:\n%q", colour, out)
		}
		if colour {
			continue
		}
		want := "TOOL                     VERDICT   CALL\n" +
			"ok_tool                  ok        success\n" +
			`bad\u001b]0;pwned\u0007` + "  rejected  not called: not admitted\n" +
			"    ✗ admit tool-name /name: bad\n"
		if !strings.Contains(out, want) || !strings.Contains(out, "verdict: rejected: 1 of 2 tools (exit 1)") {
			t.Errorf("table:\n%s\nwant it to hold:\n%s", out, want)
		}
	}
}
