// Package storetest is the conformance test of a task.Store: the
// behaviours package mcp relies on, run against any implementation with
// Run. The in-memory store runs it (this package's own test), and so does
// the Redis store of the redisbroker module.
//
// Run uses the real clock: its TTLs are short (TTL, a few hundred
// milliseconds), so that a store whose expiry is kept elsewhere (a Redis
// key's) is tested as it runs in production.
package storetest

import (
	"context"
	"errors"
	"fmt"
	"reflect"
	"strconv"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/task"
)

// TTL is the TTL of Run's expiring records. The table waits fractions of
// it: each check has 40% of TTL as its margin.
const TTL = 500 * time.Millisecond

// NewStore returns an empty store that holds at most max live records,
// for one subtest of Run; the test's cleanups may close it.
type NewStore func(t *testing.T, max int) task.Store

// Run runs the conformance table against stores from newStore.
func Run(t *testing.T, newStore NewStore) {
	t.Run("lifecycle", func(t *testing.T) { lifecycle(t, newStore(t, 2)) })
	t.Run("copies", func(t *testing.T) { copies(t, newStore(t, 10)) })
	t.Run("update-atomic", func(t *testing.T) { atomic(t, newStore(t, 10)) })
	t.Run("quota", func(t *testing.T) { quota(t, newStore(t, 7)) })
	t.Run("quota-atomic", func(t *testing.T) { quotaAtomic(t, newStore(t, 100)) })
}

// lifecycle is the table of task/memory_test.go on the real clock:
// create, exists, full, not found, TTL kept after the last update,
// expiry, room again after expiry, no TTL, a failed update.
func lifecycle(t *testing.T, s task.Store) {
	ctx := context.Background()
	now := time.Now().UTC()
	a := &task.Task{ID: task.NewID(), Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: TTL}
	b := &task.Task{ID: task.NewID(), Status: task.Working, CreatedAt: now, UpdatedAt: now}
	get := func(id string) error { _, err := s.Get(ctx, id); return err }
	sleep := func(frac float64) { time.Sleep(time.Duration(frac * float64(TTL))) }
	for _, tc := range []struct {
		name string
		run  func() error
		want error
	}{
		{"create a", func() error { return s.Create(ctx, a, 0) }, nil},
		{"create a again", func() error { return s.Create(ctx, a, 0) }, task.ErrExists},
		{"create b", func() error { return s.Create(ctx, b, 0) }, nil},
		{"full", func() error { return s.Create(ctx, &task.Task{ID: task.NewID()}, 0) }, task.ErrFull},
		{"get unknown", func() error { return get("nope") }, task.ErrNotFound},
		{"get a malformed id", func() error { return get("a:b/../*{x}" + string(make([]byte, 300))) }, task.ErrNotFound},
		{"update unknown", func() error {
			_, err := s.Update(ctx, "nope", func(*task.Task) error { return errors.New("ran") })
			return err
		}, task.ErrNotFound},
		{"get a before its TTL", func() error { sleep(0.6); return get(a.ID) }, nil},
		{"update a", func() error {
			got, err := s.Update(ctx, a.ID, func(t *task.Task) error {
				t.Status, t.UpdatedAt = task.Completed, time.Now().UTC()
				t.Result = json.RawMessage(`{"content":[]}`)
				return nil
			})
			if err == nil && (got.Status != task.Completed || string(got.Result) != `{"content":[]}`) {
				return fmt.Errorf("Update returned %+v", got)
			}
			return err
		}, nil},
		{"a kept a TTL after its update", func() error { sleep(0.6); return get(a.ID) }, nil},
		{"a expired", func() error { sleep(0.8); return get(a.ID) }, task.ErrNotFound},
		{"update expired", func() error {
			_, err := s.Update(ctx, a.ID, func(*task.Task) error { return nil })
			return err
		}, task.ErrNotFound},
		{"create a again after its expiry", func() error {
			again := a.Clone()
			again.CreatedAt, again.UpdatedAt = time.Now().UTC(), time.Now().UTC()
			return s.Create(ctx, again, 0)
		}, nil},
		{"full again", func() error { return s.Create(ctx, &task.Task{ID: task.NewID()}, 0) }, task.ErrFull},
		{"b has no TTL", func() error { return get(b.ID) }, nil},
		{"failed update stores nothing", func() error {
			_, err := s.Update(ctx, b.ID, func(t *task.Task) error { t.Status = task.Failed; return errNo })
			if !errors.Is(err, errNo) {
				return fmt.Errorf("Update returned %v, not fn's error", err)
			}
			if got, err := s.Get(ctx, b.ID); err != nil || got.Status != task.Working {
				return fmt.Errorf("after a failed update: %+v, %v", got, err)
			}
			return nil
		}, nil},
	} {
		if err := tc.run(); !errors.Is(err, tc.want) {
			t.Fatalf("%s: got %v, want %v", tc.name, err, tc.want)
		}
	}
}

