package redisbroker_test

import (
	"context"
	"errors"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/redisbroker"
	"github.com/mcpwire/mcpwire/task"
)

// The quota per caller holds across the stores of two instances sharing
// one Redis, and a caller's index lives no longer than its records: no
// expiry while one has none, else its last record's, and gone with it.
func TestTaskStoreCallerIndex(t *testing.T) {
	r := startRedis(t)
	rdb := r.client()
	ctx := context.Background()
	one, two := redisbroker.NewTaskStore(rdb, nil), redisbroker.NewTaskStore(rdb, nil)
	rec := func(caller string, ttl time.Duration) *task.Task {
		now := time.Now().UTC()
		return &task.Task{ID: task.NewID(), Caller: caller, Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: ttl}
	}
	const ada, bob = "sub:ada", "addr:192.0.2.1"
	adaKey, bobKey := redisbroker.DefaultTaskPrefix+"c:"+ada, redisbroker.DefaultTaskPrefix+"c:"+bob
	if err := one.Create(ctx, rec(ada, time.Hour), 2); err != nil {
		t.Fatal(err)
	}
	if err := two.Create(ctx, rec(ada, 0), 2); err != nil {
		t.Fatal(err)
	}
	if err := one.Create(ctx, rec(ada, time.Hour), 2); !errors.Is(err, task.ErrQuota) {
		t.Fatalf("ada's third task, through the other instance's store: %v, want ErrQuota", err)
	}
	if ttl := rdb.PTTL(ctx, adaKey).Val(); ttl != -1 {
		t.Errorf("ada's index, which holds a record without a TTL, expires in %v", ttl)
	}

	b := rec(bob, 300*time.Millisecond)
	if err := one.Create(ctx, b, 2); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, bobKey).Val(); ttl <= 0 || ttl > 300*time.Millisecond {
		t.Errorf("bob's index expires in %v, want its record's 300ms", ttl)
	}
	if _, err := two.Update(ctx, b.ID, func(t *task.Task) error { t.UpdatedAt, t.TTL = time.Now().UTC(), 2*time.Second; return nil }); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, bobKey).Val(); ttl <= time.Second {
		t.Errorf("bob's index expires in %v after its record's TTL became 2s", ttl)
	}
	if _, err := two.Update(ctx, b.ID, func(t *task.Task) error { t.UpdatedAt, t.TTL = time.Now().UTC(), 200*time.Millisecond; return nil }); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "bob's index gone with his record", func() bool {
		return rdb.Exists(ctx, bobKey).Val() == 0
	})
	if _, err := one.Get(ctx, b.ID); !errors.Is(err, task.ErrNotFound) {
		t.Errorf("bob's record after its index expired: %v, want it expired too", err)
	}
	if n := rdb.Exists(ctx, redisbroker.DefaultTaskPrefix+"c:").Val(); n != 0 {
		t.Errorf("an index for the empty caller exists")
	}
}
