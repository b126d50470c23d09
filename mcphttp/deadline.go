package mcphttp

import (
	"errors"
	"net/http"
	"os"
	"time"
)

// writeChunk is the most one write to a client carries under one
// deadline: a larger answer is written in pieces, each of which must be
// taken within Options.WriteTimeout, so that a client reading at some
// minimum rate keeps its answer and one that stopped reading loses it.
const writeChunk = 64 << 10

// deadlines is what a response writer offers to bound its reads and writes
// (net/http's own writer has both; http.ResponseController finds them
// through wrappers that have Unwrap).
type deadlines interface {
	SetReadDeadline(time.Time) error
	SetWriteDeadline(time.Time) error
}

// controllerDeadlines adapts a ResponseController, for writers that only a
// controller can reach.
type controllerDeadlines struct{ rc *http.ResponseController }

func (c controllerDeadlines) SetReadDeadline(t time.Time) error  { return c.rc.SetReadDeadline(t) }
func (c controllerDeadlines) SetWriteDeadline(t time.Time) error { return c.rc.SetWriteDeadline(t) }

// boundedWriter is the ResponseWriter every request of a Handler is
// served with: each write and flush must complete within the write
// timeout, so that no response of any kind (a JSON answer, an error, an
// SSE event) can hold its request, and the admission room it holds, for
// longer than that while its client does not read. Writes go out in
// pieces of writeChunk, each under a fresh deadline.
type boundedWriter struct {
	http.ResponseWriter
	dl      deadlines
	flush   func() error
	timeout time.Duration
	armed   bool  // a write deadline is set
	err     error // the first write that failed
}

func newBoundedWriter(w http.ResponseWriter, timeout time.Duration) *boundedWriter {
	b := &boundedWriter{ResponseWriter: w, timeout: timeout}
	dl, hasDL := w.(deadlines)
	fl, hasFlush := w.(interface{ FlushError() error })
	if !hasDL || !hasFlush {
		rc := http.NewResponseController(w)
		if !hasDL {
			dl = controllerDeadlines{rc}
		}
		if !hasFlush {
			b.flush = rc.Flush
		}
	}
	b.dl = dl
	if hasFlush {
		b.flush = fl.FlushError
	}
	return b
}

// arm sets the write deadline one timeout from now. A writer that cannot
// set one (a middleware's wrapper without Unwrap) writes unbounded.
func (b *boundedWriter) arm() {
	if b.dl.SetWriteDeadline(time.Now().Add(b.timeout)) == nil {
		b.armed = true
	}
}

// Write writes p in pieces, each under a fresh deadline.
func (b *boundedWriter) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	written := 0
	for len(p) > 0 {
		n := min(len(p), writeChunk)
		b.arm()
		k, err := b.ResponseWriter.Write(p[:n])
		written += k
		if err != nil {
			b.err = err
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// FlushError flushes what is buffered under a fresh deadline (it is what
// http.ResponseController.Flush calls).
func (b *boundedWriter) FlushError() error {
	if b.err != nil {
		return b.err
	}
	b.arm()
	if err := b.flush(); err != nil {
		b.err = err
		return err
	}
	return nil
}

// Flush is FlushError for http.Flusher.
func (b *boundedWriter) Flush() { _ = b.FlushError() }

// SetReadDeadline reaches the connection's read deadline (readBody's).
func (b *boundedWriter) SetReadDeadline(t time.Time) error { return b.dl.SetReadDeadline(t) }

// Unwrap gives http.ResponseController the writer underneath.
func (b *boundedWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// finish ends the response: what is still buffered is flushed under a
// deadline (net/http would flush it after the handler, unbounded), and the
// deadline is lifted so that it does not outlive the response on a kept
// alive connection. It reports whether the response was dropped because
// the client did not read it in time.
func (b *boundedWriter) finish() (dropped bool) {
	if !b.armed {
		return false // nothing was written (a 202, say): net/http writes the headers
	}
	_ = b.FlushError()
	_ = b.dl.SetWriteDeadline(time.Time{})
	return errors.Is(b.err, os.ErrDeadlineExceeded)
}
