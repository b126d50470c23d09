package mcptest_test

import (
	"context"
	"fmt"
	"os"
	"path/filepath"
	"regexp"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// everythingGolden replays the fixture of server_test.go in both eras:
// cursors and a requestState named by placeholders, a legacy elicitation
// answered, a call in flight at !close.
const everythingGolden = "testdata/everything.golden"

// initLines are a legacy handshake's lines, the server's answer included.
const initLines = `> {"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"golden","version":"1"}}}
< {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-11-25","capabilities":{"logging":{},"tools":{"listChanged":true}},"serverInfo":{"name":"greeter","version":"1"}}}
> {"jsonrpc":"2.0","method":"notifications/initialized"}
`

// callLine is a legacy tools/call of a tool without arguments.
func callLine(id int, name string) string {
	return fmt.Sprintf(`> {"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q}}`+"\n", id, name)
}

// resultLine is the result of such a call answering text.
func resultLine(id int, text string) string {
	return fmt.Sprintf(`< {"jsonrpc":"2.0","id":%d,"result":{"content":[{"type":"text","text":%q}]}}`+"\n", id, text)
}

// greeter serves text tools: each name answers its text.
func greeter(texts map[string]func() string) *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "greeter", Version: "1"}, &mcp.Options{Logger: quietLogger})
	for name, text := range texts {
		srv.MustAddTool(tool.New(name, "Answers its text.", func(context.Context, struct{}) (*tool.Result, error) {
			return tool.TextResult(text()), nil
		}))
	}
	return srv
}

// says returns a text function of a fixed text.
func says(s string) func() string { return func() string { return s } }

// writeTranscript writes a transcript into a new temporary directory.
func writeTranscript(t *testing.T, text string) string {
	t.Helper()
	path := filepath.Join(t.TempDir(), "t.golden")
	if err := os.WriteFile(path, []byte(text), 0o644); err != nil {
		t.Fatal(err)
	}
	return path
}

// copyTranscript copies the testdata transcript into a temporary
// directory, edited by edit.
func copyTranscript(t *testing.T, edit func(string) string) string {
	t.Helper()
	b, err := os.ReadFile(everythingGolden)
	if err != nil {
		t.Fatal(err)
	}
	return writeTranscript(t, edit(string(b)))
}

// lineOf returns the 1-based number of the file line holding s.
func lineOf(t *testing.T, path, s string) int {
	t.Helper()
	b, err := os.ReadFile(path)
	if err != nil {
		t.Fatal(err)
	}
	for i, l := range strings.Split(string(b), "\n") {
		if strings.Contains(l, s) {
			return i + 1
		}
	}
	t.Fatalf("%s holds no line with %q", path, s)
	return 0
}

// A transcript that matches: every server line in both eras, the cursors
// and the requestState bound to placeholders and sent back, the call in
// flight at !close answered during the shutdown; nothing reported and
// nothing left running.
func TestReplayMatches(t *testing.T) {
	before := leakcheck.Snapshot()
	rec := &recorder{TB: t}
	mcptest.Replay(rec, everything(), everythingGolden)
	if len(rec.errors) > 0 {
		t.Errorf("Replay reported:\n%s", strings.Join(rec.errors, "\n"))
	}
	leakcheck.Check(t, before)
}

// A transcript that differs in one expected line gets exactly one error,
// naming that line with a diff of the value.
func TestReplayReportsTheLineThatDiffers(t *testing.T) {
	path := copyTranscript(t, func(s string) string { return strings.Replace(s, `"Echo: hi"`, `"Echo: hello"`, 1) })
	rec := &recorder{TB: t}
	mcptest.Replay(rec, everything(), path)
	want := fmt.Sprintf("mcptest.Replay: %s:%d: server line differs (-want +got):\n", path, lineOf(t, path, `"Echo: hello"`))
	if len(rec.errors) != 1 || !strings.HasPrefix(rec.errors[0], want) ||
		!strings.Contains(rec.errors[0], "Echo: hello") || !strings.Contains(rec.errors[0], "Echo: hi") {
		t.Errorf("Replay reported %q, want one error starting %q with both texts", rec.errors, want)
	}
}

