package mcp

import (
	"context"
	"sync"
)

// fairSlots shares the MaxConcurrentCalls slots of an endpoint that
// callers share (the stateless HTTP endpoint) among its callers: a caller
// runs at most perCaller calls at once, and a freed slot goes to the
// waiting caller that runs the fewest, the one waiting longest first
// among equals. Without it one caller's slow calls could take every slot
// and make every other caller wait for them.
//
// A caller the transport does not name (the key "") has no share of its
// own: it may take every slot, as on a connection.
//
// A call waits on the goroutine that dispatched it (an HTTP request's
// own), so waiting costs no worker; it stops waiting when its context
// ends (the client left, CallTimeout, shutdown).
type fairSlots struct {
	max, perCaller int

	mu      sync.Mutex
	running int                     // slots taken
	callers map[string]*callerSlots // callers running or waiting
	waiting map[string]*callerSlots // the callers among them with waiters
	seq     uint64                  // orders the waiters
	spare   []*callerSlots          // forgotten entries, for the next callers (no allocation per call)
}

// maxSpare bounds fairSlots.spare.
const maxSpare = 64

// entry returns caller's entry, making one if it has none; f.mu is held.
func (f *fairSlots) entry(caller string) *callerSlots {
	cs := f.callers[caller]
	if cs == nil {
		if n := len(f.spare); n > 0 {
			cs, f.spare = f.spare[n-1], f.spare[:n-1]
		} else {
			cs = &callerSlots{}
		}
		f.callers[caller] = cs
	}
	return cs
}

// callerSlots is one caller's share: the calls it runs and those that
// wait, in order.
type callerSlots struct {
	running int
	waiters []*slotWaiter
}

// slotWaiter is one call waiting for a slot.
type slotWaiter struct {
	seq     uint64
	ready   chan struct{} // closed when granted
	granted bool
}

func newFairSlots(max, perCaller int) *fairSlots {
	return &fairSlots{max: max, perCaller: min(perCaller, max),
		callers: map[string]*callerSlots{}, waiting: map[string]*callerSlots{}}
}

// tryAcquire takes a slot for caller if one is free to it now: a slot is
// free and the caller is under its share. No waiter can be passed over:
// while a slot is free, every waiter's caller is at its share (see grant).
func (f *fairSlots) tryAcquire(caller string) bool {
	f.mu.Lock()
	defer f.mu.Unlock()
	cs := f.callers[caller]
	if f.running >= f.max || (cs != nil && cs.running >= f.share(caller)) {
		return false
	}
	if cs == nil {
		cs = f.entry(caller)
	}
	f.running++
	cs.running++
	return true
}

// acquire waits for a slot for caller until ctx ends; it reports whether
// it got one (release it).
func (f *fairSlots) acquire(ctx context.Context, caller string) bool {
	f.mu.Lock()
	cs := f.entry(caller)
	if f.running < f.max && cs.running < f.share(caller) {
		f.running++
		cs.running++
		f.mu.Unlock()
		return true
	}
	f.seq++
	w := &slotWaiter{seq: f.seq, ready: make(chan struct{})}
	cs.waiters = append(cs.waiters, w)
	f.waiting[caller] = cs
	f.mu.Unlock()
	select {
	case <-w.ready:
		return true
	case <-ctx.Done():
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	if w.granted { // granted as ctx ended: give it on
		f.releaseLocked(caller, cs)
		return false
	}
	for i, x := range cs.waiters {
		if x == w {
			cs.waiters = append(cs.waiters[:i], cs.waiters[i+1:]...)
			break
		}
	}
	if len(cs.waiters) == 0 {
		delete(f.waiting, caller)
	}
	f.forgetIfIdle(caller, cs)
	return false
}

// release gives back a slot of caller's, to the waiter next in turn.
func (f *fairSlots) release(caller string) {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.releaseLocked(caller, f.callers[caller])
}

func (f *fairSlots) releaseLocked(caller string, cs *callerSlots) {
	f.running--
	cs.running--
	f.grant()
	f.forgetIfIdle(caller, cs)
}

// grant hands free slots to waiters: each to the head waiter of the
// caller, under its share, that runs the fewest calls (the earliest
// waiter among equals).
func (f *fairSlots) grant() {
	for f.running < f.max && len(f.waiting) > 0 {
		var best *callerSlots
		var bestKey string
		for k, cs := range f.waiting {
			if cs.running >= f.share(k) {
				continue
			}
			if best == nil || cs.running < best.running ||
				(cs.running == best.running && cs.waiters[0].seq < best.waiters[0].seq) {
				best, bestKey = cs, k
			}
		}
		if best == nil {
			return // every waiting caller is at its share
		}
		w := best.waiters[0]
		best.waiters[0] = nil
		best.waiters = best.waiters[1:]
		if len(best.waiters) == 0 {
			best.waiters = nil
			delete(f.waiting, bestKey)
		}
		w.granted = true
		f.running++
		best.running++
		close(w.ready)
	}
}

// share is how many slots caller may hold at once.
func (f *fairSlots) share(caller string) int {
	if caller == "" {
		return f.max
	}
	return f.perCaller
}

// forgetIfIdle drops a caller that neither runs nor waits.
func (f *fairSlots) forgetIfIdle(caller string, cs *callerSlots) {
	if cs.running == 0 && len(cs.waiters) == 0 {
		delete(f.callers, caller)
		if len(f.spare) < maxSpare {
			cs.waiters = nil
			f.spare = append(f.spare, cs)
		}
	}
}
