package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strings"
	"sync"
	"syscall"
	"time"
)

// Server is the server under test, running as a child process whose stdio
// (or, for a server started with StartHTTP, whose HTTP traffic through
// HTTPClient) is recorded in Wire.
type Server struct {
	// Wire is the transcript of everything written to and read from the
	// child's stdio, or of every JSON-RPC message in the HTTP exchanges.
	Wire *Wire
	// URL is the MCP endpoint of a server started with StartHTTP, "" for
	// a stdio server.
	URL string

	cmd    *exec.Cmd
	stdin  *tapWriter
	stdout *tapReader
	stderr *limitedBuffer

	done     chan struct{} // closed when the child has exited
	exitErr  error
	exitedAt time.Time

	http          bool // started by StartHTTP: ended with SIGTERM
	closeOnce     sync.Once
	stdinClosedAt time.Time
}

// Start runs path with args, its stdin and stdout connected to pipes that
// Stdin and Stdout expose, and its stderr kept for Stderr.
func Start(path string, args ...string) (*Server, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	outR, outW, err := os.Pipe()
	if err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	s := &Server{Wire: &Wire{}, stderr: &limitedBuffer{max: 64 << 10}, done: make(chan struct{})}
	s.cmd = exec.Command(path, args...)
	s.cmd.Stdin = inR
	s.cmd.Stdout = outW
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		for _, f := range []*os.File{inR, inW, outR, outW} {
			f.Close()
		}
		return nil, err
	}
	// The child holds its own copies of these ends now.
	inR.Close()
	outW.Close()
	s.stdin = &tapWriter{w: inW, s: s}
	s.stdout = &tapReader{r: outR, wire: s.Wire}
	go func() {
		s.exitErr = s.cmd.Wait()
		s.exitedAt = time.Now()
		close(s.done)
	}()
	return s, nil
}

// listeningPrefix starts the line cmd/everything logs to stderr with the
// URL it serves, once it is listening.
const listeningPrefix = "everything: listening on "

// StartHTTP runs path with -http 127.0.0.1:0 and args, waits (at most
// wait) for the line on its stderr that gives the URL it serves, and
// returns the server with that URL. The child's stdin is empty and stays
// open; WaitExit ends it with SIGTERM instead of closing stdin.
func StartHTTP(wait time.Duration, path string, args ...string) (*Server, error) {
	inR, inW, err := os.Pipe()
	if err != nil {
		return nil, err
	}
	s := &Server{Wire: &Wire{}, stderr: &limitedBuffer{max: 64 << 10}, done: make(chan struct{})}
	s.cmd = exec.Command(path, append([]string{"-http", "127.0.0.1:0"}, args...)...)
	s.cmd.Stdin = inR
	s.cmd.Stdout = io.Discard
	s.cmd.Stderr = s.stderr
	if err := s.cmd.Start(); err != nil {
		inR.Close()
		inW.Close()
		return nil, err
	}
	inR.Close()
	s.stdin = &tapWriter{w: inW, s: s}
	s.http = true
	go func() {
		s.exitErr = s.cmd.Wait()
		s.exitedAt = time.Now()
		close(s.done)
	}()
	deadline := time.Now().Add(wait)
	for {
		if u := listeningURL(s.stderr.String()); u != "" {
			s.URL = u
			return s, nil
		}
		select {
		case <-s.done:
			return nil, fmt.Errorf("the server exited before listening (%v); stderr: %s", s.exitErr, s.stderr.String())
		case <-time.After(10 * time.Millisecond):
		}
		if time.Now().After(deadline) {
			s.Kill()
			return nil, fmt.Errorf("no %q line on stderr within %v; stderr: %s", strings.TrimSpace(listeningPrefix), wait, s.stderr.String())
		}
	}
}

// listeningURL finds the URL in the server's "listening on" line, once the
// whole line has been written.
func listeningURL(stderr string) string {
	lines := strings.Split(stderr, "\n")
	for _, line := range lines[:len(lines)-1] { // the last one is not complete
		if u, ok := strings.CutPrefix(line, listeningPrefix); ok {
			return strings.TrimSpace(u)
		}
	}
	return ""
}

// Stdin is the child's standard input, as a client transport writes it.
// Closing it closes the pipe, which is how a client ends the session.
func (s *Server) Stdin() io.WriteCloser { return s.stdin }