var errNo = errors.New("no")

// full is a record with every field set.
func full() *task.Task {
	now := time.Now().UTC()
	return &task.Task{
		ID: task.NewID(), Owner: "alice", Caller: "sub:alice", Status: task.InputRequired, StatusMessage: "waiting",
		CreatedAt: now.Add(-time.Second), UpdatedAt: now, TTL: time.Hour, PollInterval: 250 * time.Millisecond,
		Result: json.RawMessage(`{"content":[]}`), Error: json.RawMessage(`{"code":-32603,"message":"x"}`),
		InputRequests: map[string]json.RawMessage{"confirm": json.RawMessage(`{"method":"elicitation/create","params":{}}`)},
		Tool:          "confirm_delete", Arguments: json.RawMessage(`{"filename":"a"}`),
		ClientCapabilities: json.RawMessage(`{"elicitation":{}}`),
		Asked:              map[string]string{"confirm": "elicitation/create"},
		Answers:            map[string]json.RawMessage{"name": json.RawMessage(`{"action":"accept"}`)},
		Memo:               map[string]json.RawMessage{"step": json.RawMessage(`2`)},
	}
}

// copies: every field survives the store, and what Create was given and
// Get and Update return are the caller's, not the store's.
func copies(t *testing.T, s task.Store) {
	ctx := context.Background()
	in := full()
	want := in.Clone()
	if err := s.Create(ctx, in, 0); err != nil {
		t.Fatal(err)
	}
	in.Status, in.Memo["step"] = task.Failed, json.RawMessage(`9`)
	got, err := s.Get(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	if !same(got, want) {
		t.Fatalf("stored %+v\nread   %+v", want, got)
	}
	got.Status, got.Answers["name"] = task.Cancelled, nil
	upd, err := s.Update(ctx, want.ID, func(t *task.Task) error {
		if !same(t, want) {
			return fmt.Errorf("fn was given %+v", t)
		}
		t.Memo["step"] = json.RawMessage(`3`)
		return nil
	})
	if err != nil {
		t.Fatal(err)
	}
	upd.Memo["step"] = json.RawMessage(`4`)
	again, err := s.Get(ctx, want.ID)
	if err != nil {
		t.Fatal(err)
	}
	want.Memo["step"] = json.RawMessage(`3`)
	if !same(again, want) {
		t.Fatalf("after the update: %+v\nwant %+v", again, want)
	}
}

// same compares records as their JSON (time.Time's monotonic reading and
// location do not survive a store that keeps JSON, and need not).
func same(a, b *task.Task) bool {
	ja, _ := json.Marshal(a)
	jb, _ := json.Marshal(b)
	var va, vb any
	json.Unmarshal(ja, &va)
	json.Unmarshal(jb, &vb)
	return reflect.DeepEqual(va, vb)
}

// atomic: concurrent Updates of one record lose none of each other's
// changes, and fn's error stops only its own Update.
func atomic(t *testing.T, s task.Store) {
	ctx := context.Background()
	now := time.Now().UTC()
	rec := &task.Task{ID: task.NewID(), Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: time.Minute}
	if err := s.Create(ctx, rec, 0); err != nil {
		t.Fatal(err)
	}
	const workers, each = 8, 10
	var wg sync.WaitGroup
	for w := range workers {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for i := range each {
				_, err := s.Update(ctx, rec.ID, func(t *task.Task) error {
					if i == each-1 && w%2 == 0 {
						return errNo
					}
					n, _ := strconv.Atoi(string(t.Memo["n"]))
					if t.Memo == nil {
						t.Memo = map[string]json.RawMessage{}
					}
					t.Memo["n"] = json.RawMessage(strconv.Itoa(n + 1))
					t.Memo[fmt.Sprint("w", w, "-", i)] = json.RawMessage(`true`)
					return nil
				})
				if err != nil && !errors.Is(err, errNo) {
					t.Error(err)
				}
			}
		}()
	}
	wg.Wait()
	got, err := s.Get(ctx, rec.ID)
	if err != nil {
		t.Fatal(err)
	}
	want := workers*each - workers/2
	if string(got.Memo["n"]) != strconv.Itoa(want) || len(got.Memo) != want+1 {
		t.Fatalf("n = %s with %d entries, want %d updates applied", got.Memo["n"], len(got.Memo), want)
	}
}
