package main

import (
	"bytes"
	"encoding/json"
	"os"
	"path/filepath"
	"regexp"
	"runtime"
	"slices"
	"strconv"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
)

// modernMeta makes a request a 2026-07-28 one.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"scripted-host","version":"1"}}`

// recordEverything drives `mcpwire record` in front of cmd/everything as
// a host would: initialize, tools/list and its next page, a tools/call, an
// elicitation answered, and a 2026-07-28 tools/list and its next page. It
// returns the transcript's path.
func recordEverything(t *testing.T, bins string) string {
	file := filepath.Join(t.TempDir(), "session.golden")
	r := startRecord(t, bins, "record", "--out", file, "--note", "round trip", "--",
		filepath.Join(bins, "everything"), "-page-size", "4")
	r.roundTrip(t, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{"elicitation":{}},"clientInfo":{"name":"scripted-host","version":"1"}}}`)
	r.in.WriteString(`{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n")
	page := r.roundTrip(t, `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`)
	r.roundTrip(t, `{"jsonrpc":"2.0","id":3,"method":"tools/list","params":{"cursor":"`+cursorOf(t, page)+`"}}`)
	r.roundTrip(t, `{"jsonrpc":"2.0","id":4,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"}}}`)
	ask := r.roundTrip(t, `{"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"test_elicitation","arguments":{"message":"who?"}}}`)
	var req struct{ ID json.RawMessage }
	json.Unmarshal([]byte(ask), &req)
	r.roundTrip(t, `{"jsonrpc":"2.0","id":`+string(req.ID)+`,"result":{"action":"accept","content":{"username":"ada","email":"ada@example.com"}}}`)
	page = r.roundTrip(t, `{"jsonrpc":"2.0","id":6,"method":"tools/list","params":{`+modernMeta+`}}`)
	r.roundTrip(t, `{"jsonrpc":"2.0","id":7,"method":"tools/list","params":{"cursor":"`+cursorOf(t, page)+`",`+modernMeta+`}}`)
	if code := r.wait(t); code != 0 {
		t.Fatalf("record exited %d\n%s", code, r.stderr)
	}
	return file
}

// cursorOf returns a tools/list response's nextCursor.
func cursorOf(t *testing.T, line string) string {
	t.Helper()
	var resp struct {
		Result struct{ NextCursor string } `json:"result"`
	}
	if json.Unmarshal([]byte(line), &resp) != nil || resp.Result.NextCursor == "" {
		t.Fatalf("no nextCursor in %s", line)
	}
	return resp.Result.NextCursor
}

// replayCmd runs mcpwire replay in this process.
func replayCmd(t *testing.T, args ...string) (int, string) {
	t.Helper()
	var out, errb bytes.Buffer
	code := runReplay(args, &out, &errb)
	return code, out.String() + errb.String()
}

// stepLines returns the "step at line N" numbers a replay reported.
func stepLines(out string) []int {
	var lines []int
	for _, m := range regexp.MustCompile(`step at line (\d+)`).FindAllStringSubmatch(out, -1) {
		n, _ := strconv.Atoi(m[1])
		lines = append(lines, n)
	}
	slices.Sort(lines)
	return slices.Compact(lines)
}

// clientLines returns the line numbers of the steps whose client line
// holds s.
func clientLines(t *testing.T, file, s string) []int {
	tr, err := golden.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	var lines []int
	for _, st := range tr.Steps {
		if strings.Contains(st.Client, s) {
			lines = append(lines, st.Line)
		}
	}
	return lines
}

// editFile replaces old with new in file, which must hold it.
func editFile(t *testing.T, file, old, new string) {
	t.Helper()
	b, _ := os.ReadFile(file)
	if !bytes.Contains(b, []byte(old)) {
		t.Fatalf("%s holds no %q", file, old)
	}
	os.WriteFile(file, bytes.ReplaceAll(b, []byte(old), []byte(new)), 0o644)
}

