package transport_test

import (
	"context"
	"io"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// A line another goroutine writes with WriteNow while the reader runs
// Each's function with the next line already read is held for the reader;
// when the reader has meanwhile answered that next line and begun to wait
// for input, the held line must still go out. (A call that detached from
// the reader, answering after the requests after it, once left its answer
// in the queue until the peer's next line: a pipelined client waiting for
// it waited for ever.)
func TestWriteNowHeldAfterTheReaderWaits(t *testing.T) {
	pr, pw := io.Pipe()
	out, outW := io.Pipe()
	s := transport.NewStream(pr, outW, transport.Options{})
	defer s.Close()
	peer := transport.NewStream(out, io.Discard, transport.Options{})
	defer peer.Close()

	inHook, release := make(chan struct{}), make(chan struct{})
	defer transport.SetHoldHook(func() {
		close(inHook)
		<-release
	})()
	ctx, cancel := context.WithCancel(context.Background())
	defer cancel()
	go s.Each(ctx, func(msg jsonrpc.Message, _ error, _ func()) {
		req := msg.(*jsonrpc.Request)
		if req.ID.String() == "1" {
			// Answered from another goroutine, which decides to hold
			// its line while this function still runs with line 2 read.
			go s.WriteNow(ctx, &jsonrpc.Response{ID: req.ID, Result: []byte(`{}`)})
			<-inHook
			return
		}
		s.WriteNow(ctx, &jsonrpc.Response{ID: req.ID, Result: []byte(`{}`)})
	})
	io.WriteString(pw, `{"jsonrpc":"2.0","id":1,"method":"a"}`+"\n"+`{"jsonrpc":"2.0","id":2,"method":"b"}`+"\n")

	read := func() string {
		rctx, stop := context.WithTimeout(ctx, 2*time.Second)
		defer stop()
		m, err := peer.Read(rctx)
		if err != nil {
			return err.Error()
		}
		return m.(*jsonrpc.Response).ID.String()
	}
	if got := read(); got != "2" {
		t.Fatalf("first answer %s, want 2", got)
	}
	time.Sleep(20 * time.Millisecond) // the reader waits for input by now
	close(release)
	if got := read(); got != "1" {
		t.Fatalf("the held answer: %s, want 1", got)
	}
}
