package mcp

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/tool"
)

// Which calls run on the reader of a connection read with Each: a lone
// call always; one that is not alone only when no call has detached
// within calmAfter. Without the last rule a pipelined stream of fast
// calls stays with the worker pool after one detach for as long as the
// stream lasts (each new call finds the one before it still in flight on
// a worker), at about 0.6× the throughput.
func TestMayRunHere(t *testing.T) {
	tests := []struct {
		name        string
		pending     int64         // calls in flight, this one included
		queued      int           // calls waiting for a worker
		detachedAgo time.Duration // 0: no call ever detached
		want        bool
	}{
		{"alone", 1, 0, 0, true},
		{"alone, just after a detach", 1, 0, time.Microsecond, true},
		{"not alone, never detached", 2, 0, 0, true},
		{"not alone, just after a detach", 2, 0, time.Microsecond, false},
		{"not alone, within calmAfter", 2, 0, calmAfter / 2, false},
		{"not alone, calm again", 2, 0, 2 * calmAfter, true},
		{"many in flight, calm", 40, 0, 2 * calmAfter, true},
		{"others queued, calm", 3, 1, 2 * calmAfter, true},
		{"others queued, within calmAfter", 3, 1, calmAfter / 2, false},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			sc := &scheduler{detachable: true, jobs: make(chan job, 4)}
			sc.pending.Store(tt.pending)
			for range tt.queued {
				sc.jobs <- job{}
			}
			if tt.detachedAgo > 0 {
				sc.detacher.lastDetach.Store(time.Now().Add(-tt.detachedAgo).UnixNano())
			}
			if got := sc.mayRunHere(); got != tt.want {
				t.Errorf("mayRunHere() = %v, want %v", got, tt.want)
			}
		})
	}
}

// A detach is recorded when the timer detaches a call, and not for a call
// that ended in time.
func TestDetacherRecordsDetach(t *testing.T) {
	var d detacher
	d.disarm(d.arm(func() {}))
	time.Sleep(3 * detachAfter)
	if !d.calm() {
		t.Fatal("a call that ended in time made the session uncalm")
	}
	fired := make(chan struct{})
	armed := d.arm(func() { close(fired) })
	select {
	case <-fired:
	case <-time.After(time.Second):
		t.Fatal("the call was never detached")
	}
	d.disarm(armed)
	if d.calm() {
		t.Error("calm right after a detach")
	}
	d.stop()
}

// onWorker reports whether the calling handler runs on a worker of the
// pool rather than on the goroutine that read its request.
func onWorker() bool {
	buf := make([]byte, 8<<10)
	return strings.Contains(string(buf[:runtime.Stack(buf, false)]), "(*scheduler).worker(")
}

// Workers left idle by a burst hold every slot until they have waited
// workerIdle; a lone call that comes meanwhile takes an idle worker's
// slot and runs on the reader, instead of being handed to that worker.
func TestLoneCallTakesAnIdleWorkersSlot(t *testing.T) {
	const slots = 4 // and the burst's workers stay idle for workerIdle, longer than the test
	srv := NewServer(Implementation{Name: "test", Version: "1"}, &Options{
		MaxConcurrentCalls: slots,
		Logger:             slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	started := make(chan struct{}, slots+1)
	releaseReader, releaseWorkers := make(chan struct{}), make(chan struct{})
	srv.MustAddTool(tool.New("hold", "Waits for the test.", func(context.Context, struct{}) (*tool.Result, error) {
		release := releaseReader
		if onWorker() {
			release = releaseWorkers
		}
		started <- struct{}{}
		<-release
		return tool.TextResult("released"), nil
	}))
	where := make(chan bool, 1)
	srv.MustAddTool(tool.New("where", "Says whether it ran on a worker.", func(context.Context, struct{}) (*tool.Result, error) {
		where <- onWorker()
		return tool.TextResult("here"), nil
	}))
	c := serveOnPipe(t, srv)
	// On a loaded machine the reader may take longer than calmAfter to
	// read the next call after the first detaches, and would then run it
	// too: keep the session from calming down until the burst is served.
	srv.sessionDetacher(t).calmFor.Store(int64(time.Hour))
	// The first call runs on the reader until it detaches, the next three
	// on workers, and the last waits for a slot. Once the first ends, a
	// fourth worker takes the last; once they end, every slot is an idle
	// worker's.
	for i := range slots + 1 {
		c.call(i, "hold")
	}
	for range slots {
		<-started
	}
	close(releaseReader)
	c.answer()
	<-started // the fourth worker runs the last call
	close(releaseWorkers)
	for range slots {
		c.answer()
	}
	if n := srv.sessionWorkers(); n != slots {
		t.Fatalf("%d workers after the burst, want %d", n, slots)
	}
	srv.sessionDetacher(t).calmFor.Store(0)
	time.Sleep(2 * calmAfter) // the first call detached: let the session calm down
	for i := range 3 {
		c.call(slots+1+i, "where")
		if <-where {
			t.Fatalf("call %d ran on an idle worker, not on the reader", i)
		}
		c.answer()
	}
}

// sessionDetacher returns the detacher of the server's one session,
// waiting up to 10 s for Serve to begin it.
func (s *Server) sessionDetacher(t *testing.T) *detacher {
	for deadline := time.Now().Add(10 * time.Second); time.Now().Before(deadline); time.Sleep(time.Millisecond) {
		s.sessMu.Lock()
		for ss := range s.sessions {
			s.sessMu.Unlock()
			return &ss.sched.detacher
		}
		s.sessMu.Unlock()
	}
	t.Fatal("the server began no session within 10 s")
	return nil
}

// sessionWorkers returns the worker slots taken in the server's one
// session.
func (s *Server) sessionWorkers() int {
	s.sessMu.Lock()
	defer s.sessMu.Unlock()
	for ss := range s.sessions {
		return int(ss.sched.workers.Load())
	}
	return -1
}
