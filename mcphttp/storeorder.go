package mcphttp

// compactSlack is how many entries the append order may hold beyond twice
// the events held before it is compacted, so that a store holding few
// events does not compact at every append.
const compactSlack = 64

// appendOrder is the order in which a MemoryEventStore's events were
// appended, across its sessions: a queue of (log, sequence number), which
// the store's total bound evicts from, oldest first. An entry goes stale
// when its event leaves by another way (its session's own bounds, Forget);
// rather than being searched for and removed then, which would cost a scan
// per eviction, a stale entry is skipped when it reaches the front, and
// the queue is rebuilt without them when it grows past twice the events
// held. A push is thus O(1) amortised (a rebuild's work is paid by the
// stale entries it drops, at least half of what it reads), and the queue's
// memory stays proportional to the events held. Guarded by the store's mu.
type appendOrder struct {
	q    []orderEntry
	head int // q[:head] were popped (and zeroed)
}

// orderEntry names one event appended: the seq-th of log.
type orderEntry struct {
	log *eventLog
	seq uint64
}

// live reports whether e's event is still held: a log evicts from its
// front only, so an event is held while its log is and its sequence
// number has not fallen below the log's first.
func (e orderEntry) live() bool { return !e.log.forgot && e.seq >= e.log.first }

// push records that log's event seq was appended now.
func (o *appendOrder) push(l *eventLog, seq uint64) {
	o.q = append(o.q, orderEntry{log: l, seq: seq})
}

// popOldest removes the oldest live entry and returns its log, whose first
// event it is: every event held has a live entry, in the order of the
// appends, so no event of that log held before it can be left. The store
// calls it only while it holds bytes, hence an event, so there is one.
func (o *appendOrder) popOldest() *eventLog {
	for {
		e := o.q[o.head]
		o.q[o.head] = orderEntry{} // let a forgotten log go
		o.head++
		if e.live() {
			return e.log
		}
	}
}

// compact rebuilds the queue with its live entries only, once it holds
// more than twice the held events (plus compactSlack), the popped front
// included.
func (o *appendOrder) compact(held int) {
	if len(o.q) <= 2*held+compactSlack {
		return
	}
	live := make([]orderEntry, 0, held)
	for _, e := range o.q[o.head:] {
		if e.live() {
			live = append(live, e)
		}
	}
	o.q, o.head = live, 0
}

// len is the queue's length, the popped front included.
func (o *appendOrder) len() int { return len(o.q) }