// A recording replays against the server it was recorded from, and a
// changed server gets one error per changed line, each naming the line.
func TestReplayChangedServer(t *testing.T) {
	path := writeTranscript(t, "# Three tools.\n-- session --\n"+initLines+callLine(2, "a")+callLine(3, "b")+callLine(4, "c"))
	texts := map[string]func() string{"a": says("one"), "b": says("two"), "c": says("three")}
	mcptest.Replay(t, greeter(texts), path, mcptest.Update(true))
	mcptest.Replay(t, greeter(texts), path)

	texts["a"], texts["c"] = says("ONE"), says("THREE")
	rec := &recorder{TB: t}
	mcptest.Replay(rec, greeter(texts), path)
	at := regexp.MustCompile(`^mcptest\.Replay: .*t\.golden:(\d+): server line differs`)
	var got []string
	for _, e := range rec.errors {
		if m := at.FindStringSubmatch(e); m != nil {
			got = append(got, m[1])
		} else {
			got = append(got, e)
		}
	}
	want := []string{fmt.Sprint(lineOf(t, path, `"text":"one"`)), fmt.Sprint(lineOf(t, path, `"text":"three"`))}
	if strings.Join(got, " ") != strings.Join(want, " ") {
		t.Errorf("Replay reported lines %q, want %q", got, want)
	}
}

// -update rewrites the file with what the server writes, keeping the
// lines that still match as they were (placeholders included), so a
// spoiled copy of a transcript is rewritten to the transcript; a file
// that is already right is left alone.
func TestReplayUpdate(t *testing.T) {
	good, err := os.ReadFile(everythingGolden)
	if err != nil {
		t.Fatal(err)
	}
	spoil := func(s string) string {
		s = strings.Replace(s, `"Echo: hi"`, `"Echo: wrong"`, 1)
		i := strings.LastIndex(s, "\n< ")
		return s[:i+1] // the answer after !close is gone too
	}
	for _, how := range []struct {
		name string
		opt  []mcptest.ReplayOption
		env  string
	}{{"Update(true)", []mcptest.ReplayOption{mcptest.Update(true)}, ""}, {"MCPTEST_UPDATE", nil, "1"}} {
		t.Run(how.name, func(t *testing.T) {
			if how.env != "" {
				t.Setenv("MCPTEST_UPDATE", how.env)
			}
			path := copyTranscript(t, spoil)
			mcptest.Replay(t, everything(), path, how.opt...)
			if got, _ := os.ReadFile(path); string(got) != string(good) {
				t.Errorf("rewritten:\n%s\nwant:\n%s", got, good)
			}
			if how.env != "" {
				return
			}
			stamp := time.Unix(1, 0)
			os.Chtimes(path, stamp, stamp)
			mcptest.Replay(t, everything(), path, how.opt...)
			if fi, err := os.Stat(path); err != nil || !fi.ModTime().Equal(stamp) {
				t.Errorf("an unchanged transcript was written again")
			}
		})
	}
}

// Update(false) compares whatever the environment says.
func TestReplayUpdateFalse(t *testing.T) {
	t.Setenv("MCPTEST_UPDATE", "true")
	path := copyTranscript(t, func(s string) string { return strings.Replace(s, `"Echo: hi"`, `"Echo: wrong"`, 1) })
	before, _ := os.ReadFile(path)
	rec := &recorder{TB: t}
	mcptest.Replay(rec, everything(), path, mcptest.Update(false))
	if after, _ := os.ReadFile(path); string(after) != string(before) || len(rec.errors) != 1 {
		t.Errorf("Update(false) under MCPTEST_UPDATE=true: %d errors (want 1), file changed %v", len(rec.errors), string(after) != string(before))
	}
}

// What legitimately changes between runs matches by default: RFC 3339
// times, and the values at volatile pointers (from the header or the
// Volatile option). Exact still honours the pointers, not the times.
func TestReplayNormalises(t *testing.T) {
	n := 0
	texts := map[string]func() string{
		"now":   func() string { return time.Now().UTC().Format(time.RFC3339Nano) },
		"count": func() string { n++; return fmt.Sprint("call ", n) },
	}
	session := "-- session --\n" + initLines + callLine(2, "now") + resultLine(2, "2001-02-03T04:05:06Z") +
		callLine(3, "count") + resultLine(3, "call 0")
	volatile := "# volatile: /result/content/0/text\n"
	for _, tt := range []struct {
		name   string
		header string
		opts   []mcptest.ReplayOption
		errors int
	}{
		{"default", "", nil, 1},
		{"header", volatile, nil, 0},
		{"option", "", []mcptest.ReplayOption{mcptest.Volatile("/result/content/*/text")}, 0},
		{"exact", "", []mcptest.ReplayOption{mcptest.Exact()}, 2},
		{"exact with header", volatile, []mcptest.ReplayOption{mcptest.Exact()}, 0},
	} {
		t.Run(tt.name, func(t *testing.T) {
			path := writeTranscript(t, "# Normalised values.\n"+tt.header+session)
			rec := &recorder{TB: t}
			mcptest.Replay(rec, greeter(texts), path, tt.opts...)
			if len(rec.errors) != tt.errors {
				t.Errorf("%d errors, want %d:\n%s", len(rec.errors), tt.errors, strings.Join(rec.errors, "\n"))
			}
		})
	}
}

