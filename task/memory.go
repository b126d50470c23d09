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
// is full. The zero value is not usable; call NewMemory.
type Memory struct {
	max int
	now func() time.Time

	mu    sync.Mutex
	tasks map[string]*Task
	swept time.Time // the last sweep
}

// NewMemory returns an empty store holding at most max live records
// (DefaultMaxTasks when max <= 0).
func NewMemory(max int) *Memory {
	if max <= 0 {
		max = DefaultMaxTasks
	}
	return &Memory{max: max, now: time.Now, tasks: map[string]*Task{}}
}

var _ Store = (*Memory)(nil)

// Create stores a copy of t.
func (m *Memory) Create(_ context.Context, t *Task) error {
	m.mu.Lock()
	defer m.mu.Unlock()
	if old, ok := m.tasks[t.ID]; ok && !m.expired(old) {
		return ErrExists
	}
	if now := m.now(); len(m.tasks) >= m.max || now.Sub(m.swept) > time.Minute {
		m.sweep()
		m.swept = now
	}
	if len(m.tasks) >= m.max {
		return ErrFull
	}
	m.tasks[t.ID] = t.Clone()
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
// fails; fn runs once, under the store's lock.
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
	m.tasks[id] = c
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
		delete(m.tasks, id)
		return nil, ErrNotFound
	}
	return t, nil
}

func (m *Memory) expired(t *Task) bool {
	exp := t.Expires()
	return !exp.IsZero() && m.now().After(exp)
}

// sweep drops every expired record.
func (m *Memory) sweep() {
	for id, t := range m.tasks {
		if m.expired(t) {
			delete(m.tasks, id)
		}
	}
}
