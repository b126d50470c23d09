package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"regexp"
	"strconv"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
)

// fakeServerEnv makes the test binary act as a broken server (see TestMain).
const fakeServerEnv = "MCPWIRE_DEMO_FAKE_SERVER"

func TestMain(m *testing.M) {
	switch os.Getenv(fakeServerEnv) {
	case "silent": // reads everything, answers nothing
		_, _ = io.Copy(io.Discard, os.Stdin)
		os.Exit(0)
	case "exit3": // dies at once
		os.Exit(3)
	case "stubborn": // answers nothing and ignores the end of stdin
		time.Sleep(time.Minute)
		os.Exit(0)
	case "liar": // answers every request at once with an empty result
		liar()
		os.Exit(0)
	}
	os.Exit(m.Run())
}

// liar answers every request on stdin with {"result":{}}, whatever it
// asked, and ignores everything else.
func liar() {
	r := bufio.NewScanner(os.Stdin)
	for r.Scan() {
		var req struct {
			ID json.RawMessage `json:"id"`
		}
		if json.Unmarshal(r.Bytes(), &req) == nil && len(req.ID) > 0 {
			fmt.Printf(`{"jsonrpc":"2.0","id":%s,"result":{}}`+"\n", req.ID)
		}
	}
}

// checksHeld is the count in the final "✓ all N checks held" line.
var checksHeld = regexp.MustCompile(`(?m)^✓ all (\d+) checks held$`)

// TestDemoShowsWhatMatters runs the demo as `make demo` and `go run
// ./cmd/demo -all` do and checks that each exits 0, fits in its bound,
// and shows each thing it is for in the step meant to show it; -all must
// run more checks than the default run.
func TestDemoShowsWhatMatters(t *testing.T) {
	checks := map[string]int{}
	for _, mode := range demoModes {
		t.Run(mode.name, func(t *testing.T) {
			checks[mode.name] = checkDemo(t, mode.opts, mode.maxLines, mode.steps, mode.heads, mode.absent)
		})
	}
	if !t.Failed() && checks["all"] <= checks["default"] {
		t.Errorf("-all ran %d checks, the default run %d: want more with -all", checks["all"], checks["default"])
	}
}

// checkDemo runs the demo with opts and checks its output against the
// steps named, in order; it returns the number of checks the run held.
func checkDemo(t *testing.T, opts options, maxLines int, steps, heads, absent []string) int {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	var out bytes.Buffer
	start := time.Now()
	code := run(&out, opts)
	text := out.String()
	if code != 0 {
		t.Fatalf("run exited %d:\n%s", code, text)
	}
	// A hang guard, not a speed check: the session's own watchdog kills the
	// server after sessionTimeout, and a race-built run on a loaded
	// machine was seen to take 32 s.
	if took := time.Since(start); took > 2*sessionTimeout {
		t.Errorf("the demo took %s", took)
	}
	if n := strings.Count(text, "\n"); n > maxLines {
		t.Errorf("the demo printed %d lines, want at most %d", n, maxLines)
	}
	for _, bad := range append([]string{"FAIL", "\x1b"}, absent...) {
		if strings.Contains(text, bad) {
			t.Errorf("output has %q", bad)
		}
	}
	for _, want := range heads {
		if !strings.Contains(text, want) {
			t.Errorf("output lacks %q", want)
		}
	}
	held := 0
	if m := checksHeld.FindStringSubmatch(text); m != nil {
		held, _ = strconv.Atoi(m[1])
	} else {
		t.Errorf("output lacks the line \"✓ all N checks held\"")
	}

	bySteps := splitSteps(t, text)
	if len(bySteps)-1 != len(steps) {
		t.Fatalf("the demo has %d steps, want %d: %v", len(bySteps)-1, len(steps), steps)
	}
	for n, name := range steps {
		wants, ok := stepWants[name]
		if !ok {
			t.Fatalf("no wants for step %q", name)
		}
		lines := bySteps[n+1]
		i := 0
		for _, w := range wants {
			for i < len(lines) && !(strings.HasPrefix(lines[i], w.prefix) && strings.Contains(lines[i], w.text)) {
				i++
			}
			if i == len(lines) {
				t.Errorf("step %d (%s) lacks a %q line with %q (after the ones before it):\n%s", n+1, name, w.prefix, w.text, strings.Join(lines, "\n"))
				break
			}
		}
	}
	// The cancelled call is never answered: no server line after the cancel.
	if after, ok := linesAfter(bySteps[4], `"method":"notifications/cancelled"`); ok {
		for _, l := range after {
			if strings.HasPrefix(l, "← ") {
				t.Errorf("a server line after the cancel: %s", l)
			}
		}
	}
	if t.Failed() {
		t.Log("\n" + text)
	}
	return held
}

// stepHeading is a numbered step heading.
var stepHeading = regexp.MustCompile(`^(\d+)\. `)

// splitSteps returns the output's lines by step, numbered from 1 (index 0
// holds the lines before the first step), each line without the two-space
// indent of wire lines.
func splitSteps(t *testing.T, text string) [][]string {
	t.Helper()
	out := [][]string{nil}
	for _, l := range strings.Split(text, "\n") {
		if m := stepHeading.FindStringSubmatch(l); m != nil {
			if n, _ := strconv.Atoi(m[1]); n != len(out) {
				t.Fatalf("step %d follows step %d", n, len(out)-1)
			}
			out = append(out, nil)
			continue
		}
		out[len(out)-1] = append(out[len(out)-1], strings.TrimPrefix(l, "  "))
	}
	return out
}

// linesAfter returns the lines after the first one containing s.
func linesAfter(lines []string, s string) ([]string, bool) {
	for i, l := range lines {
		if strings.Contains(l, s) {
			return lines[i+1:], true
		}
	}
	return nil, false
}

