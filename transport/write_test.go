package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// note returns a notification carrying writer w's sequence number n and
// padding that makes lines long enough to tear if writes interleaved.
func note(w, n int) *jsonrpc.Notification {
	params := fmt.Sprintf(`{"w":%d,"n":%d,"pad":%q}`, w, n, strings.Repeat("x", (w*7+n)%300))
	return &jsonrpc.Notification{Method: "notifications/message", Params: json.RawMessage(params)}
}

func TestConcurrentWritesAreWholeLinesInOrder(t *testing.T) {
	const writers, each = 16, 300
	var out syncbuf.Buffer
	s := transport.NewStream(newBlockingReader(), &out, transport.Options{})
	var wg sync.WaitGroup
	for w := range writers {
		wg.Go(func() {
			for n := range each {
				if err := s.Write(context.Background(), note(w, n)); err != nil {
					t.Errorf("Write: %v", err)
					return
				}
			}
		})
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}

	text := out.String()
	if !strings.HasSuffix(text, "\n") {
		t.Fatal("output does not end with a newline")
	}
	lines := strings.Split(strings.TrimSuffix(text, "\n"), "\n")
	if len(lines) != writers*each {
		t.Fatalf("got %d lines, want %d", len(lines), writers*each)
	}
	next := make([]int, writers)
	for i, line := range lines {
		msg, err := jsonrpc.Decode([]byte(line))
		if err != nil {
			t.Fatalf("line %d %.100q: %v", i, line, err)
		}
		var p struct{ W, N int }
		if err := json.Unmarshal(msg.(*jsonrpc.Notification).Params, &p); err != nil {
			t.Fatal(err)
		}
		if p.N != next[p.W] {
			t.Fatalf("line %d: writer %d message %d, want %d (out of order)", i, p.W, p.N, next[p.W])
		}
		next[p.W]++
	}
}

func TestWritesAreCoalesced(t *testing.T) {
	const msgs = 1000
	w := newGateWriter()
	s := transport.NewStream(newBlockingReader(), w, transport.Options{})
	ctx := context.Background()

	// The first message reaches the writer, which blocks; the rest queue.
	if err := s.Write(ctx, note(0, 0)); err != nil {
		t.Fatal(err)
	}
	<-w.entered
	for n := 1; n < msgs; n++ {
		if err := s.Write(ctx, note(0, n)); err != nil {
			t.Fatal(err)
		}
	}
	close(w.gate)
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	calls, out := w.stats()
	if lines := strings.Count(out, "\n"); lines != msgs {
		t.Fatalf("wrote %d lines, want %d", lines, msgs)
	}
	t.Logf("%d messages took %d Write calls", msgs, calls)
	if calls > 10 {
		t.Errorf("%d messages took %d Write calls, want far fewer", msgs, calls)
	}
}

func TestCloseFlushesQueuedOutput(t *testing.T) {
	w := newGateWriter()
	s := transport.NewStream(newBlockingReader(), w, transport.Options{FlushTimeout: 10 * time.Second})
	for n := range 50 {
		if err := s.Write(context.Background(), note(1, n)); err != nil {
			t.Fatal(err)
		}
	}
	<-w.entered
	closed := make(chan error)
	go func() { closed <- s.Close() }()
	select {
	case err := <-closed:
		t.Fatalf("Close returned %v before the output was written", err)
	case <-time.After(50 * time.Millisecond):
	}
	close(w.gate)
	if err := <-closed; err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, out := w.stats(); strings.Count(out, "\n") != 50 {
		t.Errorf("Close flushed %d lines, want 50", strings.Count(out, "\n"))
	}
	if err := s.Write(context.Background(), note(1, 99)); !errors.Is(err, transport.ErrClosed) {
		t.Errorf("Write after Close = %v, want ErrClosed", err)
	}
}

