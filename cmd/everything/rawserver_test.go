package main

import (
	"bufio"
	"encoding/json"
	"fmt"
	"os"
	"os/exec"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
)

// rawServer is the built binary driven over real pipes at the byte level,
// as an adversarial client would: nothing reads its output unless the test
// says so.
//
// Methods that fail the test (send, next, initialize, peakRSS, rss,
// waitExit, waitStalled) must be called from the test's goroutine; trySend
// and readLine only return errors and may be called from any goroutine
// (one reader and one writer at a time).
type rawServer struct {
	t      *testing.T
	cmd    *exec.Cmd
	in     *os.File      // the client's end of the server's stdin
	out    *os.File      // the client's end of the server's stdout
	r      *bufio.Reader // the one reader over out, for lines of any length
	stderr syncbuf.Buffer

	waitOnce sync.Once
	waitErr  error
}

// lineTimeout bounds how long next waits for a line.
const lineTimeout = 10 * time.Second

// initLegacy is the initialize request of the legacy (2025-11-25) handshake.
const initLegacy = `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`

// startRaw starts the binary with args, its stdin and stdout on pipes of
// the test's own; the process is killed at the end of the test if still
// alive.
func startRaw(t *testing.T, args ...string) *rawServer {
	t.Helper()
	inR, inW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := &rawServer{t: t, cmd: exec.Command(binPath, args...), in: inW, out: outR, r: bufio.NewReaderSize(outR, 1<<20)}
	s.cmd.Stdin, s.cmd.Stdout, s.cmd.Stderr = inR, outW, &s.stderr
	if err := s.cmd.Start(); err != nil {
		t.Fatal(err)
	}
	inR.Close()
	outW.Close()
	t.Cleanup(func() {
		s.cmd.Process.Kill()
		s.wait()
		inW.Close()
		outR.Close()
	})
	return s
}

// wait waits for the process to exit, once; later calls return the same.
func (s *rawServer) wait() error {
	s.waitOnce.Do(func() { s.waitErr = s.cmd.Wait() })
	return s.waitErr
}

// trySend writes lines to the server's stdin, each with its newline, and
// returns the first error.
func (s *rawServer) trySend(lines ...string) error {
	for _, l := range lines {
		if _, err := s.in.WriteString(l + "\n"); err != nil {
			return fmt.Errorf("writing a line of %d bytes to the server: %w", len(l), err)
		}
	}
	return nil
}

// send writes lines to the server's stdin and fails the test on an error.
func (s *rawServer) send(lines ...string) {
	s.t.Helper()
	if err := s.trySend(lines...); err != nil {
		s.t.Fatal(err)
	}
}

// readLine returns the next line the server writes, newline included,
// waiting as long as it takes.
func (s *rawServer) readLine() (string, error) { return s.r.ReadString('\n') }

// next returns the next line the server writes, newline included, and
// fails the test if none comes within lineTimeout.
func (s *rawServer) next() string {
	s.t.Helper()
	s.out.SetReadDeadline(time.Now().Add(lineTimeout))
	defer s.out.SetReadDeadline(time.Time{})
	line, err := s.readLine()
	switch {
	case os.IsTimeout(err):
		s.t.Fatalf("no line from the server within %v (got %d bytes); stderr:\n%s", lineTimeout, len(line), s.stderr.String())
	case err != nil:
		s.t.Fatalf("reading a line from the server: %v (got %d bytes); stderr:\n%s", err, len(line), s.stderr.String())
	}
	return line
}

// initialize completes the legacy handshake: initialize, which must
// succeed, then notifications/initialized.
func (s *rawServer) initialize() {
	s.t.Helper()
	s.send(initLegacy)
	line := s.next()
	var resp struct {
		ID     json.RawMessage
		Result json.RawMessage
		Error  json.RawMessage
	}
	if err := json.Unmarshal([]byte(line), &resp); err != nil || string(resp.ID) != "0" || resp.Result == nil || resp.Error != nil {
		s.t.Fatalf("initialize: got %.300s (%v), want its result", line, err)
	}
	s.send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)
}

// peakRSS returns the server's peak resident set size (VmHWM) in bytes.
func (s *rawServer) peakRSS() int64 { return s.procBytes("VmHWM") }

// rss returns the server's current resident set size (VmRSS) in bytes.
func (s *rawServer) rss() int64 { return s.procBytes("VmRSS") }

// procBytes returns a "kB" field of the server's /proc status, in bytes;
// the test is skipped where there is no /proc.
func (s *rawServer) procBytes(field string) int64 {
	s.t.Helper()
	path := fmt.Sprintf("/proc/%d/status", s.cmd.Process.Pid)
	data, err := os.ReadFile(path)
	if err != nil {
		if _, serr := os.Stat("/proc/self/status"); serr != nil {
			s.t.Skipf("no /proc: %v", serr)
		}
		s.t.Fatalf("reading %s: %v", path, err)
	}
	for l := range strings.Lines(string(data)) {
		if rest, ok := strings.CutPrefix(l, field+":"); ok {
			kb, err := strconv.ParseInt(strings.TrimSuffix(strings.TrimSpace(rest), " kB"), 10, 64)
			if err != nil {
				s.t.Fatalf("%s: %q: %v", path, l, err)
			}
			return kb << 10
		}
	}
	s.t.Fatalf("%s has no %s", path, field)
	return 0
}

// waitExit waits at most limit for the process to exit, checks that it
// exited with status 0, and returns when it was seen to exit.
func (s *rawServer) waitExit(limit time.Duration) time.Time {
	s.t.Helper()
	done := make(chan error, 1)
	go func() { done <- s.wait() }()
	select {
	case err := <-done:
		exited := time.Now()
		if err != nil {
			s.t.Errorf("exit: %v, want status 0; stderr:\n%s", err, s.stderr.String())
		}
		return exited
	case <-time.After(limit):
		s.cmd.Process.Kill()
		<-done
		s.t.Fatalf("the server did not exit within %v; stderr:\n%s", limit, s.stderr.String())
		return time.Time{}
	}
}

// waitStalled waits until the server stops reading its stdin: a write to
// the pipe no longer goes through.
func (s *rawServer) waitStalled() {
	s.t.Helper()
	deadline := time.Now().Add(60 * time.Second) // generous: CI runs other tests beside
	for time.Now().Before(deadline) {
		s.in.SetWriteDeadline(time.Now().Add(300 * time.Millisecond))
		_, err := s.in.Write([]byte(" "))
		if os.IsTimeout(err) {
			s.in.SetWriteDeadline(time.Time{})
			return
		}
	}
	s.t.Fatal("the server kept reading: the test never reached the stalled state")
}
