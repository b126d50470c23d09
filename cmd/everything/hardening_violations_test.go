package main

import (
	"bufio"
	"bytes"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"
)

// wireServer is the built binary driven over real pipes, one line at a
// time, for tests that need the raw bytes of a response or the process.
type wireServer struct {
	t     *testing.T
	cmd   *exec.Cmd
	stdin io.WriteCloser
	out   *bufio.Reader
}

func startWire(t *testing.T) *wireServer {
	t.Helper()
	cmd := exec.Command(binPath)
	stdin, err := cmd.StdinPipe()
	if err != nil {
		t.Fatal(err)
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := cmd.Start(); err != nil {
		t.Fatal(err)
	}
	s := &wireServer{t: t, cmd: cmd, stdin: stdin, out: bufio.NewReaderSize(stdout, 1<<20)}
	t.Cleanup(func() { s.cmd.Process.Kill(); s.cmd.Wait() })
	s.send([]byte(`{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`))
	s.read()
	s.send([]byte(`{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	return s
}

func (s *wireServer) send(line []byte) {
	s.t.Helper()
	if _, err := s.stdin.Write(append(line, '\n')); err != nil {
		s.t.Fatal(err)
	}
}

func (s *wireServer) read() []byte {
	s.t.Helper()
	line, err := s.out.ReadBytes('\n')
	if err != nil {
		s.t.Fatalf("reading a response: %v (got %d bytes)", err, len(line))
	}
	return line
}

// peakRSS returns the server's peak resident set size (VmHWM) in bytes.
func (s *wireServer) peakRSS() int64 {
	s.t.Helper()
	status, err := os.ReadFile(fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid))
	if err != nil {
		s.t.Skipf("no /proc status: %v", err)
	}
	for line := range strings.Lines(string(status)) {
		if rest, ok := strings.CutPrefix(line, "VmHWM:"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				s.t.Fatalf("VmHWM line %q: %v", line, err)
			}
			return kb << 10
		}
	}
	s.t.Skip("no VmHWM in /proc status")
	return 0
}

// callText sends a tools/call and returns the raw response line and the
// text of its first content block.
func (s *wireServer) callText(id int, name string, args []byte) (line []byte, text string, isError bool) {
	s.t.Helper()
	var req bytes.Buffer
	fmt.Fprintf(&req, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":`, id, name)
	req.Write(args)
	req.WriteString("}}")
	s.send(req.Bytes())
	line = s.read()
	var resp struct {
		Result struct {
			Content []struct {
				Text string `json:"text"`
			} `json:"content"`
			IsError bool `json:"isError"`
		} `json:"result"`
	}
	if err := json.Unmarshal(line, &resp); err != nil || len(resp.Result.Content) == 0 {
		s.t.Fatalf("response %.200q: %v", line, err)
	}
	return line, resp.Result.Content[0].Text, resp.Result.IsError
}

// A 12 MB echo call with a million unknown keys gets a short answer, soon,
// and the server's memory stays bounded: the violation list is capped, and
// finding the violations past the cap costs no more than counting them.
func TestManyViolationsAreCapped(t *testing.T) {
	if testing.Short() {
		t.Skip("sends a 12 MB call")
	}
	const keys = 1_000_000
	var args bytes.Buffer
	args.WriteString(`{"text":"x"`)
	for i := range keys {
		fmt.Fprintf(&args, `,"k%d":0`, i)
	}
	args.WriteString("}")
	s := startWire(t)
	start := time.Now()
	line, text, isError := s.callText(1, "echo", args.Bytes())
	elapsed := time.Since(start)
	peak := s.peakRSS()
	t.Logf("request %d bytes: response %d bytes in %v, peak RSS %d MiB", args.Len(), len(line), elapsed, peak>>20)
	if !isError {
		t.Errorf("not an isError result: %.200s", line)
	}
	if len(line) > 64<<10 {
		t.Errorf("response is %d bytes, want under 64 KiB", len(line))
	}
	if want := fmt.Sprintf("- … and %d more", keys-20); !strings.HasSuffix(text, want) {
		t.Errorf("text does not end with %q:\n%.2000s", want, text)
	}
	if n := strings.Count(text, "\n- "); n != 21 {
		t.Errorf("%d list lines, want 20 violations and the summary:\n%.2000s", n, text)
	}
	if elapsed > 5*time.Second {
		t.Errorf("took %v, want a few seconds at most", elapsed)
	}
	if peak > 300<<20 {
		t.Errorf("peak RSS %d MiB, want under 300 MiB", peak>>20)
	}
}

// Client input quoted in a violation is clipped: a 10 MiB unknown key in
// the pointer, a 10 MiB value in an enum message.
func TestHugeInputIsClipped(t *testing.T) {
	huge := strings.Repeat("k", 10<<20)
	s := startWire(t)
	line, text, _ := s.callText(1, "echo", []byte(`{"text":"x","`+huge+`":0}`))
	want := "invalid arguments for tool echo:\n- /" + strings.Repeat("k", 64) + "… (10485760 bytes): additional property is not allowed (additionalProperties)"
	if text != want {
		t.Errorf("unknown 10 MiB key (%d-byte response):\n got %.300q\nwant %.300q", len(line), text, want)
	}
	line, text, _ = s.callText(2, "route_report", []byte(`{"region":"eu","date":"2025-03-14","service":"`+huge+`"}`))
	want = "invalid arguments for tool route_report:\n- /service: Value " + strings.Repeat("k", 64) + "… (10485760 bytes) should be one of the allowed values: standard, express (enum)"
	if text != want {
		t.Errorf("10 MiB enum value (%d-byte response):\n got %.300q\nwant %.300q", len(line), text, want)
	}
}
