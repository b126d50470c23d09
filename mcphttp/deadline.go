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
// timeout (see watchdog), so that no response of any kind (a JSON answer,
// an error, an SSE event) can hold its request, and the admission room it
// holds, for longer than that while its client does not read. Writes go
// out in pieces of writeChunk, each timed on its own.
type boundedWriter struct {
	http.ResponseWriter
	flush func() error
	watch watch
	dog   *watchdog
	wrote bool  // something was written
	err   error // the first write that failed
}

func newBoundedWriter(w http.ResponseWriter, dog *watchdog) *boundedWriter {
	b := &boundedWriter{ResponseWriter: w, dog: dog}
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
	b.watch.dl = dl
	if hasFlush {
		b.flush = fl.FlushError
	}
	dog.add(&b.watch)
	return b
}

// Write writes p in pieces, each timed by the watchdog.
func (b *boundedWriter) Write(p []byte) (int, error) {
	if b.err != nil {
		return 0, b.err
	}
	b.wrote = true
	written := 0
	for len(p) > 0 {
		n := min(len(p), writeChunk)
		b.watch.writing.Store(time.Now().UnixNano())
		k, err := b.ResponseWriter.Write(p[:n])
		b.watch.writing.Store(0)
		written += k
		if err != nil {
			b.err = err
			return written, err
		}
		p = p[n:]
	}
	return written, nil
}

// FlushError flushes what is buffered, timed by the watchdog (it is what
// http.ResponseController.Flush calls).
func (b *boundedWriter) FlushError() error {
	if b.err != nil {
		return b.err
	}
	b.wrote = true
	b.watch.writing.Store(time.Now().UnixNano())
	err := b.flush()
	b.watch.writing.Store(0)
	if err != nil {
		b.err = err
	}
	return err
}

// Flush is FlushError for http.Flusher.
func (b *boundedWriter) Flush() { _ = b.FlushError() }

// Unwrap gives http.ResponseController the writer underneath.
func (b *boundedWriter) Unwrap() http.ResponseWriter { return b.ResponseWriter }

// finish ends the response: what is still buffered is flushed, timed
// (net/http would flush it after the handler, unbounded), and the request
// is no longer watched. It reports whether the response was dropped
// because the client did not read it in time.
func (b *boundedWriter) finish() (dropped bool) {
	if b.wrote {
		_ = b.FlushError()
	}
	b.dog.remove(&b.watch)
	b.watch.mu.Lock()
	cut := b.watch.writeCut
	b.watch.mu.Unlock()
	return cut && errors.Is(b.err, os.ErrDeadlineExceeded)
}