// CheckLines sees every server line with its revision and the method of
// the request it answers, and a line it rejects is reported at that line,
// when replaying and when recording.
func TestReplayCheckLines(t *testing.T) {
	type seen struct{ rev, method string }
	var got []seen
	check := func(l mcptest.ServerLine) error {
		id := regexp.MustCompile(`"id":("[^"]*"|\d+)`).FindSubmatch(l.Text)
		s := seen{rev: l.Revision}
		if id != nil {
			s.method = l.MethodOf(id[1])
		}
		got = append(got, s)
		if strings.Contains(string(l.Text), "Echo: hi") {
			return fmt.Errorf("no echoes")
		}
		return nil
	}
	for _, update := range []bool{false, true} {
		got = nil
		path := copyTranscript(t, func(s string) string { return s })
		rec := &recorder{TB: t}
		mcptest.Replay(rec, everything(), path, mcptest.CheckLines(check), mcptest.Update(update))
		want := fmt.Sprintf("mcptest.Replay: %s:%d: line check (2025-11-25, tools/call): no echoes", path, lineOf(t, path, "Echo: hi"))
		if len(rec.errors) != 1 || !strings.HasPrefix(rec.errors[0], want) {
			t.Errorf("update %v: reported %q, want one error starting %q", update, rec.errors, want)
		}
		if len(got) != 9 || got[0] != (seen{"2025-11-25", "initialize"}) || got[3] != (seen{"2025-11-25", "tools/call"}) ||
			got[4] != (seen{"2025-11-25", ""}) || got[6] != (seen{"2026-07-28", "tools/call"}) || got[8] != (seen{"2025-11-25", "tools/call"}) {
			t.Errorf("update %v: the hook saw %v", update, got)
		}
	}
}

// TransportOptions frames the connection as RunStdio's options frame
// stdio: a line over MaxMessageBytes is refused.
func TestReplayTransportOptions(t *testing.T) {
	path := writeTranscript(t, "# An oversize ping.\n-- session --\n"+
		`> !pad 200 {"jsonrpc":"2.0","id":7,"method":"ping","params":{"p":"@PAD@"}}`+"\n")
	mcptest.Replay(t, greeter(nil), path, mcptest.Update(true), mcptest.TransportOptions(transport.Options{MaxMessageBytes: 100}))
	b, _ := os.ReadFile(path)
	if !strings.Contains(string(b), `< {"jsonrpc":"2.0","id":7,"error":{"code":-32600`) {
		t.Errorf("recorded:\n%s\nwant the ping refused (-32600)", b)
	}
	rec := &recorder{TB: t}
	mcptest.Replay(rec, greeter(nil), path)
	if len(rec.errors) != 1 {
		t.Errorf("without the limit: %q, want one difference", rec.errors)
	}
}

// A server line no step expects is reported after the last step.
func TestReplayExtraLine(t *testing.T) {
	path := writeTranscript(t, "# A call whose answer is not expected.\n-- session --\n"+initLines+callLine(2, "a"))
	rec := &recorder{TB: t}
	mcptest.Replay(rec, greeter(map[string]func() string{"a": says("one")}), path)
	want := "mcptest.Replay: " + path + ": unexpected server line after the last step: "
	if len(rec.errors) != 1 || !strings.HasPrefix(rec.errors[0], want) {
		t.Errorf("reported %q, want one error starting %q", rec.errors, want)
	}
}

// A rewrite ends each step once its request is answered, not after a
// fixed wait per client line: 20 calls rewrite in well under the 8 s that
// 400 ms per line would cost, and the rewritten file replays.
func TestReplayUpdateEndsAnsweredSteps(t *testing.T) {
	const calls = 20
	var b strings.Builder
	b.WriteString("# Twenty calls, each answered at once.\n-- session --\n" + initLines)
	for i := range calls {
		b.WriteString(callLine(i+2, "hello"))
	}
	path := writeTranscript(t, b.String())
	start := time.Now()
	mcptest.Replay(t, greeter(map[string]func() string{"hello": says("hi")}), path, mcptest.Update(true))
	if took := time.Since(start); took > calls*400*time.Millisecond/4 {
		t.Errorf("rewriting %d calls took %v", calls, took)
	}
	got, _ := os.ReadFile(path)
	if n := strings.Count(string(got), `"text":"hi"`); n != calls {
		t.Errorf("the rewrite holds %d answers, want %d:\n%s", n, calls, got)
	}
	mcptest.Replay(t, greeter(map[string]func() string{"hello": says("hi")}), path, mcptest.Update(false))
}