func TestCloseGivesUpAfterFlushTimeout(t *testing.T) {
	w := newGateWriter()
	defer close(w.gate)
	s := transport.NewStream(newBlockingReader(), w, transport.Options{FlushTimeout: 20 * time.Millisecond})
	if err := s.Write(context.Background(), note(0, 0)); err != nil {
		t.Fatal(err)
	}
	<-w.entered
	start := time.Now()
	if err := s.Close(); err == nil {
		t.Error("Close with a stuck writer returned nil, want a flush error")
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("Close took %v", d)
	}
}

// closeRecorder records Close calls on a writer.
type closeRecorder struct {
	syncbuf.Buffer
	mu     sync.Mutex
	closes int
}

func (c *closeRecorder) Close() error {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.closes++
	return nil
}

func TestCloseIsIdempotentAndClosesBothSides(t *testing.T) {
	r, w := newBlockingReader(), &closeRecorder{}
	s := transport.NewStream(r, w, transport.Options{})
	if err := s.Write(context.Background(), note(0, 0)); err != nil {
		t.Fatal(err)
	}
	var wg sync.WaitGroup
	for range 5 {
		wg.Go(func() {
			if err := s.Close(); err != nil {
				t.Errorf("Close: %v", err)
			}
		})
	}
	wg.Wait()
	if err := s.Close(); err != nil {
		t.Errorf("Close again: %v", err)
	}
	if w.closes != 1 {
		t.Errorf("writer closed %d times, want 1", w.closes)
	}
	select {
	case <-r.done:
	default:
		t.Error("reader not closed")
	}
	if strings.Count(w.String(), "\n") != 1 {
		t.Errorf("output %q, want the one queued line", w.String())
	}
}

func TestCloseUnblocksPendingRead(t *testing.T) {
	s := transport.NewStream(newBlockingReader(), io.Discard, transport.Options{})
	got := make(chan error)
	go func() {
		_, err := s.Read(context.Background())
		got <- err
	}()
	time.Sleep(20 * time.Millisecond)
	s.Close()
	select {
	case err := <-got:
		if !errors.Is(err, transport.ErrClosed) {
			t.Errorf("pending Read = %v, want ErrClosed", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Close did not unblock Read")
	}
}

func TestReadAfterCloseIsErrClosed(t *testing.T) {
	// At end of input Read gives io.EOF; once the stream is closed it must
	// give ErrClosed every time, whatever state the reader goroutine is in.
	for i := range 50 {
		s := transport.NewStream(strings.NewReader(""), io.Discard, transport.Options{})
		if i%2 == 0 {
			if _, err := s.Read(context.Background()); !errors.Is(err, io.EOF) {
				t.Fatalf("Read at end of input = %v, want io.EOF", err)
			}
		}
		s.Close()
		for range 5 {
			if _, err := s.Read(context.Background()); !errors.Is(err, transport.ErrClosed) {
				t.Fatalf("Read after Close = %v, want ErrClosed", err)
			}
		}
	}
}

func TestReadEOF(t *testing.T) {
	s := transport.NewStream(strings.NewReader(ping+"\n"), io.Discard, transport.Options{})
	defer s.Close()
	ctx := context.Background()
	if msg, err := s.Read(ctx); err != nil || method(result{msg, err}) != "ping" {
		t.Fatalf("Read = %#v, %v", msg, err)
	}
	for range 3 {
		if _, err := s.Read(ctx); !errors.Is(err, io.EOF) {
			t.Fatalf("Read at end = %v, want io.EOF", err)
		}
	}
}

// errReader fails after its data.
type errReader struct {
	data string
	err  error
}

func (r *errReader) Read(p []byte) (int, error) {
	if r.data == "" {
		return 0, r.err
	}
	n := copy(p, r.data)
	r.data = r.data[n:]
	return n, nil
}

func TestReadReportsInputError(t *testing.T) {
	boom := errors.New("boom")
	s := transport.NewStream(&errReader{data: ping + "\n", err: boom}, io.Discard, transport.Options{})
	defer s.Close()
	ctx := context.Background()
	if _, err := s.Read(ctx); err != nil {
		t.Fatal(err)
	}
	if _, err := s.Read(ctx); !errors.Is(err, boom) {
		t.Errorf("Read = %v, want the input error", err)
	}
	if _, err := s.Read(ctx); !errors.Is(err, io.EOF) {
		t.Errorf("Read after the input error = %v, want io.EOF", err)
	}
}

func TestReadHonoursContext(t *testing.T) {
	s := transport.NewStream(newBlockingReader(), io.Discard, transport.Options{})
	defer s.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Millisecond)
	defer cancel()
	if _, err := s.Read(ctx); !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Read = %v, want context.DeadlineExceeded", err)
	}
	ctx, cancel = context.WithCancel(context.Background())
	cancel()
	if _, err := s.Read(ctx); !errors.Is(err, context.Canceled) {
		t.Errorf("Read = %v, want context.Canceled", err)
	}
}

