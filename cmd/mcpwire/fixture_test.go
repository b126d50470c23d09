package main

import (
	"path/filepath"
	"slices"
	"strings"
	"testing"
)

// fixtureCase is one run of mcpwire check against the fixture server and
// its expected verdict.
type fixtureCase struct {
	name   string   // the fixture's -case
	flags  []string // check's flags, before --
	exit   int
	rules  []string // every rule id reported, sorted
	stderr string   // what stderr holds, if anything is expected there
	more   func(t *testing.T, d *doc)
}

// fixtureCases: one per admission and consume rule family, and the ways a
// server can keep the review from running.
var fixtureCases = []fixtureCase{
	{name: "good", exit: exitOK, more: func(t *testing.T, d *doc) {
		wantDetection(t, d, "modern", "answered", false)
		wantCalled(t, d, "ping", outcomeSuccess)
		wantNotCalled(t, d, "reset", skipNotReadOnly)
		wantNotCalled(t, d, "echo", skipNeedsArgs)
	}},
	{name: "bad-name", exit: exitRejected, rules: []string{"tool-name"}, more: func(t *testing.T, d *doc) {
		wantCalled(t, d, "ping", outcomeSuccess) // one bad descriptor stops nothing
		wantNotCalled(t, d, "bad name!", skipNotAdmitted)
	}},
	{name: "input-root", exit: exitRejected, rules: []string{"input-schema-root"}},
	{name: "output-array", exit: exitRejected, rules: []string{"output-schema-root"}, more: func(t *testing.T, d *doc) {
		if d.Revision != "2025-06-18" {
			t.Errorf("revision %q, want 2025-06-18", d.Revision)
		}
	}},
	{name: "header-placement", exit: exitRejected, rules: []string{"header-placement"}, more: func(t *testing.T, d *doc) {
		wantHeaders(t, d.tool(t, "tagger"), "Tag=header-placement")
	}},
	{name: "header-sensitive", exit: exitRejected, rules: []string{"header-sensitive"}, more: func(t *testing.T, d *doc) {
		wantHeaders(t, d.tool(t, "deploy"), "Api-Key=header-sensitive", "Region=ok")
	}},
	{name: "bad-resource", exit: exitRejected, rules: []string{"prompt-name", "resource-template", "resource-uri"}, more: func(t *testing.T, d *doc) {
		if len(d.Resources) != 2 || !d.Resources[0].Admitted || d.Resources[1].Admitted || len(d.Prompts) != 2 || len(d.ResourceTemplates) != 1 {
			t.Errorf("resources %+v, templates %+v, prompts %+v", d.Resources, d.ResourceTemplates, d.Prompts)
		}
	}},
	{name: "bad-image", exit: exitRejected, rules: []string{"content-base64"}, more: func(t *testing.T, d *doc) {
		if tr := wantCalled(t, d, "snapshot", outcomeSuccess); tr.Admitted || tr.Problems[0].Gate != "consume" {
			t.Errorf("snapshot: %+v", tr)
		}
	}},
	{name: "structured-schema", exit: exitRejected, rules: []string{"structured-content-schema"}},
	{name: "no-mirror", exit: exitRejected, rules: []string{"structured-text-mirror"}},
	{name: "call-error", exit: exitRejected, rules: []string{"call-error"}, more: func(t *testing.T, d *doc) {
		if tr := wantCalled(t, d, "status", outcomeError); !strings.Contains(tr.Reason, "-32602") {
			t.Errorf("status: reason %q", tr.Reason)
		}
	}},
	{name: "asks", exit: exitRejected, rules: []string{"input-undeclared"}, more: func(t *testing.T, d *doc) {
		wantCalled(t, d, "confirm", outcomeSuccess) // declined, then answered
		wantCalled(t, d, "summarise", outcomeFailed)
	}},
	{name: "fatal", exit: exitRejected, rules: []string{"call-failed"}, more: func(t *testing.T, d *doc) {
		wantCalled(t, d, "boom", outcomeFailed)
		wantNotCalled(t, d, "ping", skipServerGone)
		if e := d.Ended; e == nil || e.Exit != "it exited with status 1" || len(e.Stderr) != 1 || d.Failure != nil {
			t.Errorf("ended %+v, failure %+v; want how the server ended, and no failure", e, d.Failure)
		}
	}},
	{name: "slow", exit: exitRejected, rules: []string{"call-timeout"}, more: func(t *testing.T, d *doc) {
		wantCalled(t, d, "report", outcomeTimeout)
	}},
	{name: "slow", flags: []string{"--total", "800ms"}, exit: exitNotRun, more: func(t *testing.T, d *doc) {
		wantFailure(t, d, "review", "")
		wantNotCalled(t, d, "report", skipOutOfTime)
		wantCalled(t, d, "ping", outcomeSuccess) // the report so far is kept
	}},
	{name: "legacy-only", exit: exitOK, more: func(t *testing.T, d *doc) {
		wantDetection(t, d, "legacy", "refused", true)
		if e := d.Detection.DiscoverError; e == nil || e.Code != -32601 {
			t.Errorf("discoverError %+v, want -32601", e)
		}
		wantCalled(t, d, "ping", outcomeIsError)
		wantCalled(t, d, "counter", outcomeSuccess)
		wantNotCalled(t, d, "reset", skipNotReadOnly)
		wantNotCalled(t, d, "pick", skipNeedsArgs) // {} fails minProperties
	}},
	{name: "legacy-only", flags: []string{"--call-all"}, exit: exitOK, more: func(t *testing.T, d *doc) {
		wantCalled(t, d, "reset", outcomeSuccess)
		wantNotCalled(t, d, "echo", skipNeedsArgs)
	}},
	{name: "silent", exit: exitOK, stderr: "mcpwire: tools/list…", more: func(t *testing.T, d *doc) {
		wantDetection(t, d, "legacy", "silent", true)
	}},
	{name: "silent", flags: []string{"--total", "300ms"}, exit: exitNotRun, more: func(t *testing.T, d *doc) {
		wantFailure(t, d, "connect", "")
	}},
	{name: "pages", exit: exitOK, more: func(t *testing.T, d *doc) {
		if d.Pages["tools"] != 3 || len(d.Tools) != 5 || d.Tools[4].Name != "last" {
			t.Errorf("pages %v, %d tools, want 3 pages of 5 tools ending with last", d.Pages, len(d.Tools))
		}
	}},
	{name: "unstable", exit: exitRejected, rules: []string{"list-order"}},
	{name: "garbage", exit: exitRejected, rules: []string{"wire-message"}, more: func(t *testing.T, d *doc) {
		wantCalled(t, d, "ping", outcomeSuccess)
		if len(d.Problems) == 0 || !strings.Contains(d.Problems[0].Message, "Listening on stdio") {
			t.Errorf("problems %+v, want the first garbage line quoted first", d.Problems)
		}
	}},
	{name: "crash", exit: exitNotRun, stderr: "mcpwire check: no MCP handshake", more: func(t *testing.T, d *doc) {
		wantFailure(t, d, "connect", "status 3")
		if n := len(d.Failure.Stderr); n != 2 || !strings.Contains(d.Failure.Stderr[1], "crashing at start") {
			t.Errorf("stderr tail %q", d.Failure.Stderr)
		}
	}},
	{name: "hang", exit: exitNotRun, more: func(t *testing.T, d *doc) {
		wantFailure(t, d, "connect", "ended with SIGTERM")
	}},
}

