package dpop

import (
	"context"
	"strconv"
	"sync"
	"sync/atomic"
	"testing"
	"time"
)

// The memory cache: an id is fresh once until it expires, the cache
// refuses to forget live ids when full, and expired ones make room.
func TestMemoryReplayCache(t *testing.T) {
	ctx := context.Background()
	clock := time.Now()
	m := NewMemoryReplayCache(2).(*memoryCache)
	m.now = func() time.Time { return clock }
	remember := func(id string, d time.Duration) (bool, error) { return m.Remember(ctx, id, clock.Add(d)) }
	if fresh, err := remember("a", time.Minute); !fresh || err != nil {
		t.Fatal(fresh, err)
	}
	if fresh, err := remember("a", time.Minute); fresh || err != nil {
		t.Fatal("a twice:", fresh, err)
	}
	if fresh, err := remember("b", 2*time.Minute); !fresh || err != nil {
		t.Fatal(fresh, err)
	}
	if _, err := remember("c", time.Minute); err == nil {
		t.Fatal("a full cache forgot a live id")
	}
	clock = clock.Add(time.Minute)
	if fresh, err := remember("a", time.Minute); !fresh || err != nil {
		t.Fatal("a after expiry:", fresh, err)
	}
	if fresh, _ := remember("b", time.Minute); fresh {
		t.Fatal("b expired early")
	}
	if len(m.seen) != 2 || len(m.exp) != 2 {
		t.Fatalf("%d entries, %d expiries", len(m.seen), len(m.exp))
	}
}

// Concurrent proofs of one id: exactly one is fresh (run with -race
// -count=20).
func TestMemoryReplayCacheConcurrent(t *testing.T) {
	c := NewMemoryReplayCache(0)
	until := time.Now().Add(time.Minute)
	for round := range 50 {
		var fresh atomic.Int32
		var wg sync.WaitGroup
		for range 8 {
			wg.Go(func() {
				ok, err := c.Remember(context.Background(), strconv.Itoa(round), until)
				if err != nil {
					t.Error(err)
				}
				if ok {
					fresh.Add(1)
				}
			})
		}
		wg.Wait()
		if fresh.Load() != 1 {
			t.Fatalf("round %d: %d fresh", round, fresh.Load())
		}
	}
}

// One proof checked by many requests at once passes once.
func TestCheckConcurrentReplay(t *testing.T) {
	k := mustKey(t)
	c := mustChecker(t, Options{})
	proof, _ := k.Proof("POST", testURL, testToken, "")
	var ok atomic.Int32
	var wg sync.WaitGroup
	for range 8 {
		wg.Go(func() {
			if _, err := c.Check(context.Background(), proof, "POST", testURL, testToken, ""); err == nil {
				ok.Add(1)
			}
		})
	}
	wg.Wait()
	if ok.Load() != 1 {
		t.Fatalf("%d passes", ok.Load())
	}
}
