package main

import (
	"context"
	"fmt"
	"runtime"
	"slices"
	"sync"
	"syscall"
	"time"
)

// plan is what one measurement does.
type plan struct {
	warmup     int    // calls before anything is measured
	sequential int    // calls one after the other
	concurrent int    // calls spread over workers goroutines
	workers    int    // goroutines of the concurrent phase
	text       string // the echo tool's argument
}

// figures are one client's results in one round over one transport.
type figures struct {
	revision string
	seqP50   time.Duration // sequential call latency, median
	seqRate  float64       // sequential calls per second
	concRate float64       // concurrent calls per second
	concP50  time.Duration // concurrent call latency, median
	allocs   float64       // heap allocations per sequential call
	bytes    float64       // heap bytes allocated per sequential call
	cpuSeq   time.Duration // client process CPU per sequential call
	cpuConc  time.Duration // client process CPU per concurrent call
}

// usage is a snapshot of the client process's allocations and CPU time.
type usage struct {
	mallocs, bytes uint64
	cpu            time.Duration
}

// snapshot collects garbage first, so that a phase starts with a clean
// heap, then reads the counters.
func snapshot() usage {
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	var ru syscall.Rusage
	_ = syscall.Getrusage(syscall.RUSAGE_SELF, &ru)
	return usage{mallocs: ms.Mallocs, bytes: ms.TotalAlloc,
		cpu: time.Duration(ru.Utime.Nano() + ru.Stime.Nano())}
}

// measure connects lib to t and runs the phases of p.
func measure(ctx context.Context, lib library, t target, p plan) (figures, error) {
	var f figures
	s, err := lib.connect(ctx, t)
	if err != nil {
		return f, fmt.Errorf("connect: %w", err)
	}
	defer s.close()
	f.revision = s.revision()
	args := map[string]any{"text": p.text}
	for range p.warmup {
		if err := s.echo(ctx, args, p.text); err != nil {
			return f, fmt.Errorf("warm-up: %w", err)
		}
	}

	lat := make([]time.Duration, p.sequential)
	before := snapshot()
	start := time.Now()
	for i := range lat {
		t0 := time.Now()
		if err := s.echo(ctx, args, p.text); err != nil {
			return f, fmt.Errorf("sequential call %d: %w", i, err)
		}
		lat[i] = time.Since(t0)
	}
	elapsed := time.Since(start)
	after := snapshot()
	n := float64(p.sequential)
	f.seqP50 = median(lat)
	f.seqRate = n / elapsed.Seconds()
	f.allocs = float64(after.mallocs-before.mallocs) / n
	f.bytes = float64(after.bytes-before.bytes) / n
	f.cpuSeq = (after.cpu - before.cpu) / time.Duration(p.sequential)

	per := p.concurrent / p.workers
	lats := make([][]time.Duration, p.workers)
	errs := make([]error, p.workers)
	for w := range lats {
		lats[w] = make([]time.Duration, per)
	}
	before = snapshot()
	start = time.Now()
	var wg sync.WaitGroup
	for w := range p.workers {
		wg.Go(func() {
			for i := range lats[w] {
				t0 := time.Now()
				if err := s.echo(ctx, args, p.text); err != nil {
					errs[w] = fmt.Errorf("concurrent call: %w", err)
					return
				}
				lats[w][i] = time.Since(t0)
			}
		})
	}
	wg.Wait()
	elapsed = time.Since(start)
	after = snapshot()
	for _, err := range errs {
		if err != nil {
			return f, err
		}
	}
	total := per * p.workers
	f.concRate = float64(total) / elapsed.Seconds()
	f.concP50 = median(slices.Concat(lats...))
	f.cpuConc = (after.cpu - before.cpu) / time.Duration(total)
	return f, nil
}

// median returns the median of d, which it sorts.
func median(d []time.Duration) time.Duration {
	if len(d) == 0 {
		return 0
	}
	slices.Sort(d)
	return d[len(d)/2]
}
