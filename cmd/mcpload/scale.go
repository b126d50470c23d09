package main

import (
	"fmt"
	"os"
	"slices"
	"strconv"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"
)

// SpawnResult holds the figures of the spawn phase: the time from starting
// the server's process to reading its initialize reply, over Count fresh
// processes.
type SpawnResult struct {
	Count int     `json:"count"`
	P50US float64 `json:"p50_us"`
	MinUS float64 `json:"min_us"`
	Error string  `json:"error,omitempty"`
}

// runSpawn starts the server count times, each time timing the handshake
// from the moment before the process is started, and closes it again.
func runSpawn(cfg config, count int) *SpawnResult {
	res := &SpawnResult{Count: count}
	var lat []time.Duration
	for range count {
		start := time.Now()
		c, err := startClient(cfg.argv, cfg.stderr)
		if err == nil {
			var r reply
			r, err = c.call("initialize", initializeParams(), cfg.timeout)
			if err == nil && r.resp.Error != nil {
				err = r.resp.Error
			}
			if err == nil {
				lat = append(lat, r.recv.Sub(start))
			}
			_, _, _ = c.closeAndWait(cfg.exitWait)
		}
		if err != nil {
			res.Error = err.Error()
			return res
		}
	}
	slices.Sort(lat)
	res.P50US = micros(percentile(lat, 0.5))
	res.MinUS = micros(lat[0])
	return res
}

// runList makes n sequential tools/list calls and checks that each lists
// the echo tool.
func runList(c *client, n int, timeout time.Duration) *RateResult {
	return sequentially(c.pid(), n, func() (reply, error) {
		r, err := c.call("tools/list", []byte("{}"), timeout)
		if err == nil {
			err = checkList(r)
		}
		return r, err
	})
}

// checkList reports why r is not a tools/list result naming echo.
func checkList(r reply) error {
	if r.resp.Error != nil {
		return r.resp.Error
	}
	var res struct {
		Tools []struct {
			Name string `json:"name"`
		} `json:"tools"`
	}
	if err := json.Unmarshal(r.resp.Result, &res); err != nil {
		return fmt.Errorf("decoding tools/list result: %w", err)
	}
	for _, t := range res.Tools {
		if t.Name == "echo" {
			return nil
		}
	}
	return fmt.Errorf("tools/list has no echo tool (%d tools)", len(res.Tools))
}

// SoakSample is one point of a soak curve, taken after Calls calls.
type SoakSample struct {
	Calls       int     `json:"calls"`
	RSSBytes    int64   `json:"rss_bytes"`
	Goroutines  int     `json:"goroutines"` // -1 when the server gives no -stats file
	CallsPerSec float64 `json:"calls_per_sec"`
	P50US       float64 `json:"p50_us"`
}

// SoakResult is the curve of one soak: Mode is "sequential" or
// "pipelined"; Idle is the sample taken before the first call.
type SoakResult struct {
	Mode     string       `json:"mode"`
	Calls    int          `json:"calls"`
	Failures int          `json:"failures"`
	Idle     SoakSample   `json:"idle"`
	Samples  []SoakSample `json:"samples"`
	// Settled is the sample taken soakSettle after the last call: what
	// the server holds once the load is over.
	Settled *SoakSample `json:"settled,omitempty"`
}

// soakSettle is how long a soak waits after its last call before the
// settled sample: longer than an mcpwire server's workers wait for a job
// before they end (2 s).
const soakSettle = 3 * time.Second

// runSoak makes n calls in batches of every, sequentially or with depth
// outstanding, sampling the server's VmRSS and (from statsFile) its
// goroutine count after each batch, once the batch's calls are answered.
func runSoak(c *client, e echoer, mode string, n, every, depth int, statsFile string, timeout time.Duration) *SoakResult {
	res := &SoakResult{Mode: mode, Calls: n, Idle: sample(c.pid(), 0, statsFile)}
	for done := 0; done < n; {
		batch := min(every, n-done)
		var x *RateResult
		if mode == "pipelined" {
			x = runPipelined(c, batch, depth, timeout)
		} else {
			x = runSequential(e, batch)
		}
		done += batch
		res.Failures += x.Failures
		s := sample(c.pid(), done, statsFile)
		s.CallsPerSec, s.P50US = x.CallsPerSec, x.P50US
		res.Samples = append(res.Samples, s)
		if x.OK == 0 {
			break
		}
	}
	time.Sleep(soakSettle)
	settled := sample(c.pid(), n, statsFile)
	res.Settled = &settled
	return res
}

// sample reads the server's VmRSS and its goroutine count. The count
// comes from statsFile, which the server rewrites every few milliseconds
// (bench/mcpwireecho -stats); sample waits for a rewrite newer than now,
// so that the count is one taken after the batch ended.
func sample(pid, calls int, statsFile string) SoakSample {
	s := SoakSample{Calls: calls, Goroutines: -1}
	if statsFile != "" {
		s.Goroutines = readGoroutines(statsFile, time.Now())
	}
	if st, err := readMemStatus(pid); err == nil {
		s.RSSBytes = st.RSS
	}
	return s
}

