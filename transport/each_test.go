package transport_test

import (
	"context"
	"errors"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// eachAll reads input with Each and returns what fn saw: each message's
// method, or "error" for a line that could not be decoded.
func eachAll(t *testing.T, input string) ([]string, error) {
	t.Helper()
	s := transport.NewStream(strings.NewReader(input), io.Discard, transport.Options{})
	defer s.Close()
	var seen []string
	err := s.Each(context.Background(), func(msg jsonrpc.Message, err error, _ func()) {
		var de *jsonrpc.DecodeError
		switch {
		case errors.As(err, &de):
			seen = append(seen, "error")
		case err != nil:
			t.Errorf("fn got a fatal error: %v", err)
		default:
			seen = append(seen, msg.(*jsonrpc.Request).Method)
		}
	})
	return seen, err
}

func TestEachDeliversInOrderAndEndsAtEOF(t *testing.T) {
	seen, err := eachAll(t, `{"jsonrpc":"2.0","id":1,"method":"a"}`+"\n"+
		"not json\n\n"+
		`{"jsonrpc":"2.0","id":2,"method":"b"}`) // no newline before EOF
	if err != nil {
		t.Fatalf("Each at EOF = %v, want nil", err)
	}
	if got, want := strings.Join(seen, ","), "a,error,b"; got != want {
		t.Fatalf("fn saw %s, want %s", got, want)
	}
}

func TestEachReturnsTheReadError(t *testing.T) {
	boom := errors.New("boom")
	s := transport.NewStream(&errReader{data: ping + "\n", err: boom}, io.Discard, transport.Options{})
	defer s.Close()
	n := 0
	err := s.Each(context.Background(), func(jsonrpc.Message, error, func()) { n++ })
	if !errors.Is(err, boom) || n != 1 {
		t.Fatalf("Each = %v after %d messages, want boom after 1", err, n)
	}
}

// TestEachStopsCallingAfterItReturns: once Each returned for its context,
// a line read later never reaches fn.
func TestEachStopsCallingAfterItReturns(t *testing.T) {
	r, w := io.Pipe()
	s := transport.NewStream(r, io.Discard, transport.Options{})
	defer s.Close()
	ctx, cancel := context.WithCancel(context.Background())
	called := make(chan struct{}, 10)
	done := make(chan error)
	go func() {
		done <- s.Each(ctx, func(jsonrpc.Message, error, func()) { called <- struct{}{} })
	}()
	w.Write([]byte(ping + "\n"))
	<-called
	cancel()
	if err := <-done; !errors.Is(err, context.Canceled) {
		t.Fatalf("Each = %v, want context.Canceled", err)
	}
	w.Write([]byte(ping + "\n")) // read, but no one may be called
	select {
	case <-called:
		t.Fatal("fn called after Each returned")
	case <-time.After(100 * time.Millisecond):
	}
}

// TestEachDetach: a function that detaches keeps running while the next
// message is delivered on another goroutine; without detach the second
// message would never arrive and the first would wait forever.
func TestEachDetach(t *testing.T) {
	for _, from := range []string{"fn", "another goroutine"} {
		t.Run(from, func(t *testing.T) {
			r, w := io.Pipe()
			s := transport.NewStream(r, io.Discard, transport.Options{})
			defer s.Close()
			second := make(chan struct{})
			done := make(chan error)
			go func() {
				done <- s.Each(context.Background(), func(msg jsonrpc.Message, _ error, detach func()) {
					if msg.(*jsonrpc.Request).ID.String() == "2" {
						close(second)
						return
					}
					if from == "fn" {
						detach()
					} else {
						time.AfterFunc(10*time.Millisecond, detach)
					}
					select {
					case <-second:
					case <-time.After(5 * time.Second):
						t.Error("the second message was not delivered while the first's function ran")
					}
					detach() // a second call does nothing
				})
			}()
			w.Write([]byte(`{"jsonrpc":"2.0","id":1,"method":"a"}` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"b"}` + "\n"))
			<-second
			w.Close()
			if err := <-done; err != nil {
				t.Fatalf("Each = %v, want nil at EOF", err)
			}
		})
	}
}

func TestEachTwicePanics(t *testing.T) {
	s := transport.NewStream(strings.NewReader(""), io.Discard, transport.Options{})
	defer s.Close()
	s.Each(context.Background(), func(jsonrpc.Message, error, func()) {})
	defer func() {
		if recover() == nil {
			t.Fatal("a second Each did not panic")
		}
	}()
	s.Each(context.Background(), func(jsonrpc.Message, error, func()) {})
}

func TestEachAfterClose(t *testing.T) {
	s := transport.NewStream(newBlockingReader(), io.Discard, transport.Options{})
	go func() { time.Sleep(20 * time.Millisecond); s.Close() }()
	if err := s.Each(context.Background(), func(jsonrpc.Message, error, func()) {}); !errors.Is(err, transport.ErrClosed) {
		t.Fatalf("Each = %v, want ErrClosed", err)
	}
}
