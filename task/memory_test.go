package task

import (
	"context"
	"errors"
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
		{"create a", func() error { return m.Create(ctx, a) }, nil},
		{"create a again", func() error { return m.Create(ctx, a) }, ErrExists},
		{"create b", func() error { return m.Create(ctx, b) }, nil},
		{"full", func() error { return m.Create(ctx, &Task{ID: NewID()}) }, ErrFull},
		{"get unknown", func() error { _, err := m.Get(ctx, "nope"); return err }, ErrNotFound},
		{"get a at its TTL", func() error { now = now.Add(time.Minute); _, err := m.Get(ctx, a.ID); return err }, nil},
		{"update a", func() error {
			_, err := m.Update(ctx, a.ID, func(t *Task) error { t.Status = Completed; t.UpdatedAt = now; return nil })
			return err
		}, nil},
		{"a kept a TTL after its update", func() error { now = now.Add(59 * time.Second); _, err := m.Get(ctx, a.ID); return err }, nil},
		{"a expired", func() error { now = now.Add(2 * time.Second); _, err := m.Get(ctx, a.ID); return err }, ErrNotFound},
		{"room again", func() error { return m.Create(ctx, &Task{ID: NewID()}) }, nil},
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