// readGoroutines waits up to a second for statsFile to be written after
// since and returns its goroutines= figure, or -1.
func readGoroutines(statsFile string, since time.Time) int {
	for deadline := time.Now().Add(time.Second); time.Now().Before(deadline); time.Sleep(5 * time.Millisecond) {
		fi, err := os.Stat(statsFile)
		if err != nil || !fi.ModTime().After(since) {
			continue
		}
		data, err := os.ReadFile(statsFile)
		if err != nil {
			continue
		}
		for f := range strings.FieldsSeq(string(data)) {
			if v, ok := strings.CutPrefix(f, "goroutines="); ok {
				if n, err := strconv.Atoi(v); err == nil {
					return n
				}
			}
		}
	}
	return -1
}

// SlowResult holds the figures of the slow phase: Calls calls of the slow
// tool sent at once on the one connection.
type SlowResult struct {
	Calls    int `json:"calls"`
	SleepMS  int `json:"sleep_ms"`
	OK       int `json:"ok"`
	Refused  int `json:"refused"` // answered "server overloaded"
	Failures int `json:"failures"`
	// RefusedMaxMS is the longest time from sending a refused call to its
	// error; RefusedP50MS the median.
	RefusedP50MS float64 `json:"refused_p50_ms"`
	RefusedMaxMS float64 `json:"refused_max_ms"`
	// SentMS is how long writing all the requests took; AllMS until the
	// last reply.
	SentMS float64 `json:"sent_ms"`
	AllMS  float64 `json:"all_ms"`
	// RSS: before the calls, and the peak while they were queued.
	RSSBeforeBytes int64 `json:"rss_before_bytes"`
	PeakRSSBytes   int64 `json:"peak_rss_bytes"`
	// PeakGoroutines is the server's goroutine count once every call was
	// sent (-1 without -stats).
	PeakGoroutines int `json:"peak_goroutines"`
	// BytesPerCall is the RSS growth divided by the calls not refused.
	BytesPerCall float64 `json:"bytes_per_call"`
	FirstError   string  `json:"first_error,omitempty"`
}

// runSlow sends n calls of the server's slow tool ({"ms": sleep}) without
// waiting, and waits for every reply.
func runSlow(c *client, n, sleep int, statsFile string, timeout time.Duration) *SlowResult {
	res := &SlowResult{Calls: n, SleepMS: sleep, PeakGoroutines: -1}
	params := fmt.Appendf(nil, `{"name":"slow","arguments":{"ms":%d}}`, sleep)
	pid := c.pid()
	rss := watchRSS(pid)
	res.RSSBeforeBytes = rss.before.RSS
	var (
		mu      sync.Mutex
		wg      sync.WaitGroup
		refused []time.Duration
	)
	done := func(r reply) {
		defer wg.Done()
		mu.Lock()
		defer mu.Unlock()
		switch {
		case r.err != nil:
			res.Failures++
			res.FirstError = firstOf(res.FirstError, r.err.Error())
		case r.resp.Error != nil && strings.Contains(r.resp.Error.Message, "overloaded"):
			res.Refused++
			refused = append(refused, r.latency())
		case r.resp.Error != nil:
			res.Failures++
			res.FirstError = firstOf(res.FirstError, r.resp.Error.Error())
		default:
			res.OK++
		}
	}
	start := time.Now()
	for range n {
		wg.Add(1)
		if err := c.send("tools/call", params, done); err != nil {
			wg.Done()
			res.Failures++
			res.FirstError = firstOf(res.FirstError, err.Error())
			break
		}
	}
	res.SentMS = millis(time.Since(start))
	if statsFile != "" {
		res.PeakGoroutines = readGoroutines(statsFile, time.Now())
	}
	if !waitTimeout(&wg, timeout) {
		mu.Lock()
		res.Failures = n - res.OK - res.Refused // unanswered count as failed
		res.FirstError = firstOf(res.FirstError, errTimeout.Error())
		mu.Unlock()
	}
	res.AllMS = millis(time.Since(start))
	res.PeakRSSBytes = rss.end()
	mu.Lock()
	defer mu.Unlock()
	slices.Sort(refused)
	res.RefusedP50MS = millis(percentile(refused, 0.5))
	if len(refused) > 0 {
		res.RefusedMaxMS = millis(refused[len(refused)-1])
	}
	if kept := n - res.Refused; kept > 0 {
		res.BytesPerCall = float64(res.PeakRSSBytes-res.RSSBeforeBytes) / float64(kept)
	}
	return res
}

func firstOf(a, b string) string {
	if a != "" {
		return a
	}
	return b
}

// initializeParams are the params of mcpload's initialize request.
func initializeParams() []byte {
	return fmt.Appendf(nil, `{"protocolVersion":%q,"capabilities":{},"clientInfo":{"name":"mcpload","version":"0"}}`, protocolVersion)
}
