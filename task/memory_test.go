package task

import (
	"context"
	"errors"
	"fmt"
	"testing"
	"time"
)

func TestMemory(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	m := NewMemory(2)
	m.now = func() time.Time { return now }
	a := &Task{ID: NewID(), Status: Working, CreatedAt: now, UpdatedAt: now, TTL: time.Minute}
	b := &Task{ID: NewID(), Status: Working, CreatedAt: now, UpdatedAt: now}
	for _, tc := range []struct {
		name string
		run  func() error
		want error
	}{
		{"create a", func() error { return m.Create(ctx, a, 0) }, nil},
		{"create a again", func() error { return m.Create(ctx, a, 0) }, ErrExists},
		{"create b", func() error { return m.Create(ctx, b, 0) }, nil},
		{"full", func() error { return m.Create(ctx, &Task{ID: NewID()}, 0) }, ErrFull},
		{"get unknown", func() error { _, err := m.Get(ctx, "nope"); return err }, ErrNotFound},
		{"get a at its TTL", func() error { now = now.Add(time.Minute); _, err := m.Get(ctx, a.ID); return err }, nil},
		{"update a", func() error {
			_, err := m.Update(ctx, a.ID, func(t *Task) error { t.Status = Completed; t.UpdatedAt = now; return nil })
			return err
		}, nil},
		{"a kept a TTL after its update", func() error { now = now.Add(59 * time.Second); _, err := m.Get(ctx, a.ID); return err }, nil},
		{"a expired", func() error { now = now.Add(2 * time.Second); _, err := m.Get(ctx, a.ID); return err }, ErrNotFound},
		{"room again", func() error { return m.Create(ctx, &Task{ID: NewID()}, 0) }, nil},
		{"b has no TTL", func() error { now = now.Add(24 * time.Hour); _, err := m.Get(ctx, b.ID); return err }, nil},
		{"failed update stores nothing", func() error {
			m.Update(ctx, b.ID, func(t *Task) error { t.Status = Failed; return errors.New("no") })
			got, _ := m.Get(ctx, b.ID)
			if got.Status != Working {
				return errors.New("changed")
			}
			return nil
		}, nil},
	} {
		if err := tc.run(); !errors.Is(err, tc.want) {
			t.Fatalf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

func TestNewID(t *testing.T) {
	seen := map[string]bool{}
	for range 1000 {
		id := NewID()
		if len(id) != 22 || seen[id] {
			t.Fatalf("bad or repeated id %q", id)
		}
		seen[id] = true
	}
}

func TestTerminal(t *testing.T) {
	for s, want := range map[Status]bool{Working: false, InputRequired: false, Completed: true, Failed: true, Cancelled: true} {
		if s.Terminal() != want {
			t.Errorf("%s.Terminal() = %v", s, !want)
		}
	}
}

// The quota per caller on a fake clock: a caller at its quota is refused
// while others are not, every record it holds counts (whatever quota it
// was created under, terminal ones too) until it expires, the empty
// caller counts against no one, the quota is checked before the store's
// bound, and the bound still holds for a caller under its quota.
func TestMemoryQuota(t *testing.T) {
	ctx := context.Background()
	now := time.Date(2026, 7, 28, 12, 0, 0, 0, time.UTC)
	m := NewMemory(7)
	m.now = func() time.Time { return now }
	rec := func(caller string, ttl time.Duration) *Task {
		return &Task{ID: NewID(), Caller: caller, Status: Working, CreatedAt: now, UpdatedAt: now, TTL: ttl}
	}
	const a, b = "sub:ada", "addr:192.0.2.1"
	a1, a2, ax, a3 := rec(a, time.Minute), rec(a, 0), rec(a, time.Hour), rec(a, time.Hour)
	create := func(t *Task, max int) func() error { return func() error { return m.Create(ctx, t, max) } }
	for _, tc := range []struct {
		name string
		run  func() error
		want error
	}{
		{"a1", create(a1, 2), nil},
		{"a2", create(a2, 2), nil},
		{"a at its quota", create(a3, 2), ErrQuota},
		{"a with no quota", create(ax, 0), nil},
		{"a with no quota, negative", create(rec(a, 0), -1), nil},
		{"every record of a counts", create(a3, 4), ErrQuota},
		{"b is not a", create(rec(b, time.Hour), 2), nil},
		{"no caller, no quota", create(rec("", time.Hour), 1), nil},
		{"no caller, no quota again", create(rec("", time.Hour), 1), nil},
		{"full for b under its quota", create(rec(b, time.Hour), 2), ErrFull},
		{"the quota before the bound", create(a3, 4), ErrQuota},
		{"a1 terminal", func() error {
			_, err := m.Update(ctx, a1.ID, func(t *Task) error { t.Status, t.UpdatedAt = Completed, now; return nil })
			return err
		}, nil},
		{"a1 terminal still counts", create(a3, 4), ErrQuota},
		{"update keeps the caller", func() error {
			got, err := m.Update(ctx, a2.ID, func(t *Task) error { t.Caller = b; return nil })
			if err == nil && got.Caller != a {
				return fmt.Errorf("caller %q after the update", got.Caller)
			}
			return err
		}, nil},
		{"a1 kept its TTL after its update", func() error {
			now = now.Add(time.Minute)
			if _, err := m.Get(ctx, a1.ID); err != nil {
				return err
			}
			return create(a3, 4)()
		}, ErrQuota},
		{"a1's expiry frees a's quota and room", func() error { now = now.Add(time.Second); return create(a3, 4)() }, nil},
		{"a1 gone", func() error { _, err := m.Get(ctx, a1.ID); return err }, ErrNotFound},
		{"a at its quota again", create(rec(a, 0), 4), ErrQuota},
	} {
		if err := tc.run(); !errors.Is(err, tc.want) {
			t.Fatalf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
	if n := len(m.callers[a].ids); n != 4 || len(m.callers[b].ids) != 1 || m.callers[""] != nil {
		t.Fatalf("holdings: a %d, b %d, the empty caller %v; want 4, 1, none", n, len(m.callers[b].ids), m.callers[""])
	}
	// Once its records expire a caller is forgotten.
	now = now.Add(2 * time.Hour)
	m.Create(ctx, &Task{ID: NewID()}, 0) // full of expired records: a sweep
	if h := m.callers[b]; h != nil {
		t.Errorf("b still held %v after its record expired", h.ids)
	}
	if n := len(m.callers[a].ids); n != 2 {
		t.Errorf("a holds %d records, want its 2 without a TTL", n)
	}
}
