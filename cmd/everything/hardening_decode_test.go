package main

import (
	"bufio"
	"bytes"
	"encoding/json"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// decServer is the built binary driven over its real stdin and stdout.
type decServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	lines  chan string   // lines the server writes; closed at its EOF
	done   chan struct{} // closed when the stdout reader has returned
	stderr decBuffer

	waitOnce sync.Once
	waitErr  error
}

// wait drains stdout and waits for the process to exit.
func (s *decServer) wait() error {
	s.waitOnce.Do(func() {
		for range s.lines {
		}
		<-s.done
		s.waitErr = s.cmd.Wait()
	})
	return s.waitErr
}

// decBuffer is a bytes.Buffer safe for concurrent use.
type decBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *decBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *decBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// startDecServer starts the binary and completes the handshake.
func startDecServer(t *testing.T) *decServer {
	t.Helper()
	s := &decServer{t: t, cmd: exec.Command(binPath), lines: make(chan string, 16), done: make(chan struct{})}
	s.cmd.Stderr = &s.stderr
	var err error
	if s.stdin, err = s.cmd.StdinPipe(); err != nil {
		t.Fatal(err)
	}
	stdout, err := s.cmd.StdoutPipe()
	if err != nil {
		t.Fatal(err)
	}
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	go func() {
		defer close(s.done)
		defer close(s.lines)
		r := bufio.NewReader(stdout)
		for {
			l, err := r.ReadString('\n')
			if l != "" {
				s.lines <- l
			}
			if err != nil {
				return
			}
		}
	}()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		s.wait()
	})
	s.send(`{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"raw","version":"1"}}}`)
	if r := s.next(); r.ID != "1" || r.Error != nil {
		t.Fatalf("initialize: %s", r.line)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	return s
}

// send writes one line and its newline.
func (s *decServer) send(line string) {
	s.t.Helper()
	if _, err := io.WriteString(s.stdin, line+"\n"); err != nil {
		s.t.Fatalf("writing a line of %d bytes: %v", len(line), err)
	}
}

// decResponse is one line the server wrote.
type decResponse struct {
	line   string
	hasID  bool
	ID     string // raw id token
	Result json.RawMessage
	Error  *struct {
		Code    int64
		Message string
	}
}

// next returns the next line the server writes, waiting at most 10 s.
func (s *decServer) next() decResponse {
	s.t.Helper()
	select {
	case l, ok := <-s.lines:
		if !ok {
			s.t.Fatalf("server closed stdout; stderr:\n%s", s.stderr.String())
		}
		var env struct {
			ID     *json.RawMessage
			Result json.RawMessage
			Error  *struct {
				Code    int64
				Message string
			}
		}
		if err := json.Unmarshal([]byte(l), &env); err != nil {
			s.t.Fatalf("server wrote %.200q: %v", l, err)
		}
		r := decResponse{line: strings.TrimSpace(l), Result: env.Result, Error: env.Error}
		if env.ID != nil {
			r.hasID, r.ID = true, string(*env.ID)
		}
		return r
	case <-time.After(10 * time.Second):
		s.t.Fatalf("no line from the server within 10 s; stderr:\n%s", s.stderr.String())
	}
	return decResponse{}
}

// expectDecodeError checks that r is an error with code and a message holding
// msg, carrying id (the raw token) or, when id is "", no id member at all.
func expectDecodeError(t *testing.T, r decResponse, code int64, id, msg string) {
	t.Helper()
	if r.Error == nil || r.Error.Code != code || !strings.Contains(r.Error.Message, msg) {
		t.Errorf("got %.300s, want error %d with %q", r.line, code, msg)
	}
	switch {
	case id == "" && r.hasID:
		t.Errorf("got %.300s, want no id member", r.line)
	case id != "" && r.ID != id:
		t.Errorf("got %.300s, want id %s", r.line, id)
	}
}

// decPaddedPing is a ping request with the given id, padded with params to
// exactly size bytes.
func decPaddedPing(id, size int) string {
	head := `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"ping","params":{"pad":"`
	const tail = `"}}`
	return head + strings.Repeat("x", size-len(head)-len(tail)) + tail
}