// TestFixtures runs mcpwire check --json against every case of the
// fixture server and compares the verdict: the exit status and the rule
// ids reported.
func TestFixtures(t *testing.T) {
	t.Parallel()
	dir := t.TempDir()
	if err := goBuild(t, ".", dir, "./testdata/fixture"); err != nil {
		t.Fatal(err)
	}
	bin := filepath.Join(dir, "fixture")
	for _, c := range fixtureCases {
		t.Run(strings.Join(append([]string{c.name}, c.flags...), " "), func(t *testing.T) {
			t.Parallel()
			args := append(append([]string{"check", "--json", "--timeout", "1s"}, c.flags...), "--", bin, "-case", c.name)
			res := runCheckCmd(t, args...)
			d := decode(t, res.stdout)
			if res.exit != c.exit || d.Exit != c.exit {
				t.Errorf("exit %d (document: %d), want %d; stderr:\n%s", res.exit, d.Exit, c.exit, res.stderr)
			}
			if got := d.rules(); !slices.Equal(got, c.rules) {
				t.Errorf("rules %q, want %q\n%s", got, c.rules, res.stdout)
			}
			if !strings.Contains(res.stderr, c.stderr) {
				t.Errorf("stderr %q, want it to hold %q", res.stderr, c.stderr)
			}
			if c.more != nil {
				c.more(t, d)
			}
		})
	}
}

// wantDetection checks the era and how server/discover was answered.
func wantDetection(t *testing.T, d *doc, era, discover string, initialized bool) {
	t.Helper()
	if d.Era != era || d.Detection == nil || d.Detection.Discover != discover || d.Detection.Initialize != initialized {
		t.Errorf("era %q, detection %+v; want %s, discover %s, initialize %v", d.Era, d.Detection, era, discover, initialized)
	}
}

// wantCalled checks that a tool was called with the outcome.
func wantCalled(t *testing.T, d *doc, name, outcome string) docTool {
	t.Helper()
	tr := d.tool(t, name)
	if !tr.Called || tr.Outcome != outcome {
		t.Errorf("%s: called %v, outcome %q; want called, %q", name, tr.Called, tr.Outcome, outcome)
	}
	return tr
}

// wantNotCalled checks that a tool was not called, and why.
func wantNotCalled(t *testing.T, d *doc, name, reason string) {
	t.Helper()
	if tr := d.tool(t, name); tr.Called || tr.Outcome != outcomeNotCalled || tr.Reason != reason {
		t.Errorf("%s: called %v, outcome %q, reason %q; want not called: %q", name, tr.Called, tr.Outcome, tr.Reason, reason)
	}
}

// wantHeaders checks a tool's header audit, as name=verdict.
func wantHeaders(t *testing.T, tr docTool, want ...string) {
	t.Helper()
	var got []string
	for _, h := range tr.Headers {
		got = append(got, h.Header+"="+h.Verdict)
	}
	if !slices.Equal(got, want) {
		t.Errorf("%s: headers %q, want %q", tr.Name, got, want)
	}
}

// wantFailure checks that the review could not run, at stage, with a
// process end that mentions exit.
func wantFailure(t *testing.T, d *doc, stage, exit string) {
	t.Helper()
	if f := d.Failure; f == nil || f.Stage != stage || !strings.Contains(f.Exit, exit) || d.Verdict != "not-run" {
		t.Errorf("failure %+v, verdict %q; want stage %s, exit mentioning %q", f, d.Verdict, stage, exit)
	}
}
