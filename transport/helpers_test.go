package transport_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// result is one outcome of Stream.Read.
type result struct {
	msg jsonrpc.Message
	err error
}

// readAll reads from c until io.EOF and returns everything else it got.
func readAll(t *testing.T, c transport.Conn) []result {
	t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()
	var out []result
	for {
		msg, err := c.Read(ctx)
		if errors.Is(err, io.EOF) {
			return out
		}
		var de *jsonrpc.DecodeError
		if err != nil && !errors.As(err, &de) {
			t.Fatalf("Read after %d results: %v", len(out), err)
		}
		out = append(out, result{msg, err})
	}
}

// readString runs input through a Stream and returns what Read gave.
func readString(t *testing.T, input string, opts transport.Options) []result {
	t.Helper()
	s := transport.NewStream(bytes.NewReader([]byte(input)), io.Discard, opts)
	defer s.Close()
	return readAll(t, s)
}

// method returns the method of a request or notification result, or "".
func method(r result) string {
	switch m := r.msg.(type) {
	case *jsonrpc.Request:
		return m.Method
	case *jsonrpc.Notification:
		return m.Method
	}
	return ""
}

// decodeError returns the *jsonrpc.DecodeError in r, or nil.
func decodeError(r result) *jsonrpc.DecodeError {
	var de *jsonrpc.DecodeError
	if errors.As(r.err, &de) {
		return de
	}
	return nil
}

// gateWriter counts Write calls and blocks them until the gate opens.
type gateWriter struct {
	gate    chan struct{} // closed to let writes through
	entered chan struct{} // receives once per Write call, if not full
	mu      sync.Mutex
	calls   int
	buf     bytes.Buffer
}

func newGateWriter() *gateWriter {
	return &gateWriter{gate: make(chan struct{}), entered: make(chan struct{}, 1)}
}

func (w *gateWriter) Write(p []byte) (int, error) {
	select {
	case w.entered <- struct{}{}:
	default:
	}
	<-w.gate
	w.mu.Lock()
	defer w.mu.Unlock()
	w.calls++
	return w.buf.Write(p)
}

func (w *gateWriter) stats() (calls int, out string) {
	w.mu.Lock()
	defer w.mu.Unlock()
	return w.calls, w.buf.String()
}

// blockingReader blocks in Read until it is closed.
type blockingReader struct {
	once sync.Once
	done chan struct{}
}

func newBlockingReader() *blockingReader { return &blockingReader{done: make(chan struct{})} }

func (r *blockingReader) Read([]byte) (int, error) {
	<-r.done
	return 0, io.ErrClosedPipe
}

func (r *blockingReader) Close() error {
	r.once.Do(func() { close(r.done) })
	return nil
}

// lineSource generates one line of n bytes followed by tail without
// holding the line in memory: a JSON request whose params string is
// padded to length.
type lineSource struct {
	head, tail []byte
	n, pos     int // pos counts bytes of the padded line produced
	tailPos    int
}

func newLineSource(id string, n int, tail string) *lineSource {
	head := []byte(`{"jsonrpc":"2.0","id":` + id + `,"method":"tools/call","params":{"pad":"`)
	return &lineSource{head: head, tail: []byte(tail), n: n}
}

func (s *lineSource) Read(p []byte) (int, error) {
	w := 0
	for w < len(p) {
		switch {
		case s.pos < len(s.head):
			c := copy(p[w:], s.head[s.pos:])
			w += c
			s.pos += c
		case s.pos < s.n-3:
			c := min(len(p)-w, s.n-3-s.pos)
			for i := range c {
				p[w+i] = 'a'
			}
			w += c
			s.pos += c
		case s.pos < s.n:
			closing := `"}}`[s.pos-(s.n-3):]
			c := copy(p[w:], closing)
			w += c
			s.pos += c
		case s.pos == s.n:
			p[w] = '\n'
			w++
			s.pos++
		case s.tailPos < len(s.tail):
			c := copy(p[w:], s.tail[s.tailPos:])
			w += c
			s.tailPos += c
		default:
			if w == 0 {
				return 0, io.EOF
			}
			return w, nil
		}
	}
	return w, nil
}
