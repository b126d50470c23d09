package main

import (
	"bytes"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
)

// A server that answers with the time and a random number: the times
// compare equal as RFC 3339 values, the numbers differ until the header
// marks them volatile.
func TestReplayNormalises(t *testing.T) {
	bins := recordBins(t)
	file := filepath.Join(t.TempDir(), "clock.golden")
	argv := helperArgv(t, "clock")
	r := startRecord(t, bins, append([]string{"record", "--out", file, "--"}, argv...)...)
	r.roundTrip(t, `{"jsonrpc":"2.0","id":1,"method":"tools/call"}`)
	r.roundTrip(t, `{"jsonrpc":"2.0","id":2,"method":"tools/call"}`)
	if code := r.wait(t); code != 0 {
		t.Fatalf("record exited %d", code)
	}
	code, out := replayCmd(t, append([]string{file, "--"}, argv...)...)
	changed := regexp.MustCompile(`(?m)^[\s\x{a0}]*[-+][\s\x{a0}].*$`).FindAllString(out, -1)
	if code != replayDiffers || strings.Count(out, "server line differs") != 2 || len(changed) != 4 || strings.Contains(strings.Join(changed, ""), `"now"`) {
		t.Errorf("without volatile: exit %d, want 1 with two differences in n and none in now:\n%s", code, out)
	}
	editFile(t, file, "\n-- session --\n", "\n# volatile: /result/n\n-- session --\n")
	if code, out := replayCmd(t, append([]string{file, "--"}, argv...)...); code != replayMatched {
		t.Errorf("with /result/n volatile: exit %d\n%s", code, out)
	}
}

// A wrong command line, a transcript that does not load or names a bad
// pointer, and a server that does not start are exit 2; so is a record
// that cannot write its file.
func TestReplayNotRun(t *testing.T) {
	dir := t.TempDir()
	good := filepath.Join(dir, "good.golden")
	os.WriteFile(good, []byte("# t\n-- session --\n> {}\n"), 0o644)
	bad := filepath.Join(dir, "bad.golden")
	os.WriteFile(bad, []byte("# t\n# volatile: result\n-- session --\n> {}\n"), 0o644)
	for _, args := range [][]string{
		{},
		{good},
		{good, "cat"},
		{filepath.Join(dir, "missing.golden"), "--", "cat"},
		{bad, "--", "cat"},
		{good, "--", filepath.Join(dir, "no-such-server")},
	} {
		if code, out := replayCmd(t, args...); code != replayNotRun {
			t.Errorf("replay %q: exit %d, want 2\n%s", args, code, out)
		}
	}
	var out, errb bytes.Buffer
	for _, args := range [][]string{
		{"--", "cat"},
		{"--out", filepath.Join(dir, "f.golden")},
		{"--out", filepath.Join(dir, "no-dir", "f.golden"), "--", "cat"},
		{"--out", filepath.Join(dir, "f.golden"), "--", filepath.Join(dir, "no-such-server")},
	} {
		if code := runRecord(args, strings.NewReader(""), &out, &errb); code != 2 {
			t.Errorf("record %q: exit %d, want 2\n%s", args, code, errb.String())
		}
	}
}
