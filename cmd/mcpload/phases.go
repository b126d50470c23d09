package main

import (
	"errors"
	"fmt"
	"slices"
	"sync"
	"time"

	json "github.com/goccy/go-json"
)

// protocolVersion is the MCP revision mcpload asks for.
const protocolVersion = "2025-06-18"

// smallText is the argument of the echo calls in the seq and pipe phases.
const smallText = "hello"

// toolCall is the params object of tools/call for the echo tool.
type toolCall struct {
	Name      string   `json:"name"`
	Arguments echoArgs `json:"arguments"`
}

// echoArgs is the echo tool's arguments object.
type echoArgs struct {
	Text string `json:"text"`
}

// toolResult is the part of a tools/call result that the checks read.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	IsError bool `json:"isError"`
}

// echoParams encodes the tools/call params for echoing text.
func echoParams(text string) []byte {
	b, err := json.Marshal(toolCall{Name: "echo", Arguments: echoArgs{Text: text}})
	if err != nil {
		panic(err) // cannot happen for a struct of strings
	}
	return b
}

// checkEcho reports why r is not a successful echo of want, or nil.
func checkEcho(r reply, want string) error {
	if r.err != nil {
		return r.err
	}
	if r.resp.Error != nil {
		return r.resp.Error
	}
	var res toolResult
	if err := json.Unmarshal(r.resp.Result, &res); err != nil {
		return fmt.Errorf("decoding result: %w", err)
	}
	if len(res.Content) == 0 {
		return fmt.Errorf("result has no content (isError=%v)", res.IsError)
	}
	got := res.Content[0]
	switch {
	case res.IsError:
		return fmt.Errorf("isError result: %.200s", got.Text)
	case got.Type != "text":
		return fmt.Errorf("content[0] has type %q, want \"text\"", got.Type)
	case got.Text != want:
		return fmt.Errorf("integrity: got %d bytes, sent %d, first difference at byte %d",
			len(got.Text), len(want), firstDiff(got.Text, want))
	}
	return nil
}

// firstDiff is the index of the first byte where a and b differ.
func firstDiff(a, b string) int {
	n := min(len(a), len(b))
	for i := range n {
		if a[i] != b[i] {
			return i
		}
	}
	return n
}

// fatal reports whether err means no further call can succeed.
func fatal(err error) bool {
	return errors.Is(err, errServerGone) || errors.Is(err, errTimeout)
}

// handshake performs initialize and notifications/initialized.
func handshake(c *client, timeout time.Duration) (ServerInfo, error) {
	r, err := c.call("initialize", initializeParams(), timeout)
	if err != nil {
		return ServerInfo{}, fmt.Errorf("initialize: %w", err)
	}
	if r.resp.Error != nil {
		return ServerInfo{}, fmt.Errorf("initialize: %w", r.resp.Error)
	}
	info, err := initializeInfo(r.resp.Result)
	if err != nil {
		return ServerInfo{}, err
	}
	info.HandshakeUS = micros(r.latency())
	return info, c.notify("notifications/initialized", nil)
}

// initializeInfo reads the server's name, version and protocol version
// from an initialize result.
func initializeInfo(result json.RawMessage) (ServerInfo, error) {
	var res struct {
		ProtocolVersion string `json:"protocolVersion"`
		ServerInfo      struct {
			Name    string `json:"name"`
			Version string `json:"version"`
		} `json:"serverInfo"`
	}
	if err := json.Unmarshal(result, &res); err != nil {
		return ServerInfo{}, fmt.Errorf("initialize result: %w", err)
	}
	return ServerInfo{Name: res.ServerInfo.Name, Version: res.ServerInfo.Version, ProtocolVersion: res.ProtocolVersion}, nil
}

// echoer makes echo calls, over stdio or HTTP: the phases below are
// written against it.
type echoer interface {
	// params encodes the tools/call params that echo text.
	params(text string) []byte
	// echo makes one tools/call with params and waits for its reply.
	echo(params []byte) (reply, error)
	// pid is the server's process id, or 0 when it is not known.
	pid() int
}

// stdioEchoer makes the echo calls of a stdio client.
type stdioEchoer struct {
	c       *client
	timeout time.Duration
}

