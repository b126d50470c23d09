package mcp

import (
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// The scheduler's modes, each against the others, with a runner whose
// calls do nothing: what remains is what a mode costs a call. An inline
// method pays nothing (the baseline); a call run on the reader pays a
// worker slot and the detacher's arming; a pooled call pays two
// goroutine hand-offs, to a worker and back to the waiting reader. Run
// with -cpu 1,2: the hand-offs cost most where one core runs both sides.
// The figures are in BENCHMARKS.md's "Go benchmarks".

// benchRunner answers every job at once and signals done.
type benchRunner struct {
	resp *jsonrpc.Response
	done chan struct{}
}

func (benchRunner) admit(job, bool)                 {}
func (r benchRunner) execute(job) *jsonrpc.Response { return r.resp }
func (r benchRunner) answer(job, *jsonrpc.Response) { r.done <- struct{}{} }
func (benchRunner) startsTask(job) bool             { return false }
func newBenchScheduler(detachable bool) (*scheduler, benchRunner) {
	r := benchRunner{resp: &jsonrpc.Response{}, done: make(chan struct{}, 1)}
	opts := Options{MaxConcurrentCalls: 8, MaxQueuedCalls: 64, MaxQueuedBytes: 1 << 20}
	sc := newScheduler(r, &opts)
	sc.detachable = detachable
	return &sc, r
}

// BenchmarkSchedulerInline is the baseline: a call run where it was
// read, without the scheduler (as initialize, ping and the lists are).
func BenchmarkSchedulerInline(b *testing.B) {
	_, r := newBenchScheduler(false)
	b.ReportAllocs()
	for b.Loop() {
		r.answer(job{}, r.execute(job{}))
		<-r.done
	}
}

// BenchmarkSchedulerReaderRun submits calls on a connection read with
// transport.FastStream.Each, one at a time: each runs on the submitting
// goroutine in a worker slot, with the detacher armed around it.
func BenchmarkSchedulerReaderRun(b *testing.B) {
	sc, r := newBenchScheduler(true)
	defer sc.close(time.Second, func() {})
	defer sc.readingEnded()
	detach := func() {}
	b.ReportAllocs()
	for b.Loop() {
		runHere, _, err := sc.submit(job{size: 100})
		if err != nil || runHere == nil {
			b.Fatalf("not run on the reader: %v", err)
		}
		sc.runOnReader(runHere, detach)
		<-r.done
	}
}

// BenchmarkSchedulerPooled submits calls on a connection read with Read,
// one at a time: each goes to a worker, and the submitter waits for its
// answer.
func BenchmarkSchedulerPooled(b *testing.B) {
	sc, r := newBenchScheduler(false)
	defer sc.close(time.Second, func() {})
	b.ReportAllocs()
	for b.Loop() {
		runHere, _, err := sc.submit(job{size: 100})
		if err != nil || runHere != nil {
			b.Fatalf("not pooled: %v", err)
		}
		<-r.done
	}
}

// BenchmarkSchedulerPooledPipelined keeps 8 calls submitted to the
// workers, as a pipelined client keeps requests outstanding.
func BenchmarkSchedulerPooledPipelined(b *testing.B) {
	sc, r := newBenchScheduler(false)
	r.done = make(chan struct{}, 64)
	sc.runner = r
	defer sc.close(time.Second, func() {})
	const window = 8
	b.ReportAllocs()
	outstanding := 0
	for b.Loop() {
		if outstanding == window {
			<-r.done
			outstanding--
		}
		if _, _, err := sc.submit(job{size: 100}); err != nil {
			b.Fatal(err)
		}
		outstanding++
	}
	for ; outstanding > 0; outstanding-- {
		<-r.done
	}
}

// BenchmarkDetacherArm is what the detacher costs a call run on the
// reader: arming and disarming, with its one timer already ticking.
func BenchmarkDetacherArm(b *testing.B) {
	var d detacher
	defer d.stop()
	detach := func() {}
	b.ReportAllocs()
	for b.Loop() {
		d.disarm(d.arm(detach))
	}
}

// BenchmarkDetacherTimerPerCall is what the detacher replaced: a timer
// reset and stopped around every call, which brings the runtime's
// deadline forward each time (a wake-up of the network poller).
func BenchmarkDetacherTimerPerCall(b *testing.B) {
	t := time.AfterFunc(time.Hour, func() {})
	defer t.Stop()
	b.ReportAllocs()
	for b.Loop() {
		t.Reset(detachAfter)
		t.Stop()
	}
}