// Stdout is the child's standard output, as a client transport reads it.
func (s *Server) Stdout() io.ReadCloser { return s.stdout }

// CloseStdin closes the child's stdin if nobody has yet, and returns when it
// was closed, by whoever closed it first. For a server started with
// StartHTTP it sends SIGTERM instead, the way such a server is stopped.
func (s *Server) CloseStdin() time.Time {
	s.closeOnce.Do(func() {
		if s.http {
			_ = s.cmd.Process.Signal(syscall.SIGTERM)
		} else {
			s.stdin.w.Close()
		}
		s.stdinClosedAt = time.Now()
	})
	return s.stdinClosedAt
}

// Ending says how the child is asked to end: "stdin closed", or
// "SIGTERM" for a server started with StartHTTP.
func (s *Server) Ending() string {
	if s.http {
		return "SIGTERM"
	}
	return "stdin closed"
}

// Exit describes how the child ended.
type Exit struct {
	Exited bool          // it exited by itself within the wait
	Code   int           // its exit code, -1 when killed by a signal
	After  time.Duration // from stdin being closed (or SIGTERM) to the exit
	Ending string        // what ended it: "stdin closed" or "SIGTERM"
}

// String describes the exit for reports.
func (e Exit) String() string {
	if !e.Exited {
		return fmt.Sprintf("still running %v after %s", e.After.Round(time.Millisecond), e.ending())
	}
	return fmt.Sprintf("exit code %d, %v after %s", e.Code, e.After.Round(time.Millisecond), e.ending())
}

func (e Exit) ending() string {
	if e.Ending == "" {
		return "stdin closed"
	}
	return e.Ending
}

// WaitExit waits until limit has passed since stdin was closed for the child
// to exit by itself, and reports when it did (which may be later than limit
// if the caller itself only got here late). It closes stdin first if nobody
// has. A child still running afterwards is killed, and Exit.Exited is false.
func (s *Server) WaitExit(limit time.Duration) Exit {
	closedAt := s.CloseStdin()
	timer := time.NewTimer(time.Until(closedAt.Add(limit)))
	defer timer.Stop()
	select {
	case <-s.done:
	case <-timer.C:
		select {
		case <-s.done: // it exited just as the wait ended
		default:
			s.Kill()
			return Exit{After: time.Since(closedAt), Ending: s.Ending()}
		}
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(s.exitErr, &ee) {
		code = ee.ExitCode()
	}
	return Exit{Exited: true, Code: code, After: s.exitedAt.Sub(closedAt), Ending: s.Ending()}
}

// Kill ends the child at once, if it is still running, and waits for it.
func (s *Server) Kill() {
	select {
	case <-s.done:
		return
	default:
	}
	_ = s.cmd.Process.Kill()
	<-s.done
}

// Stderr returns what the child wrote to stderr so far (its last 64 KiB).
func (s *Server) Stderr() string { return s.stderr.String() }

// tapWriter forwards writes to the child's stdin and records them.
type tapWriter struct {
	w io.WriteCloser
	s *Server
}

// Write records p before passing it on, so that the transcript never shows
// the server's answer ahead of the line it answers.
func (t *tapWriter) Write(p []byte) (int, error) {
	t.s.Wire.Feed(ClientToServer, p)
	return t.w.Write(p)
}

func (t *tapWriter) Close() error {
	t.s.CloseStdin()
	return nil
}

// tapReader reads the child's stdout and records what it read.
type tapReader struct {
	r    io.ReadCloser
	wire *Wire
}

func (t *tapReader) Read(p []byte) (int, error) {
	n, err := t.r.Read(p)
	t.wire.Feed(ServerToClient, p[:n])
	return n, err
}

func (t *tapReader) Close() error { return t.r.Close() }

// limitedBuffer keeps the last max bytes written to it.
type limitedBuffer struct {
	mu  sync.Mutex
	max int
	buf bytes.Buffer
}

func (b *limitedBuffer) Write(p []byte) (int, error) {
	b.mu.Lock()
	defer b.mu.Unlock()
	b.buf.Write(p)
	if over := b.buf.Len() - b.max; over > 0 {
		b.buf.Next(over)
	}
	return len(p), nil
}

func (b *limitedBuffer) String() string {
	b.mu.Lock()
	defer b.mu.Unlock()
	return b.buf.String()
}
