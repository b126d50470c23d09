//go:build linux

package transport_test

import (
	"io"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// InputDone reports the peer's hang-up while the lines it sent are still
// unread (more than the stream's 64 KiB read buffer, so some are still in
// the pipe or socket), for a pipe and for a socket whose peer shut down its writing side
// (as Node's child_process stdio does); the unread lines are still
// returned by Read afterwards, then io.EOF.
func TestInputDoneBeforeUnreadInput(t *testing.T) {
	line := `{"jsonrpc":"2.0","method":"notifications/initialized"}` + "\n"
	const lines = 1800 // about 100 KB
	peers := map[string]func(t *testing.T) (r *os.File, hangUp func()){
		"pipe": func(t *testing.T) (*os.File, func()) {
			r, w, err := os.Pipe()
			if err != nil {
				t.Fatal(err)
			}
			wrote := writeAsync(w, strings.Repeat(line, lines))
			return r, func() { <-wrote; w.Close() }
		},
		"socket half-close": func(t *testing.T) (*os.File, func()) {
			fds, err := syscall.Socketpair(syscall.AF_UNIX, syscall.SOCK_STREAM, 0)
			if err != nil {
				t.Fatal(err)
			}
			r, w := os.NewFile(uintptr(fds[0]), "server"), os.NewFile(uintptr(fds[1]), "client")
			t.Cleanup(func() { w.Close() })
			wrote := writeAsync(w, strings.Repeat(line, lines))
			return r, func() { <-wrote; syscall.Shutdown(fds[1], syscall.SHUT_WR) }
		},
	}
	for name, peer := range peers {
		t.Run(name, func(t *testing.T) {
			r, hangUp := peer(t)
			s := transport.NewStream(r, io.Discard, transport.Options{})
			defer s.Close()
			select {
			case <-s.InputDone():
				t.Fatal("InputDone closed before the peer hung up")
			case <-time.After(50 * time.Millisecond):
			}
			hangUp()
			select {
			case <-s.InputDone():
			case <-time.After(5 * time.Second):
				t.Fatal("InputDone not closed after the peer hung up")
			}
			for i := 0; i < lines; i++ {
				if _, err := s.Read(t.Context()); err != nil {
					t.Fatalf("line %d: %v", i, err)
				}
			}
			if _, err := s.Read(t.Context()); err != io.EOF {
				t.Fatalf("after the last line: %v, want io.EOF", err)
			}
		})
	}
}

// A stream over a regular file, which epoll cannot watch, still reports
// the end of its input once reading reaches it; Close ends the watch of a
// pipe whose peer never hung up.
func TestInputDoneWithoutHangup(t *testing.T) {
	f, err := os.CreateTemp(t.TempDir(), "in")
	if err != nil {
		t.Fatal(err)
	}
	f.WriteString(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n")
	f.Seek(0, 0)
	s := transport.NewStream(f, io.Discard, transport.Options{})
	if _, err := s.Read(t.Context()); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(t.Context()); err != io.EOF {
		t.Fatalf("got %v, want io.EOF", err)
	}
	<-s.InputDone()
	s.Close()

	r, w, _ := os.Pipe()
	defer w.Close()
	p := transport.NewStream(r, io.Discard, transport.Options{})
	p.Close()
	select {
	case <-p.InputDone():
	case <-time.After(5 * time.Second):
		t.Fatal("InputDone not closed after Close")
	}
}

// writeAsync writes s to w on its own goroutine; the channel is closed once
// it is written.
func writeAsync(w *os.File, s string) <-chan struct{} {
	done := make(chan struct{})
	go func() { w.WriteString(s); close(done) }()
	return done
}
