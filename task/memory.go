package task

import (
	"context"
	"sync"
	"time"
)

// DefaultMaxTasks is the bound of a Memory store made with Max 0.
const DefaultMaxTasks = 10000

// Memory is the in-process Store: a map bounded to Max live records,
// expired records dropped as they are met and in a sweep when the store
// is full. Each caller's records are indexed too, so that the quota of
// Create costs no scan of the store. The zero value is not usable; call
// NewMemory.
type Memory struct {
	max int
	now func() time.Time

	mu      sync.Mutex
	tasks   map[string]*Task
	callers map[string]*holding // by Task.Caller; callers holding nothing and "" are absent
	swept   time.Time           // the last sweep
}

// holding is the records one caller holds in a Memory store.
type holding struct {
	ids map[string]struct{}
	// soonest is no later than the earliest expiry among ids (zero: none
	// of them expires). Until it passes none of them can have expired, so
	// a caller at its quota is refused at once, without a look at its
	// records; Create and Update lower it for each record they store,
	// and reap sets it exactly.
	soonest time.Time
}

// NewMemory returns an empty store holding at most max live records
// (DefaultMaxTasks when max <= 0).
func NewMemory(max int) *Memory {
	if max <= 0 {
		max = DefaultMaxTasks
	}
	return &Memory{max: max, now: time.Now, tasks: map[string]*Task{}, callers: map[string]*holding{}}
}

var _ Store = (*Memory)(nil)

// Create stores a copy of t. A caller at its quota costs a look at its
// own records only once one of them may have expired (see holding), so
// Create takes constant time but for that look, each of which either
// frees a record or learns the caller's next expiry exactly.
func (m *Memory) Create(_ context.Context, t *Task, maxPerCaller int) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.tasks[t.ID]; ok {
		if !m.expired(old) {
			return ErrExists
		}
		m.drop(t.ID, old)
	}
	if h := m.callers[t.Caller]; maxPerCaller > 0 && h != nil && len(h.ids) >= maxPerCaller {
		m.reap(h)
		if len(h.ids) >= maxPerCaller {
			return ErrQuota
		}
	}
	if now := m.now(); len(m.tasks) >= m.max || now.Sub(m.swept) > time.Minute {
		m.sweep()
		m.swept = now
	}
	if len(m.tasks) >= m.max {
		return ErrFull
	}
	c := t.Clone()
	m.tasks[t.ID] = c
	if c.Caller != "" {
		h := m.callers[c.Caller]
		if h == nil {
			h = &holding{ids: map[string]struct{}{}}
			m.callers[c.Caller] = h
		}
		h.ids[c.ID] = struct{}{}
		h.note(c.Expires())
	}
	return nil
}

// Get returns a copy of the record with id.
func (m *Memory) Get(_ context.Context, id string) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.live(id)
	if err != nil {
		return nil, err
	}
	return t.Clone(), nil
}

// Update applies fn to a copy of the record and stores it unless fn
// fails; fn runs once, under the store's lock. The record keeps the
// Caller it was created with.
func (m *Memory) Update(_ context.Context, id string, fn func(*Task) error) (*Task, error) {
	m.mu.Lock()
	defer m.mu.Unlock()
	t, err := m.live(id)
	if err != nil {
		return nil, err
	}
	c := t.Clone()
	if err := fn(c); err != nil {
		return nil, err
	}
	c.Caller = t.Caller // the caller's index holds the record under this one
	m.tasks[id] = c
	if h := m.callers[c.Caller]; h != nil {
		h.note(c.Expires()) // a TTL made shorter moves the expiry earlier
	}
	return c.Clone(), nil
}

// Len returns the number of records held, expired ones not yet dropped
// included.
func (m *Memory) Len() int {
	m.mu.Lock()
	defer m.mu.Unlock()
	return len(m.tasks)
}

// live returns the record with id, dropping it when it expired.
func (m *Memory) live(id string) (*Task, error) {
	t, ok := m.tasks[id]
	if !ok {
		return nil, ErrNotFound
	}
	if m.expired(t) {
		m.drop(id, t)
		return nil, ErrNotFound
	}
	return t, nil
}

func (m *Memory) expired(t *Task) bool {
	exp := t.Expires()
	return !exp.IsZero() && m.now().After(exp)
}

// drop removes record t, stored under id, from the store and from its
// caller's holding; a caller left holding nothing is forgotten, so that
// the index grows with the callers holding records, not with every caller
// ever seen.
func (m *Memory) drop(id string, t *Task) {
	delete(m.tasks, id)
	if h := m.callers[t.Caller]; h != nil {
		delete(h.ids, id)
		if len(h.ids) == 0 {
			delete(m.callers, t.Caller)
		}
	}
}

// sweep drops every expired record.
func (m *Memory) sweep() {
	for id, t := range m.tasks {
		if m.expired(t) {
			m.drop(id, t)
		}
	}
}

// reap drops the expired records of one caller, once one may have
// expired, and sets its soonest expiry to that of the records left.
func (m *Memory) reap(h *holding) {
	if h.soonest.IsZero() || !m.now().After(h.soonest) {
		return
	}
	h.soonest = time.Time{}
	for id := range h.ids {
		t := m.tasks[id]
		if m.expired(t) {
			m.drop(id, t)
			continue
		}
		h.note(t.Expires())
	}
}

// note lowers h's soonest expiry to exp, the expiry of one of its
// records (zero: it does not expire).
func (h *holding) note(exp time.Time) {
	if !exp.IsZero() && (h.soonest.IsZero() || exp.Before(h.soonest)) {
		h.soonest = exp
	}
}
