package mcp_test

import (
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/transport"
)

// failingWriter refuses every write, as a closed stdout would.
type failingWriter struct{}

var errBrokenPipe = errors.New("broken pipe")

func (failingWriter) Write([]byte) (int, error) { return 0, errBrokenPipe }

// signallingWriter fails as failingWriter does and closes wrote at its
// first write.
type signallingWriter struct {
	once  sync.Once
	wrote chan struct{}
}

func (w *signallingWriter) Write([]byte) (int, error) {
	w.once.Do(func() { close(w.wrote) })
	return 0, errBrokenPipe
}

// Serve returns nil when the peer closes its side cleanly (covered by every
// other test's cleanup) and the I/O error when writing fails.
func TestServeReturnsWriteError(t *testing.T) {
	srv := newServer(t, nil)
	inR, inW := io.Pipe()
	w := &signallingWriter{wrote: make(chan struct{})}
	conn := transport.NewStream(inR, w, transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), conn) }()
	io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
	select {
	case <-w.wrote: // the answer met the failing writer
	case <-time.After(10 * time.Second):
		t.Fatal("the server wrote no answer within 10 s")
	}
	time.Sleep(10 * time.Millisecond) // and the failure is noted before the input ends
	inW.Close()
	select {
	case err := <-done:
		if !errors.Is(err, errBrokenPipe) {
			t.Fatalf("Serve returned %v, want the write error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return")
	}
}

// Cancelling Serve's context (what SIGINT and SIGTERM do in RunStdio) stops
// reading, and Serve returns nil.
func TestServeStopsOnContext(t *testing.T) {
	srv := newServer(t, nil)
	serverEnd, client := transport.Pipe(transport.Options{})
	defer client.Close()
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, serverEnd) }()
	cancel()
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve returned %v, want nil", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after its context was cancelled")
	}
}

// Once writing has failed, the peer can no longer be answered: Serve stops
// reading and returns the error even though its input stays open.
func TestServeStopsReadingAfterWriteError(t *testing.T) {
	srv := newServer(t, nil)
	inR, inW := io.Pipe()
	defer inW.Close()
	conn := transport.NewStream(inR, failingWriter{}, transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), conn) }()
	for i := 0; i < 3; i++ { // the second write reports the first's failure
		io.WriteString(inW, `{"jsonrpc":"2.0","id":1,"method":"ping"}`+"\n")
		time.Sleep(20 * time.Millisecond)
	}
	select {
	case err := <-done:
		if !errors.Is(err, errBrokenPipe) {
			t.Fatalf("Serve returned %v, want the write error", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve kept reading after writes failed")
	}
}
