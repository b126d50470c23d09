package storetest

import (
	"context"
	"errors"
	"fmt"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/task"
)

// quota is task/memory_test.go's table of the quota per caller on the
// real clock, in a store of 7: a caller at its quota is refused while
// others are not; every record it holds counts (whatever quota it was
// created under, terminal ones too) until it expires; the empty caller
// counts against no one; the quota is checked before the store's bound,
// and the bound still holds for a caller under its quota; an update
// keeps the record's caller.
func quota(t *testing.T, s task.Store) {
	ctx := context.Background()
	rec := func(caller string, ttl time.Duration) *task.Task {
		now := time.Now().UTC()
		return &task.Task{ID: task.NewID(), Caller: caller, Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: ttl}
	}
	const a, b = "sub:ada", "addr:192.0.2.1"
	a1, a2, a3 := rec(a, TTL), rec(a, 0), rec(a, time.Hour)
	create := func(t *task.Task, max int) func() error { return func() error { return s.Create(ctx, t, max) } }
	sleep := func(frac float64) { time.Sleep(time.Duration(frac * float64(TTL))) }
	for _, tc := range []struct {
		name string
		run  func() error
		want error
	}{
		{"a1", create(a1, 2), nil},
		{"a2", create(a2, 2), nil},
		{"a at its quota", create(a3, 2), task.ErrQuota},
		{"a with no quota", create(rec(a, time.Hour), 0), nil},
		{"a with no quota, negative", create(rec(a, 0), -1), nil},
		{"every record of a counts", create(a3, 4), task.ErrQuota},
		{"b is not a", create(rec(b, time.Hour), 2), nil},
		{"no caller, no quota", create(rec("", time.Hour), 1), nil},
		{"no caller, no quota again", create(rec("", time.Hour), 1), nil},
		{"full for b under its quota", create(rec(b, time.Hour), 2), task.ErrFull},
		{"the quota before the bound", create(a3, 4), task.ErrQuota},
		{"a1 terminal", func() error {
			_, err := s.Update(ctx, a1.ID, func(t *task.Task) error {
				t.Status, t.UpdatedAt = task.Completed, time.Now().UTC()
				return nil
			})
			return err
		}, nil},
		{"update keeps the caller", func() error {
			if _, err := s.Update(ctx, a2.ID, func(t *task.Task) error { t.Caller = b; return nil }); err != nil {
				return err
			}
			if got, err := s.Get(ctx, a2.ID); err != nil || got.Caller != a {
				return fmt.Errorf("after the update: %+v, %v; want caller %q", got, err, a)
			}
			return nil
		}, nil},
		{"a1 terminal still counts", func() error {
			sleep(0.6)
			if _, err := s.Get(ctx, a1.ID); err != nil {
				return err
			}
			return create(a3, 4)()
		}, task.ErrQuota},
		{"a1's expiry frees a's quota and room", func() error { sleep(0.8); return create(a3, 4)() }, nil},
		{"a1 gone", func() error { _, err := s.Get(ctx, a1.ID); return err }, task.ErrNotFound},
		{"a at its quota again", create(rec(a, 0), 4), task.ErrQuota},
	} {
		if err := tc.run(); !errors.Is(err, tc.want) {
			t.Fatalf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

// quotaAtomic: Creates of one caller racing each other never leave it
// holding more than its quota, while another caller's go through.
func quotaAtomic(t *testing.T, s task.Store) {
	ctx := context.Background()
	const workers, each, max = 8, 5, 10
	var mu sync.Mutex
	created, refused := 0, 0
	var wg sync.WaitGroup
	for range workers {
		wg.Go(func() {
			for range each {
				now := time.Now().UTC()
				err := s.Create(ctx, &task.Task{ID: task.NewID(), Caller: "sub:ada", Status: task.Working,
					CreatedAt: now, UpdatedAt: now, TTL: time.Minute}, max)
				mu.Lock()
				switch {
				case err == nil:
					created++
				case errors.Is(err, task.ErrQuota):
					refused++
				default:
					t.Errorf("Create: %v", err)
				}
				mu.Unlock()
				other := &task.Task{ID: task.NewID(), Caller: "sub:bob", Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: time.Minute}
				if err := s.Create(ctx, other, max*workers); err != nil {
					t.Errorf("another caller's Create: %v", err)
				}
			}
		})
	}
	wg.Wait()
	if created != max || refused != workers*each-max {
		t.Fatalf("%d created and %d refused, want %d and %d", created, refused, max, workers*each-max)
	}
}
