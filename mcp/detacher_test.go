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
