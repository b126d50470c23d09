package dpop

import (
	"container/heap"
	"context"
	"errors"
	"sync"
	"time"
)

// ReplayCache remembers the proofs a Checker accepted (RFC 9449 §11.1).
// Implementations must be safe for concurrent use; instances of one
// deployment that share an implementation (package redisbroker has one
// over Redis) refuse each other's replays.
type ReplayCache interface {
	// Remember records id until the time until and reports whether it
	// was fresh: false when id was recorded before and has not expired.
	// The check and the record are one atomic step. id is at most 64
	// bytes of base64url. An error means nothing could be decided, and
	// the Checker refuses to accept the proof.
	Remember(ctx context.Context, id string, until time.Time) (fresh bool, err error)
}

// defaultReplayEntries bounds NewMemoryReplayCache(0).
const defaultReplayEntries = 100_000

// errCacheFull is a memory cache's answer when every entry is still live.
var errCacheFull = errors.New("dpop: the in-memory replay cache is full of live entries; try again shortly")

// NewMemoryReplayCache returns a ReplayCache in the process's memory,
// per instance: a proof accepted here may be replayed to another
// instance. It holds at most maxEntries ids (100,000 when
// not positive), each until its time; when all are live, Remember fails
// rather than forget one (which would let its proof be replayed).
func NewMemoryReplayCache(maxEntries int) ReplayCache {
	if maxEntries <= 0 {
		maxEntries = defaultReplayEntries
	}
	return &memoryCache{max: maxEntries, seen: map[string]time.Time{}, now: time.Now}
}

// memoryCache is NewMemoryReplayCache's cache: a map and a heap of
// expiry times.
type memoryCache struct {
	mu   sync.Mutex
	max  int
	seen map[string]time.Time
	exp  expiries
	now  func() time.Time
}

// Remember implements ReplayCache.
func (m *memoryCache) Remember(_ context.Context, id string, until time.Time) (bool, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	now := m.now()
	for len(m.exp) > 0 && !m.exp[0].until.After(now) {
		e := heap.Pop(&m.exp).(expiry)
		if m.seen[e.id].Equal(e.until) {
			delete(m.seen, e.id)
		}
	}
	if t, ok := m.seen[id]; ok && t.After(now) {
		return false, nil
	}
	if !until.After(now) {
		return true, nil // over already: nothing to remember
	}
	if len(m.seen) >= m.max {
		return false, errCacheFull
	}
	m.seen[id] = until
	heap.Push(&m.exp, expiry{id, until})
	return true, nil
}

// expiry is an id and when it expires.
type expiry struct {
	id    string
	until time.Time
}

// expiries is a min-heap of expiries (container/heap).
type expiries []expiry

func (e expiries) Len() int           { return len(e) }
func (e expiries) Less(i, j int) bool { return e[i].until.Before(e[j].until) }
func (e expiries) Swap(i, j int)      { e[i], e[j] = e[j], e[i] }
func (e *expiries) Push(x any)        { *e = append(*e, x.(expiry)) }
func (e *expiries) Pop() any {
	old := *e
	x := old[len(old)-1]
	*e = old[:len(old)-1]
	return x
}