// TestSessionIsDeterministicAndAsSent runs the session twice in each
// mode: the outputs must be the same byte for byte (no times, ids or
// cursors that vary), and every wire line must be printed as it crossed
// the pipes (with placeholders, in the task step, for values random per
// run), or cut with an exact count of the bytes left out.
func TestSessionIsDeterministicAndAsSent(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	bin, err := buildServer(root, t.TempDir())
	if err != nil {
		t.Fatal(err)
	}
	for _, mode := range demoModes {
		t.Run(mode.name, func(t *testing.T) { checkAsSent(t, bin, mode.opts) })
	}
}

// checkAsSent runs the session at bin twice with opts and checks that
// both printed the same, each wire line as sent.
func checkAsSent(t *testing.T, bin string, opts options) {
	var outs [2]string
	var s *session
	var err error
	for i := range outs {
		var out bytes.Buffer
		s, err = runScript(bin, &out, opts, responseTimeout)
		if err != nil {
			t.Fatalf("run %d: %v\n%s", i+1, err, out.String())
		}
		outs[i] = out.String()
	}
	if outs[0] != outs[1] {
		t.Errorf("two runs printed different output:\n%s\n---\n%s", outs[0], outs[1])
	}

	cut := regexp.MustCompile(`… \((\d+) more bytes?\)$`)
	rest := outs[1]
	for _, w := range s.wire {
		shown, raw := w.shown, w.raw
		if w.masked != nil {
			// Placeholders stand for values random per run, and for
			// nothing else: with each one matching any JSON string's
			// content, the masked line matches the line as sent.
			pattern := regexp.QuoteMeta(string(w.masked))
			for _, ph := range []string{randomShown, timeShown} {
				pattern = strings.ReplaceAll(pattern, regexp.QuoteMeta(`"`+ph+`"`), `"[^"]*"`)
			}
			if !regexp.MustCompile("^" + pattern + "$").Match(raw) {
				t.Errorf("%q is not %q with placeholders for its random values", w.masked, raw)
			}
			raw = w.masked
		}
		if m := cut.FindStringSubmatchIndex(shown); m != nil {
			n, _ := strconv.Atoi(shown[m[2]:m[3]])
			if prefix := shown[:m[0]]; !strings.HasPrefix(string(raw), prefix) || len(raw)-len(prefix) != n {
				t.Errorf("%q is not %q cut with a count of the bytes left out", shown, raw)
			}
		} else if shown != string(raw) {
			t.Errorf("printed %q for the line %q", shown, raw)
		}
		arrow := "  → "
		if w.fromServer {
			arrow = "  ← "
		}
		i := strings.Index(rest, arrow+shown+"\n")
		if i < 0 {
			t.Errorf("the output lacks %q%q, or has it out of order", arrow, shown)
			continue
		}
		rest = rest[i:]
	}
	printed := 0
	for _, l := range strings.Split(outs[1], "\n") {
		if (strings.HasPrefix(l, "  → ") || strings.HasPrefix(l, "  ← ")) && !strings.HasPrefix(l[len("  → "):], "(") { // not an event
			printed++
		}
	}
	if printed != len(s.wire) || printed < 30 {
		t.Errorf("%d wire lines printed, %d in the transcript", printed, len(s.wire))
	}
}

// TestSessionReportsBrokenServers checks that the demo fails, with FAIL
// lines and without hanging, when the server does not behave.
func TestSessionReportsBrokenServers(t *testing.T) {
	// The fakes that answer nothing are judged by timeouts, and 100 ms
	// does. The ones that answer or exit must be heard before the wait
	// ends, and a race-built test binary can take longer than 100 ms to
	// start on a loaded machine, so they get a wait that only a hang uses
	// up.
	const short, long = 100 * time.Millisecond, 2 * time.Second
	tests := []struct {
		fake string
		wait time.Duration
		want []string // in the output
	}{
		{"silent", short, []string{"FAIL no response to request 1 within 100ms", "(skipped: the server stopped answering)", "FAIL demo failed"}},
		{"exit3", long, []string{"FAIL the server closed its stdout while waiting for response to request 1", "FAIL the server exited with exit status 3", "(exits with status 3)", "FAIL demo failed"}},
		{"stubborn", short, []string{"FAIL no response to request 1 within 100ms", "FAIL the server did not close its stdout within 100ms; killing it", "FAIL demo failed"}},
		{"liar", long, []string{`FAIL the server negotiated "", not "2025-11-25"`, "FAIL the first page is not echo alone", `FAIL echo returned ""`, "FAIL no error response without an id within 2s", "FAIL demo failed"}},
	}
	for _, tt := range tests {
		t.Run(tt.fake, func(t *testing.T) {
			t.Setenv(fakeServerEnv, tt.fake)
			var out bytes.Buffer
			start := time.Now()
			_, err := runScript(os.Args[0], &out, options{all: true}, tt.wait)
			if err == nil {
				t.Fatalf("the session succeeded against a broken server:\n%s", out.String())
			}
			if took := time.Since(start); took > 30*time.Second {
				t.Errorf("took %s against a broken server", took)
			}
			for _, want := range tt.want {
				if !strings.Contains(out.String(), want) {
					t.Errorf("output lacks %q:\n%s", want, out.String())
				}
			}
			if strings.Contains(out.String(), "✓ all") {
				t.Errorf("a failed session claims success:\n%s", out.String())
			}
		})
	}
}

func TestModuleRootFindsGoMod(t *testing.T) {
	root, err := moduleRoot()
	if err != nil {
		t.Fatal(err)
	}
	if _, err := os.Stat(root + "/cmd/everything"); err != nil {
		t.Errorf("module root %s has no cmd/everything: %v", root, err)
	}
}
