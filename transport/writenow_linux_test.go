//go:build linux

package transport_test

import (
	"bufio"
	"context"
	"encoding/json"
	"os"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// readNow reads what the pipe holds at this moment, without waiting.
func readNow(t *testing.T, r *os.File, buf []byte) string {
	t.Helper()
	rc, err := r.SyscallConn()
	if err != nil {
		t.Fatal(err)
	}
	n := 0
	rc.Read(func(fd uintptr) bool {
		n, _ = syscall.Read(int(fd), buf)
		return true // EAGAIN too: do not wait
	})
	return string(buf[:max(n, 0)])
}

// TestWriteNowWritesOnTheCaller: on an idle stream over a pipe with room,
// the line is in the pipe when WriteNow returns, every time: it was not
// left for the writer goroutine.
func TestWriteNowWritesOnTheCaller(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := transport.NewStream(newBlockingReader(), w, transport.Options{})
	defer s.Close()
	buf := make([]byte, 4096)
	for i := range 50 {
		if err := s.WriteNow(context.Background(), note(0, i)); err != nil {
			t.Fatal(err)
		}
		if got := readNow(t, r, buf); !strings.HasSuffix(got, "}\n") {
			t.Fatalf("write %d: the pipe holds %q right after WriteNow returned, want the whole line", i, got)
		}
	}
}

// TestWriteNowNeverWaitsForThePeer: a peer that does not read fills the
// pipe; WriteNow then queues instead of blocking, and once the peer reads,
// every line arrives whole and in order, Write's and WriteNow's alike.
func TestWriteNowNeverWaitsForThePeer(t *testing.T) {
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := transport.NewStream(newBlockingReader(), w, transport.Options{})
	const n = 200 // about 3 KiB each: several times a pipe's 64 KiB
	wrote := make(chan error, 1)
	go func() {
		for i := range n {
			msg := &jsonrpc.Notification{Method: "m", Params: json.RawMessage(`{"n":` + itoa(i) + `,"pad":"` + strings.Repeat("x", 3000) + `"}`)}
			write := s.WriteNow
			if i%3 == 0 {
				write = s.Write
			}
			if err := write(context.Background(), msg); err != nil {
				wrote <- err
				return
			}
		}
		wrote <- nil
	}()
	select {
	case err := <-wrote:
		if err != nil {
			t.Fatal(err)
		}
	case <-time.After(10 * time.Second):
		t.Fatal("WriteNow blocked on a peer that does not read")
	}
	closed := make(chan error, 1)
	go func() { closed <- s.Close() }()
	sc := bufio.NewScanner(r)
	sc.Buffer(nil, 1<<20)
	for i := range n {
		if !sc.Scan() {
			t.Fatalf("line %d missing: %v", i, sc.Err())
		}
		var line struct{ Params struct{ N int } }
		if err := json.Unmarshal(sc.Bytes(), &line); err != nil || line.Params.N != i {
			t.Fatalf("line %d: n=%d (%v), want %d in order", i, line.Params.N, err, i)
		}
	}
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func itoa(i int) string {
	b, _ := json.Marshal(i)
	return string(b)
}