// TestRawWireDecodeRules sends, over real pipes, the messages whose id
// rules and size limit the hardening issue fixed, and then a ping, which
// must still be answered.
func TestRawWireDecodeRules(t *testing.T) {
	s := startDecServer(t)

	// An over-deep message whose id came first is answered with that id.
	s.send(`{"jsonrpc":"2.0","id":7,"method":"x","params":` + strings.Repeat("[", 2000))
	expectDecodeError(t, s.next(), -32600, "7", "nesting deeper than 1000 levels")

	// Two ids: which one the sender meant is unknown, so neither is used.
	s.send(`{"jsonrpc":"2.0","id":8,"method":"ping","id":9}`)
	expectDecodeError(t, s.next(), -32600, "", `duplicate key "id"`)

	// The default limit counts the line without its newline: a line of
	// exactly the limit is served, one byte more is refused (with the id,
	// which comes before the cut).
	const limit = transport.DefaultMaxMessageBytes
	s.send(decPaddedPing(20, limit))
	if r := s.next(); r.ID != "20" || r.Error != nil || string(r.Result) != "{}" {
		t.Errorf("ping of exactly %d bytes: got %.300s, want its result", limit, r.line)
	}
	s.send(decPaddedPing(21, limit+1))
	expectDecodeError(t, s.next(), -32600, "21", fmt.Sprintf("exceeds the %d-byte limit", limit))

	s.send(`{"jsonrpc":"2.0","id":22,"method":"ping"}`)
	if r := s.next(); r.ID != "22" || r.Error != nil {
		t.Errorf("ping after the refused lines: got %s, want its result", r.line)
	}
}

// TestRawWireHugeLineMemory writes a 200 MiB line with no newline and
// checks that the server's resident memory stays bounded: it keeps the
// first bytes of an oversize line and discards the rest.
func TestRawWireHugeLineMemory(t *testing.T) {
	if testing.Short() {
		t.Skip("writes 200 MiB")
	}
	s := startDecServer(t)
	status := fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid)
	if _, err := os.Stat(status); err != nil {
		t.Skipf("no %s: %v", status, err)
	}
	const (
		total = 200 << 20
		chunk = 1 << 20
		bound = 100 << 20
	)
	if _, err := io.WriteString(s.stdin, `{"jsonrpc":"2.0","id":30,"method":"ping","params":{"pad":"`); err != nil {
		t.Fatal(err)
	}
	buf := bytes.Repeat([]byte("x"), chunk)
	var peakRSS int64
	for written := 0; written < total; written += chunk {
		if _, err := s.stdin.Write(buf); err != nil {
			t.Fatalf("after %d MiB: %v", written>>20, err)
		}
		if written%(8<<20) == 0 {
			peakRSS = max(peakRSS, decProcKB(t, status, "VmRSS")<<10)
		}
	}
	// Every write but the last pipe's worth has been read by now.
	hwm := decProcKB(t, status, "VmHWM") << 10
	t.Logf("200 MiB line: peak VmRSS sampled %.1f MiB, VmHWM %.1f MiB", float64(peakRSS)/(1<<20), float64(hwm)/(1<<20))
	if hwm > bound || peakRSS > bound {
		t.Errorf("server memory reached %d bytes (VmHWM) / %d (VmRSS), want under %d", hwm, peakRSS, bound)
	}
	if err := s.stdin.Close(); err != nil {
		t.Fatal(err)
	}
	expectDecodeError(t, s.next(), -32600, "30", fmt.Sprintf("exceeds the %d-byte limit", transport.DefaultMaxMessageBytes))
	exited := make(chan error, 1)
	go func() { exited <- s.wait() }()
	select {
	case err := <-exited:
		if err != nil {
			t.Errorf("exit: %v, want status 0; stderr:\n%s", err, s.stderr.String())
		}
	case <-time.After(10 * time.Second):
		t.Errorf("server still running 10 s after stdin closed")
	}
}

// decProcKB returns a "kB" field of a /proc/<pid>/status file, in kB.
func decProcKB(t *testing.T, path, field string) int64 {
	t.Helper()
	data, err := os.ReadFile(path)
	if err != nil {
		t.Fatalf("reading %s: %v", path, err)
	}
	for _, l := range strings.Split(string(data), "\n") {
		if rest, ok := strings.CutPrefix(l, field+":"); ok {
			n, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				t.Fatalf("%s: %q: %v", path, l, err)
			}
			return n
		}
	}
	t.Fatalf("%s has no %s", path, field)
	return 0
}
