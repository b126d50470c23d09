package harness

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"sync"
	"time"
)

// Server is the server under test, running as a child process whose stdio
// is recorded in Wire.
type Server struct {
	// Wire is the transcript of everything written to and read from the
	// child's stdio.
	Wire *Wire

	cmd    *exec.Cmd
	stdin  *tapWriter
	stdout *tapReader
	stderr *limitedBuffer

	done     chan struct{} // closed when the child has exited
	exitErr  error
	exitedAt time.Time

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

// Stdin is the child's standard input, as a client transport writes it.
// Closing it closes the pipe, which is how a client ends the session.
func (s *Server) Stdin() io.WriteCloser { return s.stdin }

// Stdout is the child's standard output, as a client transport reads it.
func (s *Server) Stdout() io.ReadCloser { return s.stdout }

// CloseStdin closes the child's stdin if nobody has yet, and returns when it
// was closed, by whoever closed it first.
func (s *Server) CloseStdin() time.Time {
	s.closeOnce.Do(func() {
		s.stdin.w.Close()
		s.stdinClosedAt = time.Now()
	})
	return s.stdinClosedAt
}

// Exit describes how the child ended.
type Exit struct {
	Exited bool          // it exited by itself within the wait
	Code   int           // its exit code, -1 when killed by a signal
	After  time.Duration // from stdin being closed to the exit
}

// String describes the exit for reports.
func (e Exit) String() string {
	if !e.Exited {
		return fmt.Sprintf("still running %v after stdin closed", e.After.Round(time.Millisecond))
	}
	return fmt.Sprintf("exit code %d, %v after stdin closed", e.Code, e.After.Round(time.Millisecond))
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
			return Exit{After: time.Since(closedAt)}
		}
	}
	code := 0
	var ee *exec.ExitError
	if errors.As(s.exitErr, &ee) {
		code = ee.ExitCode()
	}
	return Exit{Exited: true, Code: code, After: s.exitedAt.Sub(closedAt)}
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
