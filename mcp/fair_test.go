package mcp

import (
	"context"
	"testing"
	"time"
)

// acquired waits for an acquire started in the background.
func acquiredWithin(t *testing.T, ch <-chan bool, want bool, what string) {
	t.Helper()
	select {
	case got := <-ch:
		if got != want {
			t.Fatalf("%s: acquire = %v, want %v", what, got, want)
		}
	case <-time.After(5 * time.Second):
		t.Fatalf("%s: acquire did not return", what)
	}
}

func acquireAsync(f *fairSlots, ctx context.Context, caller string) <-chan bool {
	ch := make(chan bool, 1)
	go func() { ch <- f.acquire(ctx, caller) }()
	return ch
}

// waitWaiting waits until n acquires wait.
func waitWaiting(t *testing.T, f *fairSlots, n int) {
	t.Helper()
	deadline := time.Now().Add(5 * time.Second)
	for {
		f.mu.Lock()
		got := 0
		for _, cs := range f.waiting {
			got += len(cs.waiters)
		}
		f.mu.Unlock()
		if got == n {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("%d acquires wait, want %d", got, n)
		}
		time.Sleep(time.Millisecond)
	}
}

func TestFairSlotsShare(t *testing.T) {
	f := newFairSlots(4, 3)
	for i := range 3 {
		if !f.tryAcquire("a") {
			t.Fatalf("a's slot %d refused within its share", i+1)
		}
	}
	if f.tryAcquire("a") {
		t.Fatal("a took a fourth slot beyond its share of 3")
	}
	if !f.tryAcquire("b") {
		t.Fatal("b was refused the slot a's share leaves")
	}
	if f.tryAcquire("c") {
		t.Fatal("c took a slot beyond MaxConcurrentCalls")
	}
	// The caller the transport does not name has no share of its own.
	g := newFairSlots(4, 1)
	for i := range 4 {
		if !g.tryAcquire("") {
			t.Fatalf("the unnamed caller's slot %d refused", i+1)
		}
	}
}

// A freed slot goes to the waiting caller that runs the fewest calls, the
// earliest waiter among equals, never to a caller at its share.
func TestFairSlotsGrantOrder(t *testing.T) {
	f := newFairSlots(4, 3)
	for range 3 {
		f.tryAcquire("a")
	}
	f.tryAcquire("b")
	ctx := context.Background()
	a := acquireAsync(f, ctx, "a")
	waitWaiting(t, f, 1)
	c1 := acquireAsync(f, ctx, "c")
	waitWaiting(t, f, 2)
	b := acquireAsync(f, ctx, "b")
	waitWaiting(t, f, 3)

	f.release("a") // a runs 2, b 1, c 0: c first
	acquiredWithin(t, c1, true, "c, running none")
	f.release("b") // a 2, b 0, c 1: b
	acquiredWithin(t, b, true, "b, running none")
	f.release("c") // a 2 (waiting), b 1: a
	acquiredWithin(t, a, true, "a, the last waiter")
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running != 4 || len(f.waiting) != 0 {
		t.Errorf("running %d, waiting callers %d; want 4 and 0", f.running, len(f.waiting))
	}
}

// A waiter whose context ends stops waiting and leaves no trace; the
// slots it did not take go to the next.
func TestFairSlotsCancel(t *testing.T) {
	f := newFairSlots(1, 1)
	f.tryAcquire("a")
	ctx, cancel := context.WithCancel(context.Background())
	gone := acquireAsync(f, ctx, "b")
	waitWaiting(t, f, 1)
	next := acquireAsync(f, context.Background(), "c")
	waitWaiting(t, f, 2)
	cancel()
	acquiredWithin(t, gone, false, "cancelled")
	f.release("a")
	acquiredWithin(t, next, true, "the next waiter")
	f.release("c")
	f.mu.Lock()
	defer f.mu.Unlock()
	if f.running != 0 || len(f.callers) != 0 || len(f.waiting) != 0 {
		t.Errorf("left behind: running %d, callers %d, waiting %d", f.running, len(f.callers), len(f.waiting))
	}
}
