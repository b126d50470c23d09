package transport

import (
	"context"
	"sync"
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
	err   error         // first write error
	ready chan struct{} // signalled when items are added or on close
	space chan struct{} // signalled when bytes are released
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

// push queues one encoded line, waiting while the queue is full.
func (q *outQueue) push(ctx context.Context, it outItem, closing <-chan struct{}) error {
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
			q.mu.Unlock()
			signal(q.ready)
			return nil
		}
		q.mu.Unlock()
		select {
		case <-q.space:
		case <-closing:
		case <-ctx.Done():
			putBuf(it.bp)
			return ctx.Err()
		}
	}
}

// take waits for queued lines and removes them all. It reports done when the
// stream is closing and nothing is left to write.
func (q *outQueue) take(closing <-chan struct{}) (batch []outItem, done bool) {
	for {
		q.mu.Lock()
		if len(q.items) > 0 {
			batch, q.items = q.items, nil
			q.mu.Unlock()
			return batch, false
		}
		q.mu.Unlock()
		select {
		case <-q.ready:
		case <-closing:
			q.mu.Lock()
			empty := len(q.items) == 0
			q.mu.Unlock()
			if empty {
				return nil, true
			}
		}
	}
}

// release returns written lines' buffers and makes room for writers.
func (q *outQueue) release(batch []outItem) {
	n := 0
	for _, it := range batch {
		n += it.size()
		putBuf(it.bp)
	}
	q.mu.Lock()
	q.bytes -= n
	q.mu.Unlock()
	signal(q.space)
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