// A session recorded in front of cmd/everything has its header, names
// its cursors, and replays; a server with another page size differs in
// exactly the listing lines; an edited line is the one difference; other
// server request ids are mapped; --update rewrites the file.
func TestRecordReplayEverything(t *testing.T) {
	bins := recordBins(t)
	everything := filepath.Join(bins, "everything")
	file := recordEverything(t, bins)
	text, _ := os.ReadFile(file)
	for _, want := range []string{"\n# client: scripted-host 1 (initialize)\n", "\n# server: mcpwire-everything 0.1.0\n",
		"\n# note: round trip\n", "\n# command: " + everything + " -page-size 4\n", "\n# recorded: 20",
		`"cursor":"$CURSOR_3_1"`, `"nextCursor":"$CURSOR_3_1"`, "\n> !close\n", "\n# The server exited with status 0.\n"} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the transcript has no %q:\n%s", want, text)
		}
	}
	if code, out := replayCmd(t, file, "--", everything, "-page-size", "4"); code != replayMatched {
		t.Fatalf("replay: exit %d\n%s", code, out)
	}

	code, out := replayCmd(t, file, "--", everything, "-page-size", "5")
	if want := clientLines(t, file, `"tools/list"`); code != replayDiffers || !slices.Equal(stepLines(out), want) {
		t.Errorf("page size 5: exit %d, differing steps %v, want 1 and %v\n%s", code, stepLines(out), want, out)
	}

	edited := filepath.Join(t.TempDir(), "edited.golden")
	os.WriteFile(edited, text, 0o644)
	editFile(t, edited, `< {"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"hi"}]}}`,
		`< {"jsonrpc":"2.0","id":4,"result":{"content":[{"type":"text","text":"ho"}]}}`)
	code, out = replayCmd(t, edited, "--", everything, "-page-size", "4")
	if want := clientLines(t, edited, `"echo"`); code != replayDiffers || !slices.Equal(stepLines(out), want) ||
		!strings.Contains(out, `-`) || !strings.Contains(out, `"ho"`) {
		t.Errorf("edited echo line: exit %d, differing steps %v, want 1 and %v\n%s", code, stepLines(out), want, out)
	}

	os.WriteFile(edited, text, 0o644)
	editFile(t, edited, `"id":"s1"`, `"id":"another-server-7"`)
	if code, out := replayCmd(t, edited, "--", everything, "-page-size", "4"); code != replayMatched {
		t.Errorf("other server request ids: exit %d\n%s", code, out)
	}

	os.WriteFile(edited, text, 0o644)
	if code, out := replayCmd(t, "--update", edited, "--", everything, "-page-size", "5"); code != replayMatched {
		t.Fatalf("--update: exit %d\n%s", code, out)
	}
	if code, out := replayCmd(t, edited, "--", everything, "-page-size", "5"); code != replayMatched {
		t.Errorf("after --update: exit %d\n%s", code, out)
	}
	if code, _ := replayCmd(t, edited, "--", everything, "-page-size", "4"); code != replayDiffers {
		t.Errorf("after --update, the old server: exit %d, want 1", code)
	}
}

// Bytes pass through the proxy unchanged and at once, line by line; the
// server's stderr passes; a last line without a newline and EOF pass; the
// exit status is the server's; lines that are not JSON are recorded and
// marked.
func TestRecordRelay(t *testing.T) {
	bins := recordBins(t)
	file := filepath.Join(t.TempDir(), "relay.golden")
	r := startRecord(t, bins, append([]string{"record", "--out", file, "--"}, helperArgv(t, "echo")...)...)
	lines := []string{`{"jsonrpc":"2.0","id":1,"method":"ping"}`, `{ "spaced" :  "é ☃ \u00e9" }`, "not json at all", "", "\tx\r"}
	for _, l := range lines {
		if got := r.roundTrip(t, l); got != l+"\n" {
			t.Errorf("sent %q, got back %q", l, got)
		}
	}
	r.in.WriteString("no newline")
	r.in.Close()
	if got := r.readLine(t); got != "no newline" {
		t.Errorf("the last line came back as %q", got)
	}
	if code := r.wait(t); code != 3 {
		t.Errorf("exit %d, want the server's 3", code)
	}
	if !strings.Contains(r.stderr.String(), "helper stderr") {
		t.Errorf("the server's stderr did not pass: %q", r.stderr)
	}
	tr, err := golden.Load(file)
	if err != nil {
		t.Fatal(err)
	}
	text := tr.Format()
	for _, want := range []string{"# the client line below is not JSON\n# server line 1 after the client line below is not JSON\n> not json at all\n< not json at all\n",
		"> no newline\n", "> !close\n< no newline\n", "\n# The server exited with status 3.\n"} {
		if !strings.Contains(text, want) {
			t.Errorf("the transcript has no %q:\n%s", want, text)
		}
	}
}

