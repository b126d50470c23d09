package mcphttp

import (
	"testing"
	"time"
)

// fakeDeadlines records the deadlines the watchdog sets.
type fakeDeadlines struct{ read, write []time.Time }

func (f *fakeDeadlines) SetReadDeadline(t time.Time) error  { f.read = append(f.read, t); return nil }
func (f *fakeDeadlines) SetWriteDeadline(t time.Time) error { f.write = append(f.write, t); return nil }

// The watchdog cuts a write that takes longer than WriteTimeout and a
// body that arrives slower than BodyTimeout and MinBodyRate allow, once
// each, and nothing else; a read it cut just as it completed has its
// deadline lifted.
func TestWatchdogCheck(t *testing.T) {
	d := newWatchdog(Options{BodyTimeout: 10 * time.Second, WriteTimeout: 20 * time.Second, MinBodyRate: 1000}, nil)
	t0 := time.Unix(1000, 0)
	at := func(s float64) time.Time { return t0.Add(time.Duration(s * float64(time.Second))) }

	f := &fakeDeadlines{}
	w := &watch{dl: f}
	w.writing.Store(t0.UnixNano())
	d.check(w, at(19))
	if len(f.write) != 0 {
		t.Fatalf("a write 19 s old was cut (WriteTimeout 20 s)")
	}
	d.check(w, at(21))
	d.check(w, at(22))
	if len(f.write) != 1 || !f.write[0].Equal(at(21)) {
		t.Fatalf("write deadlines %v, want one, at the look that found it overdue", f.write)
	}

	f = &fakeDeadlines{}
	w = &watch{dl: f}
	w.beginRead(t0)
	w.received.Store(5000) // 5 s more at 1000 bytes/s: due at 15 s
	d.check(w, at(14))
	if len(f.read) != 0 {
		t.Fatalf("a body within its allowance was cut")
	}
	d.check(w, at(16))
	d.check(w, at(17))
	if len(f.read) != 1 || !f.read[0].Equal(at(16)) {
		t.Fatalf("read deadlines %v, want one at 16 s", f.read)
	}
	w.endRead()
	if len(f.read) != 2 || !f.read[1].IsZero() {
		t.Fatalf("read deadlines %v: the cut was not lifted at the read's end", f.read)
	}
	d.check(w, at(30))
	if len(f.read) != 2 {
		t.Fatalf("a read that ended was cut again")
	}
}

// The watchdog's goroutine runs only while requests are watched.
func TestWatchdogStopsWhenIdle(t *testing.T) {
	d := newWatchdog(Options{BodyTimeout: 100 * time.Millisecond, WriteTimeout: 100 * time.Millisecond, MinBodyRate: 1}, nil)
	w := &watch{dl: &fakeDeadlines{}}
	d.add(w)
	d.remove(w)
	deadline := time.Now().Add(5 * time.Second)
	for {
		d.mu.Lock()
		looking := d.looking
		d.mu.Unlock()
		if !looking {
			return
		}
		if time.Now().After(deadline) {
			t.Fatal("the watchdog still looks with nothing to watch")
		}
		time.Sleep(5 * time.Millisecond)
	}
}