func (s stdioEchoer) params(text string) []byte { return echoParams(text) }
func (s stdioEchoer) pid() int                  { return s.c.pid() }
func (s stdioEchoer) echo(params []byte) (reply, error) {
	return s.c.call("tools/call", params, s.timeout)
}

// warmUp makes n sequential echo calls whose figures are discarded.
func warmUp(c echoer, n int) error {
	params := c.params(smallText)
	for range n {
		r, err := c.echo(params)
		if err == nil {
			err = checkEcho(r, smallText)
		}
		if err != nil {
			return fmt.Errorf("warm-up: %w", err)
		}
	}
	return nil
}

// cpuMeter measures the server's CPU time over a stretch of work.
type cpuMeter struct {
	pid   int
	start time.Duration
	ok    bool
}

func startCPU(pid int) cpuMeter {
	t, err := readCPUTime(pid)
	return cpuMeter{pid: pid, start: t, ok: err == nil}
}

// used is the CPU time spent since start, or -1 if it cannot be read.
func (m cpuMeter) used() time.Duration {
	t, err := readCPUTime(m.pid)
	if !m.ok || err != nil {
		return -1
	}
	return t - m.start
}

// runSequential makes n echo calls, one at a time.
func runSequential(c echoer, n int) *RateResult {
	params := c.params(smallText)
	return sequentially(c.pid(), n, func() (reply, error) {
		r, err := c.echo(params)
		if err == nil {
			err = checkEcho(r, smallText)
		}
		return r, err
	})
}

// sequentially makes n calls of call, one at a time, against the server
// of process pid (0 when not known), and measures them; a fatal error
// ends the run early.
func sequentially(pid, n int, call func() (reply, error)) *RateResult {
	res := &RateResult{Calls: n, Depth: 1}
	lat := make([]time.Duration, 0, n)
	cpu := startCPU(pid)
	start := time.Now()
	for range n {
		r, err := call()
		if err != nil {
			res.fail(err)
			if fatal(err) {
				break
			}
			continue
		}
		lat = append(lat, r.latency())
	}
	res.finish(time.Since(start), cpu.used(), lat)
	return res
}

// runPipelined makes n echo calls keeping up to depth outstanding.
func runPipelined(c *client, n, depth int, timeout time.Duration) *RateResult {
	res := &RateResult{Calls: n, Depth: depth}
	params := echoParams(smallText)
	var (
		mu        sync.Mutex // guards lat, res and abandoned against callbacks
		lat       = make([]time.Duration, 0, n)
		abandoned bool
		wg        sync.WaitGroup
	)
	slots := make(chan struct{}, depth)
	done := func(r reply) {
		err := checkEcho(r, smallText)
		mu.Lock()
		if !abandoned {
			if err != nil {
				res.fail(err)
			} else {
				lat = append(lat, r.latency())
			}
		}
		mu.Unlock()
		<-slots
		wg.Done()
	}
	deadline := time.NewTimer(timeout)
	defer deadline.Stop()
	cpu := startCPU(c.pid())
	start := time.Now()
	var stop error
	for i := 0; i < n && stop == nil; i++ {
		select {
		case slots <- struct{}{}:
		case <-deadline.C:
			stop = errTimeout
			continue
		}
		deadline.Reset(timeout)
		wg.Add(1)
		if err := c.send("tools/call", params, done); err != nil {
			<-slots
			wg.Done()
			stop = err
		}
	}
	if stop == nil && !waitTimeout(&wg, timeout) {
		stop = errTimeout
	}
	elapsed := time.Since(start)
	used := cpu.used()
	mu.Lock()
	defer mu.Unlock()
	abandoned = true
	if stop != nil {
		res.fail(stop)
	}
	res.finish(elapsed, used, lat)
	return res
}

// waitTimeout waits for wg, up to d; it reports whether wg finished.
func waitTimeout(wg *sync.WaitGroup, d time.Duration) bool {
	ch := make(chan struct{})
	go func() { wg.Wait(); close(ch) }()
	select {
	case <-ch:
		return true
	case <-time.After(d):
		return false
	}
}

