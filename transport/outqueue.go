package transport

import (
	"context"
	"sync"
	"sync/atomic"
)

// outItem is one queued line: an encoded line in a pooled buffer, or, for
// a large result, the encoded head in the buffer followed by the result's
// own bytes (not copied) and the closing "}\n".
type outItem struct {
	bp   *[]byte
	body []byte
}

// size is the number of bytes the item puts on the wire.
func (it outItem) size() int {
	if it.body == nil {
		return len(*it.bp)
	}
	return len(*it.bp) + len(it.body) + len(bodyTail)
}

// bodyTail closes a line whose result was queued as a body.
const bodyTail = "}\n"

// outQueue is the output queue between writers and the writer goroutine.
type outQueue struct {
	mu    sync.Mutex
	items []outItem
	bytes int
	max   int
	err   error // first write error
	// writing is set while a batch or a direct write (WriteNow) is on its
	// way to the writer, so that lines never interleave and go out in
	// order.
	writing bool
	// held is set when lines were queued without waking the writer (see
	// Stream.WriteNow): the reader writes them, or wakes the writer,
	// before it waits for input.
	held atomic.Bool
	// wakeLater is set when a line for the writer was queued while
	// flushHeld's direct write was on its way: the writer may have taken
	// that signal and found nothing to take, so releaseHeld signals again.
	wakeLater bool
	ready     chan struct{} // signalled when items are added or on close
	space     chan struct{} // signalled when bytes are released
}

func (q *outQueue) init(max int) {
	if max <= 0 {
		max = 64 << 20
	}
	q.max = max
	q.ready = make(chan struct{}, 1)
	q.space = make(chan struct{}, 1)
}

func signal(c chan struct{}) {
	select {
	case c <- struct{}{}:
	default:
	}
}

func (q *outQueue) wake() { signal(q.ready) }

// holdLimit bounds the bytes held for the reader: past it, the writer is
// woken for held lines too.
const holdLimit = 64 << 10

// push queues one encoded line, waiting while the queue is full. With
// hold, the writer goroutine is not woken for it: the line waits for the
// reader (see Stream.flushHeld) or for any line pushed without hold,
// unless the queue holds more than holdLimit bytes.
func (q *outQueue) push(ctx context.Context, it outItem, closing <-chan struct{}, hold bool) error {
	n := it.size()
	for {
		q.mu.Lock()
		if q.err != nil {
			q.mu.Unlock()
			putBuf(it.bp)
			return q.err
		}
		select {
		case <-closing:
			q.mu.Unlock()
			putBuf(it.bp)
			return ErrClosed
		default:
		}
		if q.bytes == 0 || q.bytes+n <= q.max {
			q.items = append(q.items, it)
			q.bytes += n
			if hold && q.bytes <= holdLimit {
				q.held.Store(true)
				q.mu.Unlock()
				return nil
			}
			q.wakeLater = q.wakeLater || q.writing
			q.mu.Unlock()
			signal(q.ready)
			return nil
		}
		q.mu.Unlock()
		signal(q.ready) // held lines, if any, must go out to make room
		select {
		case <-q.space:
		case <-closing:
		case <-ctx.Done():
			putBuf(it.bp)
			return ctx.Err()
		}
	}
}

// take waits for queued lines and removes them all, once no other write
// is in progress. It reports done when the stream is closing and nothing
// is left to write.
func (q *outQueue) take(closing <-chan struct{}) (batch []outItem, done bool) {
	for {
		q.mu.Lock()
		if !q.writing {
			if len(q.items) > 0 {
				batch, q.items = q.items, nil
				q.writing = true
				q.held.Store(false) // they all go out now
				q.mu.Unlock()
				return batch, false
			}
			if isClosed(closing) {
				q.mu.Unlock()
				return nil, true
			}
		}
		q.mu.Unlock()
		if isClosed(closing) {
			<-q.ready // a direct write in progress signals when it ends
			continue
		}
		select {
		case <-q.ready:
		case <-closing:
		}
	}
}

// takeSmall takes the first queued lines, as many as fit in limit bytes,
// for a direct write by its caller when nothing is being written; the
// caller writes them and calls release. It returns nil when there are
// none, or the first does not fit.
func (q *outQueue) takeSmall(limit int) []outItem {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.writing || q.err != nil {
		return nil
	}
	n, size := 0, 0
	for n < len(q.items) && size+q.items[n].size() <= limit {
		size += q.items[n].size()
		n++
	}
	if n == 0 {
		return nil
	}
	batch := q.items[:n:n]
	q.items = q.items[n:]
	if len(q.items) == 0 {
		q.items = nil
		q.held.Store(false)
	}
	q.writing = true
	return batch
}

// isClosed reports whether c is closed.
func isClosed(c <-chan struct{}) bool {
	select {
	case <-c:
		return true
	default:
		return false
	}
}

// claim takes the right to write on the caller's goroutine when nothing is
// queued or being written, and reports whether it did; the caller then
// writes and calls unclaim. It returns the first write error, or ErrClosed
// once the stream is closing.
func (q *outQueue) claim(closing <-chan struct{}) (direct bool, err error) {
	q.mu.Lock()
	defer q.mu.Unlock()
	if q.err != nil {
		return false, q.err
	}
	if isClosed(closing) {
		return false, ErrClosed
	}
	if !q.writing && len(q.items) == 0 {
		q.writing = true
		return true, nil
	}
	return false, nil
}

// unclaim ends a direct write, waking the writer goroutine when lines were
// queued meanwhile or the stream is closing.
func (q *outQueue) unclaim(closing <-chan struct{}) {
	q.mu.Lock()
	q.writing = false
	more := len(q.items) > 0
	q.mu.Unlock()
	if more || isClosed(closing) {
		signal(q.ready)
	}
}

// release returns written lines' buffers and makes room for writers. It
// reports whether a line for the writer was queued while the batch was
// on its way (see wakeLater).
func (q *outQueue) release(batch []outItem) (wakeLater bool) {
	n := 0
	for _, it := range batch {
		n += it.size()
		putBuf(it.bp)
	}
	q.mu.Lock()
	q.bytes -= n
	q.writing = false
	wakeLater, q.wakeLater = q.wakeLater, false
	q.mu.Unlock()
	signal(q.space)
	return wakeLater
}

// releaseHeld is release for a batch flushHeld wrote: lines left in the
// queue stay held for the reader's next attempt, unless others were
// queued for the writer meanwhile.
func (q *outQueue) releaseHeld(batch []outItem, closing <-chan struct{}) {
	if q.release(batch) || isClosed(closing) { // a closing writer waits for the direct write to end
		signal(q.ready)
	}
}

// fail records the first write error.
func (q *outQueue) fail(err error) {
	if err == nil {
		return
	}
	q.mu.Lock()
	if q.err == nil {
		q.err = err
	}
	q.mu.Unlock()
}

// Err returns the first write error.
func (q *outQueue) Err() error {
	q.mu.Lock()
	defer q.mu.Unlock()
	return q.err
}

var bufPool = sync.Pool{New: func() any { b := make([]byte, 0, 512); return &b }}

func getBuf() *[]byte { return bufPool.Get().(*[]byte) }

// putBuf returns a buffer to the pool unless it grew large.
func putBuf(bp *[]byte) {
	if cap(*bp) > 64<<10 {
		return
	}
	*bp = (*bp)[:0]
	bufPool.Put(bp)
}
