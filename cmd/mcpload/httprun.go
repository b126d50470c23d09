package main

import (
	"errors"
	"fmt"
	"sync"
	"sync/atomic"
	"time"
)

// runHTTP measures a Streamable HTTP server: the one at cfg.url, or the
// command cfg.argv, started and asked (on its stderr) for its URL. CPU and
// memory figures need the server's pid: mcpload knows it when it started
// the server, or from -pid.
func runHTTP(cfg config) (*Report, error) {
	rep := &Report{Name: cfg.name, Command: cfg.argv, Transport: "http", Era: cfg.era}
	url, pid := cfg.url, cfg.pid
	var srv *httpServer
	if url == "" {
		var err error
		srv, url, err = startHTTPServer(cfg.argv, cfg.stderr, cfg.timeout)
		if err != nil {
			return nil, fmt.Errorf("starting %s: %w", cfg.argv[0], err)
		}
		pid = srv.cmd.Process.Pid
	}
	rep.URL = url
	c := newHTTPClient(url, cfg.era == eraModern, cfg.depth, cfg.timeout)
	c.serverPID = pid
	abort := func(err error) (*Report, error) {
		c.endSession()
		if srv != nil {
			_, _, _ = srv.stop(time.Second)
		}
		return nil, err
	}
	var err error
	if rep.Server, err = c.handshake(); err != nil {
		return abort(err)
	}
	if err := warmUp(c, cfg.warmup); err != nil {
		return abort(err)
	}
	if cfg.phases["conc"] && cfg.warmup > 0 {
		// Open the connections of the concurrent phase before it starts.
		if w := runConcurrent(c, max(cfg.warmup, 4*cfg.depth), cfg.depth); w.Failures > 0 {
			return abort(fmt.Errorf("concurrent warm-up: %d calls failed; first: %s", w.Failures, w.FirstError))
		}
	}
	if cfg.phases["seq"] {
		rep.Sequential = rep.noteRate("sequential", runSequential(c, cfg.calls))
	}
	if cfg.phases["conc"] {
		rep.Concurrent = rep.noteRate("concurrent", runConcurrent(c, cfg.calls, cfg.depth))
	}
	if cfg.phases["big"] {
		rep.runBigs(c, cfg.bigSizes)
	}
	if st, err := readMemStatus(pid); pid > 0 && err == nil {
		rep.PeakRSSBytes = st.HWM
	}
	c.endSession()
	if srv != nil {
		took, killed, err := srv.stop(cfg.exitWait)
		rep.noteExit(took, killed, err, cfg.exitWait, "SIGTERM")
	}
	rep.noteAnomalies(&c.anom, "event-stream events", "request")
	return rep, nil
}

// runConcurrent makes n echo calls from conns goroutines at once, each
// making its calls one after another on a keep-alive connection of the
// client's connection pool (one connection per goroutine).
func runConcurrent(c *httpClient, n, conns int) *RateResult {
	res := &RateResult{Calls: n, Depth: conns}
	params := c.params(smallText)
	var (
		next    atomic.Int64
		stopped atomic.Bool
		mu      sync.Mutex // guards res and lat
		lat     = make([]time.Duration, 0, n)
		wg      sync.WaitGroup
	)
	cpu := startCPU(c.pid())
	start := time.Now()
	for range conns {
		wg.Add(1)
		go func() {
			defer wg.Done()
			mine := make([]time.Duration, 0, n/conns+1)
			defer func() {
				mu.Lock()
				lat = append(lat, mine...)
				mu.Unlock()
			}()
			for !stopped.Load() && next.Add(1) <= int64(n) {
				r, err := c.echo(params)
				if err == nil {
					err = checkEcho(r, smallText)
				}
				if err == nil {
					mine = append(mine, r.latency())
					continue
				}
				mu.Lock()
				res.fail(err)
				mu.Unlock()
				if fatal(err) {
					stopped.Store(true)
					return
				}
			}
		}()
	}
	wg.Wait()
	res.finish(time.Since(start), cpu.used(), lat)
	return res
}

// runBigs runs the big phase: one echo of each size.
func (r *Report) runBigs(c echoer, sizes []int) {
	for _, size := range sizes {
		b := runBig(c, size)
		r.Big = append(r.Big, b)
		if !b.OK {
			r.Failures++
			r.problem("echo of %s failed: %s", sizeText(int64(size)), b.Error)
		}
	}
}

// The eras of -era.
const (
	eraModern = "modern"
	eraLegacy = "legacy"
)

// errEra reports a bad -era value.
var errEra = errors.New("-era must be modern or legacy")
