package mcphttp

import (
	"sync"
	"sync/atomic"
	"time"
)

// watchdog bounds how long a request body may take to arrive
// (Options.BodyTimeout, MinBodyRate) and how long one write to a client may
// take (Options.WriteTimeout) without setting a deadline on the connection
// for every read and write: each request's reads and writes are watched,
// and one goroutine looks at them a few times per timeout, setting a
// deadline in the past on the connection of one that is overdue, which ends
// its read or write at once with a timeout. Deadlines set and lifted per
// request cost a runtime timer each (four per request, about 5% of a small
// call's CPU over loopback); watching costs two short critical sections.
// A bound is so kept within one look of when it falls due.
type watchdog struct {
	body, write time.Duration
	rate        int64
	every       time.Duration   // how often the watched are looked at
	closing     <-chan struct{} // the handler's: no more looking once it is closed

	mu      sync.Mutex
	head    *watch // the watched, a list
	looking bool   // the goroutine that looks runs
}

func newWatchdog(o Options, closing <-chan struct{}) *watchdog {
	every := min(o.BodyTimeout, o.WriteTimeout) / 8
	every = min(max(every, 25*time.Millisecond), time.Second)
	return &watchdog{body: o.BodyTimeout, write: o.WriteTimeout, rate: o.MinBodyRate, every: every, closing: closing}
}

// watch is one request's reads and writes, as the watchdog sees them.
type watch struct {
	prev, next *watch
	dl         deadlines // the connection's, through the response writer

	// The write in progress: when it began (Unix nanoseconds), 0 when none.
	writing atomic.Int64
	// The body being read: when the read began, and the bytes received.
	readSince atomic.Int64
	received  atomic.Int64

	mu                  sync.Mutex // the watchdog's verdict against the request's end
	reading             bool
	readCut, writeCut   bool // a deadline in the past was set
	registered, stopped bool
}

// add starts watching w, and the goroutine that looks when it is not
// running.
func (d *watchdog) add(w *watch) {
	d.mu.Lock()
	w.next = d.head
	if d.head != nil {
		d.head.prev = w
	}
	d.head = w
	w.registered = true
	start := !d.looking
	select {
	case <-d.closing:
		start = false // the requests of a closed handler are answered at once
	default:
	}
	d.looking = d.looking || start
	d.mu.Unlock()
	if start {
		go d.look()
	}
}

// remove stops watching w.
func (d *watchdog) remove(w *watch) {
	d.mu.Lock()
	if w.registered {
		if w.prev != nil {
			w.prev.next = w.next
		} else {
			d.head = w.next
		}
		if w.next != nil {
			w.next.prev = w.prev
		}
		w.prev, w.next, w.registered = nil, nil, false
	}
	d.mu.Unlock()
}

// look checks the watched every d.every until none is left, or the
// handler closes.
func (d *watchdog) look() {
	t := time.NewTicker(d.every)
	defer t.Stop()
	for {
		var now time.Time
		select {
		case <-d.closing:
			d.mu.Lock()
			d.looking = false
			d.mu.Unlock()
			return
		case now = <-t.C:
		}
		d.mu.Lock()
		if d.head == nil {
			d.looking = false
			d.mu.Unlock()
			return
		}
		for w := d.head; w != nil; w = w.next {
			d.check(w, now)
		}
		d.mu.Unlock()
	}
}

// check cuts w's read or write short when it is overdue; d.mu is held.
func (d *watchdog) check(w *watch, now time.Time) {
	if since := w.writing.Load(); since != 0 && now.UnixNano()-since > int64(d.write) {
		w.mu.Lock()
		if !w.writeCut {
			w.writeCut = true
			_ = w.dl.SetWriteDeadline(now)
		}
		w.mu.Unlock()
	}
	if since := w.readSince.Load(); since != 0 {
		allowed := d.body + time.Duration(w.received.Load()*int64(time.Second)/d.rate)
		if now.UnixNano()-since > int64(allowed) {
			w.mu.Lock()
			if w.reading && !w.readCut {
				w.readCut = true
				_ = w.dl.SetReadDeadline(now)
			}
			w.mu.Unlock()
		}
	}
}

// beginRead marks the body's read as begun.
func (w *watch) beginRead(now time.Time) {
	w.mu.Lock()
	w.reading = true
	w.mu.Unlock()
	w.readSince.Store(now.UnixNano())
}

// endRead marks the body's read as over. When the watchdog cut it short
// just as it completed, the deadline it set is lifted: net/http reads on
// from the connection while the handler runs (to see the client leave),
// and a deadline in force then would end the request as if it had left.
func (w *watch) endRead() {
	w.readSince.Store(0)
	w.mu.Lock()
	w.reading = false
	cut := w.readCut
	w.mu.Unlock()
	if cut {
		_ = w.dl.SetReadDeadline(time.Time{})
	}
}
