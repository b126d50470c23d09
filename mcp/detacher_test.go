package mcp

import (
	"testing"
	"time"
)

// A call that detached and ends after the next lone call armed the timer
// must not disarm that call's: the next call is still detached in time.
func TestDetacherLateDisarm(t *testing.T) {
	var d detacher
	first := d.arm(func() {})
	fired := make(chan struct{}, 1)
	second := d.arm(func() { fired <- struct{}{} })
	d.disarm(first) // the first call ends late
	select {
	case <-fired:
	case <-time.After(time.Second):
		t.Fatal("the second call was never detached: the first call's disarm stopped its timer")
	}
	d.disarm(second)
	third := d.arm(func() { t.Error("a disarmed call was detached") })
	d.disarm(third)
	time.Sleep(3 * detachAfter)
}

// The timer ticks while lone calls keep coming, and stops once the
// session has had none for detacherIdle; stop ends it for good.
func TestDetacherGoesQuiet(t *testing.T) {
	var d detacher
	isSet := func() bool {
		d.mu.Lock()
		defer d.mu.Unlock()
		return d.set
	}
	for range 5 {
		d.disarm(d.arm(func() { t.Error("a call that ended was detached") }))
		time.Sleep(detachAfter / 2)
	}
	if !isSet() {
		t.Fatal("the timer stopped between two calls of a busy session")
	}
	deadline := time.Now().Add(time.Second)
	for isSet() {
		if time.Now().After(deadline) {
			t.Fatal("the timer still ticks a second after the last call")
		}
		time.Sleep(detachAfter)
	}
	d.arm(func() {})
	d.stop()
	d.arm(func() { t.Error("a call was detached after stop") })
	time.Sleep(3 * detachAfter)
}