// SIGTERM sent to the recorder reaches the server (in a process group of
// its own), the recorder exits with the server's status, and the file is
// written: the signal is a !close step, with what the server wrote in
// answer after it.
func TestRecordForwardsSignals(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGTERM to forward")
	}
	bins := recordBins(t)
	file := filepath.Join(t.TempDir(), "signal.golden")
	r := startRecord(t, bins, append([]string{"record", "--out", file, "--"}, helperArgv(t, "trap")...)...)
	if got := r.readLine(t); got != "ready\n" {
		t.Fatalf("the server said %q", got)
	}
	r.cmd.Process.Signal(syscall.SIGTERM)
	if got := r.readLine(t); got != "terminated\n" {
		t.Errorf("after SIGTERM the server said %q", got)
	}
	if code := r.wait(t); code != 7 {
		t.Errorf("exit %d, want the server's 7", code)
	}
	text, _ := os.ReadFile(file)
	if !strings.Contains(string(text), "before any client line (not replayed): ready\n") ||
		!strings.Contains(string(text), "# the host sent SIGTERM here; replayed as a close of stdin\n") ||
		!strings.Contains(string(text), "> !close\n< terminated\n") ||
		strings.Count(string(text), "> !close") != 1 ||
		!strings.Contains(string(text), "# The server exited with status 7.\n") {
		t.Errorf("the transcript:\n%s", text)
	}
}

// A session ended the way Claude Code ends one replays: 2026-07-28
// requests whose clientInfo is only in _meta, a subscriptions/listen
// stream held open, a tools/list, then SIGINT to the recorder, which the
// server answers by ending the stream. The header names the client from
// _meta, the signal is a !close step (once, though stdin closes after it)
// with the stream's end after it, and the file replays. The file as
// recorders wrote it before (no !close, the stream's end filed under
// tools/list) replays too.
func TestRecordSessionEndedBySignal(t *testing.T) {
	if runtime.GOOS == "windows" {
		t.Skip("no SIGINT to send")
	}
	bins := recordBins(t)
	everything := filepath.Join(bins, "everything")
	file := filepath.Join(t.TempDir(), "claude.golden")
	r := startRecord(t, bins, "record", "--out", file, "--", everything)
	ack := r.roundTrip(t, `{"jsonrpc":"2.0","id":0,"method":"subscriptions/listen","params":{"notifications":{"toolsListChanged":true},`+modernMeta+`}}`)
	if !strings.Contains(ack, "notifications/subscriptions/acknowledged") {
		t.Fatalf("the listen request got %s", ack)
	}
	if list := r.roundTrip(t, `{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{`+modernMeta+`}}`); !strings.Contains(list, `"id":1`) {
		t.Fatalf("tools/list got %s", list)
	}
	r.cmd.Process.Signal(os.Interrupt)
	if end := r.readLine(t); !strings.Contains(end, `"id":0`) || !strings.Contains(end, `"result"`) {
		t.Fatalf("after SIGINT the server wrote %s, not the end of the listen stream", end)
	}
	r.wait(t)
	text, _ := os.ReadFile(file)
	for _, want := range []string{"\n# client: scripted-host 1 (io.modelcontextprotocol/clientInfo)\n",
		"\n# the host sent SIGINT here; replayed as a close of stdin\n> !close\n< {\"jsonrpc\":\"2.0\",\"id\":0,\"result\""} {
		if !strings.Contains(string(text), want) {
			t.Errorf("the transcript has no %q:\n%s", want, text)
		}
	}
	if n := strings.Count(string(text), "> !close"); n != 1 {
		t.Errorf("%d !close steps, want 1:\n%s", n, text)
	}
	if code, out := replayCmd(t, file, "--", everything); code != replayMatched {
		t.Errorf("replay: exit %d\n%s", code, out)
	}

	old := golden.LineTimeout
	golden.LineTimeout = 2 * time.Second // a failure is a line that never comes
	t.Cleanup(func() { golden.LineTimeout = old })
	before := filepath.Join(t.TempDir(), "before.golden")
	os.WriteFile(before, text, 0o644)
	editFile(t, before, "# the host sent SIGINT here; replayed as a close of stdin\n> !close\n", "")
	if code, out := replayCmd(t, before, "--", everything); code != replayMatched {
		t.Errorf("replay of the transcript as recorders wrote it before: exit %d\n%s", code, out)
	}
}