// failWriter fails every write.
type failWriter struct{ err error }

func (w failWriter) Write([]byte) (int, error) { return 0, w.err }

func TestWriteReportsWriteError(t *testing.T) {
	boom := errors.New("broken pipe")
	s := transport.NewStream(newBlockingReader(), failWriter{boom}, transport.Options{})
	defer s.Close()
	ctx := context.Background()
	var err error
	deadline := time.Now().Add(5 * time.Second)
	for err == nil && time.Now().Before(deadline) {
		err = s.Write(ctx, note(0, 0))
		time.Sleep(time.Millisecond)
	}
	if !errors.Is(err, boom) {
		t.Errorf("Write = %v, want the write error", err)
	}
}

func TestWriteBlocksWhileQueueIsFull(t *testing.T) {
	w := newGateWriter()
	defer close(w.gate)
	s := transport.NewStream(newBlockingReader(), w, transport.Options{MaxQueuedBytes: 1024, FlushTimeout: time.Millisecond})
	defer s.Close()
	ctx := context.Background()
	if err := s.Write(ctx, note(0, 0)); err != nil {
		t.Fatal(err)
	}
	<-w.entered // the writer holds the first message
	var err error
	for n := 1; n < 100 && err == nil; n++ {
		tctx, cancel := context.WithTimeout(ctx, 50*time.Millisecond)
		err = s.Write(tctx, note(0, n))
		cancel()
	}
	if !errors.Is(err, context.DeadlineExceeded) {
		t.Errorf("Write to a full queue = %v, want it to block until its context ends", err)
	}
}

func TestWriteRefusesWhatItCannotEncode(t *testing.T) {
	var out syncbuf.Buffer
	s := transport.NewStream(newBlockingReader(), &out, transport.Options{})
	if err := s.Write(context.Background(), jsonrpc.Batch{}); err == nil {
		t.Error("Write(Batch) succeeded")
	}
	s.Close()
	if out.String() != "" {
		t.Errorf("output %q, want nothing", out.String())
	}
}

// A large result is written from its own bytes (head, body, tail) and must
// come out as the same single line Marshal gives, between other messages.
func TestLargeResultIsOneWholeLine(t *testing.T) {
	var out syncbuf.Buffer
	s := transport.NewStream(newBlockingReader(), &out, transport.Options{})
	big := `{"content":[{"type":"text","text":"` + strings.Repeat("y", 1<<20) + `"}]}`
	msgs := []jsonrpc.Message{
		&jsonrpc.Notification{Method: "before"},
		&jsonrpc.Response{ID: jsonrpc.StringID("big"), Result: json.RawMessage(big)},
		&jsonrpc.Notification{Method: "after"},
	}
	var want strings.Builder
	for _, m := range msgs {
		if err := s.Write(context.Background(), m); err != nil {
			t.Fatal(err)
		}
		b, _ := jsonrpc.Marshal(m)
		want.Write(b)
		want.WriteByte('\n')
	}
	if err := s.Close(); err != nil {
		t.Fatal(err)
	}
	if got := out.String(); got != want.String() {
		t.Fatalf("output differs: got %d bytes, want %d", len(got), want.Len())
	}
}
