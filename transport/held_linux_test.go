//go:build linux

package transport_test

import (
	"bufio"
	"context"
	"os"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// answerEach serves in with Each, answering every request with WriteNow
// on the reader's goroutine, and returns the pipe the answers go to.
func answerEach(t *testing.T, in *os.File) (answers *bufio.Reader, stop func()) {
	t.Helper()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	s := transport.NewStream(in, w, transport.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan struct{})
	go func() {
		defer close(done)
		s.Each(ctx, func(msg jsonrpc.Message, err error, _ func()) {
			if req, ok := msg.(*jsonrpc.Request); ok {
				s.WriteNow(ctx, &jsonrpc.Response{ID: req.ID, Result: []byte(`{}`)})
			}
		})
	}()
	return bufio.NewReader(r), func() {
		cancel()
		<-done
		s.Close()
		r.Close()
	}
}

// readAnswers reads n answer lines within limit and returns their ids.
func readAnswers(t *testing.T, br *bufio.Reader, n int, limit time.Duration) []string {
	t.Helper()
	got := make(chan []string, 1)
	go func() {
		var ids []string
		for range n {
			line, err := br.ReadString('\n')
			if err != nil {
				break
			}
			id := line[strings.Index(line, `"id":`)+5:]
			ids = append(ids, id[:strings.IndexAny(id, ",}")])
		}
		got <- ids
	}()
	select {
	case ids := <-got:
		return ids
	case <-time.After(limit):
		t.Fatalf("fewer than %d answers within %v", n, limit)
		return nil
	}
}

// Answers written while the next request is already read are held and go
// out together, in order, once the reader has no whole line left: even
// when what is left is the start of a line that never ends, so the reader
// waits in read(2) with answers written before it.
func TestHeldAnswersGoOutBeforeTheReaderWaits(t *testing.T) {
	for _, tail := range []string{"", `{"jsonrpc":"2.0","id":99,"meth`} {
		in, feed, err := os.Pipe()
		if err != nil {
			t.Fatal(err)
		}
		answers, stop := answerEach(t, in)
		var b strings.Builder
		for i := 1; i <= 50; i++ {
			b.WriteString(`{"jsonrpc":"2.0","id":` + itoa(i) + `,"method":"ping"}` + "\n")
		}
		// A notification last: its line keeps the answer to 50 held, and
		// it has no answer of its own to push the held ones out.
		b.WriteString(`{"jsonrpc":"2.0","method":"notifications/x"}` + "\n")
		b.WriteString(tail)
		if _, err := feed.WriteString(b.String()); err != nil { // one write: the reader sees them buffered
			t.Fatal(err)
		}
		ids := readAnswers(t, answers, 50, 5*time.Second)
		for i, id := range ids {
			if id != itoa(i+1) {
				t.Fatalf("tail %q: answer %d is for id %s, want %d (order kept)", tail, i+1, id, i+1)
			}
		}
		feed.Close()
		stop()
	}
}

// Held answers do not wait for a reader that detached: the call that
// detached goes on while the next reader waits for input.
func TestHeldAnswersGoOutWhenTheReaderDetaches(t *testing.T) {
	in, feed, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer feed.Close()
	r, w, err := os.Pipe()
	if err != nil {
		t.Fatal(err)
	}
	defer r.Close()
	s := transport.NewStream(in, w, transport.Options{})
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	release := make(chan struct{})
	defer close(release)
	go s.Each(ctx, func(msg jsonrpc.Message, err error, detach func()) {
		req, ok := msg.(*jsonrpc.Request)
		if !ok {
			return
		}
		if req.Method == "slow" {
			detach()
			<-release
			return
		}
		s.WriteNow(ctx, &jsonrpc.Response{ID: req.ID, Result: []byte(`{}`)})
	})
	// The answer to 1 is held (2 is buffered); 2 detaches and waits,
	// unanswered, and the next reader has nothing to read.
	if _, err := feed.WriteString(`{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" +
		`{"jsonrpc":"2.0","id":2,"method":"slow"}` + "\n"); err != nil {
		t.Fatal(err)
	}
	if ids := readAnswers(t, bufio.NewReader(r), 1, 5*time.Second); ids[0] != "1" {
		t.Fatalf("answer for id %s, want 1", ids[0])
	}
}
