package redisbroker_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/dpop"
	"github.com/mcpwire/mcpwire/redisbroker"
)

// An id is fresh once until its time, then Redis forgets it.
func TestReplayCache(t *testing.T) {
	r := startRedis(t)
	rdb := r.client()
	c := redisbroker.NewReplayCache(rdb, "test:dpop:")
	ctx := context.Background()
	remember := func(id string, d time.Duration) bool {
		t.Helper()
		fresh, err := c.Remember(ctx, id, time.Now().Add(d))
		if err != nil {
			t.Fatal(err)
		}
		return fresh
	}
	if !remember("a", time.Minute) || remember("a", time.Minute) {
		t.Fatal("a: not fresh exactly once")
	}
	if ttl := rdb.PTTL(ctx, "test:dpop:a").Val(); ttl <= 0 || ttl > time.Minute {
		t.Errorf("the key's expiry is %v", ttl)
	}
	if !remember("b", 100*time.Millisecond) {
		t.Fatal("b not fresh")
	}
	time.Sleep(200 * time.Millisecond)
	if !remember("b", time.Minute) {
		t.Error("b not forgotten after its time")
	}
	if !remember("past", -time.Second) || rdb.Exists(ctx, "test:dpop:past").Val() != 0 {
		t.Error("an id already past was stored")
	}
	r.kill()
	if _, err := c.Remember(ctx, "c", time.Now().Add(time.Minute)); err == nil {
		t.Error("no error with Redis down")
	}
}

// Two checkers, as two instances, sharing the cache: a proof passes once
// across both, however many requests carry it at once (run with -race
// -count=20).
func TestReplayCacheShared(t *testing.T) {
	r := startRedis(t)
	cache := redisbroker.NewReplayCache(r.client(), "")
	var checkers []*dpop.Checker
	for range 2 {
		c, err := dpop.NewChecker(dpop.Options{Replay: cache})
		if err != nil {
			t.Fatal(err)
		}
		checkers = append(checkers, c)
	}
	key, err := dpop.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	const url = "https://mcp.example.com/mcp"
	for range 5 {
		proof, err := key.Proof("POST", url, "tok", "")
		if err != nil {
			t.Fatal(err)
		}
		var passed atomic.Int32
		var wg sync.WaitGroup
		for i := range 8 {
			wg.Go(func() {
				_, err := checkers[i%2].Check(context.Background(), proof, "POST", url, "tok", key.Thumbprint())
				switch {
				case err == nil:
					passed.Add(1)
				case !errors.Is(err, dpop.ErrInvalidProof):
					t.Error(err)
				}
			})
		}
		wg.Wait()
		if passed.Load() != 1 {
			t.Fatalf("the proof passed %d times", passed.Load())
		}
	}
}