// runBig echoes size bytes of text once, sampling the server's resident set
// size every millisecond meanwhile.
func runBig(c echoer, size int) *BigResult {
	res := &BigResult{Bytes: size}
	text := bigText(size)
	params := c.params(text)
	pid := c.pid()
	rss := watchRSS(pid)
	res.RSSBeforeBytes = rss.before.RSS
	cpu := startCPU(pid)
	r, err := c.echo(params)
	res.CPUMS = -1
	if used := cpu.used(); used >= 0 {
		res.CPUMS = millis(used)
	}
	peak := rss.end()
	after, _ := readMemStatus(pid)
	if after.HWM > rss.before.HWM {
		// A new high-water mark was set during this echo, so it is exact.
		peak = max(peak, after.HWM)
	}
	res.PeakRSSBytes = peak
	if size > 0 {
		res.PeakRSSRatio = float64(peak) / float64(size)
	}
	if err == nil {
		res.MS = millis(r.latency())
		err = checkEcho(r, text)
	}
	if err != nil {
		res.Error = err.Error()
		return res
	}
	res.OK = true
	return res
}

// rssWatch samples a server's resident set size while a phase runs.
type rssWatch struct {
	before memStatus // read when the watch started
	stop   chan struct{}
	peak   chan int64
}

// watchRSS reads the memory status of pid, then samples its VmRSS every
// millisecond until end.
func watchRSS(pid int) *rssWatch {
	before, _ := readMemStatus(pid)
	w := &rssWatch{before: before, stop: make(chan struct{}), peak: make(chan int64)}
	go sampleRSS(pid, w.stop, w.peak)
	return w
}

// end stops the sampling and returns the largest VmRSS seen.
func (w *rssWatch) end() int64 {
	close(w.stop)
	return <-w.peak
}

// sampleRSS reads VmRSS of pid every millisecond until stop is closed, then
// sends the largest value seen.
func sampleRSS(pid int, stop <-chan struct{}, peak chan<- int64) {
	var top int64
	t := time.NewTicker(time.Millisecond)
	defer t.Stop()
	for {
		if st, err := readMemStatus(pid); err == nil {
			top = max(top, st.RSS)
		}
		select {
		case <-stop:
			peak <- top
			return
		case <-t.C:
		}
	}
}

// textAlphabet holds 64 printable ASCII characters that JSON encoders leave
// unescaped, so the wire size of a big echo stays close to its text size.
const textAlphabet = "ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789 ."

// bigText returns size bytes of deterministic pseudo-random text.
func bigText(size int) string {
	b := make([]byte, size)
	x := uint64(0x9E3779B97F4A7C15) ^ uint64(size)
	for i := range b {
		x ^= x << 13 // xorshift64
		x ^= x >> 7
		x ^= x << 17
		b[i] = textAlphabet[x&63]
	}
	return string(b)
}

// percentile returns the p-th percentile (0 < p <= 1) of sorted values by
// the nearest-rank method.
func percentile(sorted []time.Duration, p float64) time.Duration {
	if len(sorted) == 0 {
		return 0
	}
	rank := int(p*float64(len(sorted)) + 0.5)
	rank = min(max(rank, 1), len(sorted))
	return sorted[rank-1]
}

// finish fills in the timing figures of a rate phase.
func (r *RateResult) finish(elapsed, cpu time.Duration, lat []time.Duration) {
	slices.Sort(lat)
	r.OK = len(lat)
	r.Seconds = elapsed.Seconds()
	if elapsed > 0 {
		r.CallsPerSec = float64(len(lat)) / elapsed.Seconds()
	}
	r.P50US = micros(percentile(lat, 0.50))
	r.P99US = micros(percentile(lat, 0.99))
	r.CPUUSPerCall = -1
	if cpu >= 0 && r.Calls > 0 {
		r.CPUUSPerCall = micros(cpu) / float64(r.Calls)
	}
}

// fail records a failed call.
func (r *RateResult) fail(err error) {
	r.Failures++
	if r.FirstError == "" {
		r.FirstError = err.Error()
	}
}

func micros(d time.Duration) float64 { return float64(d) / float64(time.Microsecond) }
func millis(d time.Duration) float64 { return float64(d) / float64(time.Millisecond) }
