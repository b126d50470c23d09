package mcp

import (
	"sync"
	"sync/atomic"
	"time"
)

// detachAfter is how long a call may run on the reader goroutine
// before reading moves to another goroutine (see readLoop).
const detachAfter = time.Millisecond

// detacher is the one timer of a session that detaches a call from the
// reader once it has run detachAfter. Arming a call does not touch the
// timer when it is already set: it records when the call started, and a
// firing that finds the current call younger than detachAfter sets the
// timer again for the rest, and the timer keeps ticking until the session
// has run no call on the reader for detacherIdle. So a busy session costs
// one timer event per detachAfter, not a timer reset per call (a reset
// that brings the deadline forward wakes the runtime's network poller, a
// futex call).
type detacher struct {
	// lastDetach is when a call last had to detach (UnixNano; 0 before
	// the first): see calm.
	lastDetach atomic.Int64
	// calmFor, when set, replaces calmAfter (in nanoseconds): tests that
	// need a burst to reach the pool on a slow machine lengthen it.
	calmFor atomic.Int64

	mu      sync.Mutex
	timer   *time.Timer
	set     bool      // the timer will fire
	detach  func()    // the current call's, nil between calls
	since   time.Time // when the current call was armed
	armed   uint64    // counts arm calls: which call is current
	stopped bool      // reading ended: the timer is never set again
}

// arm makes a call whose detach is given the current one, and returns
// what disarm takes.
func (d *detacher) arm(detach func()) uint64 {
	now := time.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.armed++
	d.detach, d.since = detach, now
	if !d.set && !d.stopped {
		d.set = true
		if d.timer == nil {
			d.timer = time.AfterFunc(detachAfter, d.fire)
		} else {
			d.timer.Reset(detachAfter)
		}
	}
	return d.armed
}

// disarm forgets the call arm returned armed for once it is done, unless
// another call is current by now: a call that detached ends after the
// next call may have started on the new reader, and must not disarm
// that one. The timer keeps ticking until the session has been idle for
// detacherIdle. A firing that raced disarm detaches a later call early,
// which does no harm.
func (d *detacher) disarm(armed uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.armed == armed {
		d.detach = nil
	}
}

func (d *detacher) fire() {
	d.mu.Lock()
	detach := d.detach
	age := time.Since(d.since)
	switch {
	case d.stopped:
		d.mu.Unlock()
		return
	case detach != nil && age < detachAfter:
		d.timer.Reset(detachAfter - age) // the current call started after the timer was set
		d.mu.Unlock()
		return
	case detach == nil && age < detacherIdle:
		// Between two calls of a busy session: keep ticking, so that the
		// next arm finds the timer set.
		d.timer.Reset(detachAfter)
		d.mu.Unlock()
		return
	}
	d.set = false
	d.mu.Unlock()
	if detach != nil {
		d.lastDetach.Store(time.Now().UnixNano())
		detach()
	}
}

// calmAfter is how long after the last detach a call that is not alone
// may run on the reader again (see calm).
const calmAfter = 10 * detachAfter

// calm reports whether no call has had to detach from the reader for
// calmAfter. A detach moves calls to the worker pool while the one that
// detached runs, and under a pipelined load the pool would then keep them
// (every new call finds another in flight): one slow call, or one spell
// of the machine's, would cost a session 0.6× its throughput for as long
// as the load lasts. Once calm, every call runs on the reader while a
// worker slot is free (see scheduler.mayRunHere). Within calmAfter of a
// detach, calls that are not alone go to the pool, so that a burst of slow
// calls does not pay detachAfter of the reader's time each.
func (d *detacher) calm() bool {
	last := d.lastDetach.Load()
	after := d.calmFor.Load()
	if after == 0 {
		after = int64(calmAfter)
	}
	return last == 0 || time.Now().UnixNano()-last >= after
}

// stop stops the timer for good, when reading has ended.
func (d *detacher) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.detach = nil
	d.stopped = true
}

// detacherIdle is how long after the last call on the reader the
// detacher's timer stops: a quiet session has no timer events.
const detacherIdle = 10 * detachAfter
