package main

import (
	"fmt"
	"io"
	"math"
	"os"
	"slices"
	"strings"
	"text/tabwriter"

	json "github.com/goccy/go-json"
)

// Report holds every figure of one mcpload run; -json writes it as is.
type Report struct {
	Name    string   `json:"name"`
	Command []string `json:"command,omitempty"`
	// Transport is "stdio" or "http"; over HTTP, Era is "modern" or
	// "legacy" and URL the endpoint measured.
	Transport string     `json:"transport,omitempty"`
	Era       string     `json:"era,omitempty"`
	URL       string     `json:"url,omitempty"`
	Server    ServerInfo `json:"server"`
	// Sequential, Pipelined (stdio) and Concurrent (HTTP) are nil when
	// their phase was not run.
	Sequential *RateResult  `json:"sequential,omitempty"`
	Pipelined  *RateResult  `json:"pipelined,omitempty"`
	Concurrent *RateResult  `json:"concurrent,omitempty"`
	Big        []*BigResult `json:"big,omitempty"`
	// List (sequential tools/list), Spawn, Soak and Slow are nil when
	// their phase was not run.
	List  *RateResult   `json:"list,omitempty"`
	Spawn *SpawnResult  `json:"spawn,omitempty"`
	Soak  []*SoakResult `json:"soak,omitempty"`
	Slow  *SlowResult   `json:"slow,omitempty"`
	// PeakRSSBytes is VmHWM read after the last phase: the server's peak
	// resident set size over the whole run (0 when its pid is unknown).
	PeakRSSBytes int64      `json:"peak_rss_bytes"`
	Exit         ExitResult `json:"exit"`
	Anomalies    Anomalies  `json:"anomalies"`
	// Failures counts failed echo calls over all phases.
	Failures int `json:"failures"`
	// Problems lists what went wrong, in words; empty on a clean run.
	Problems []string `json:"problems,omitempty"`
}

// ServerInfo is what the server said about itself in the handshake.
type ServerInfo struct {
	Name            string  `json:"name"`
	Version         string  `json:"version"`
	ProtocolVersion string  `json:"protocol_version"`
	HandshakeUS     float64 `json:"handshake_us"`
	// Session is set when a legacy HTTP server sent an Mcp-Session-Id.
	Session bool `json:"session,omitempty"`
}

// RateResult holds the figures of the seq, pipe or conc phase. Latencies
// and the rate cover successful calls only; CPUUSPerCall is -1 when
// unreadable. Depth is the calls outstanding (pipe) or the connections
// (conc).
type RateResult struct {
	Calls        int     `json:"calls"`
	Depth        int     `json:"depth"`
	OK           int     `json:"ok"`
	Failures     int     `json:"failures"`
	FirstError   string  `json:"first_error,omitempty"`
	Seconds      float64 `json:"seconds"`
	CallsPerSec  float64 `json:"calls_per_sec"`
	P50US        float64 `json:"p50_us"`
	P99US        float64 `json:"p99_us"`
	CPUUSPerCall float64 `json:"cpu_us_per_call"`
}

// BigResult holds the figures of one big echo. PeakRSSBytes is the server's
// peak resident set size while the echo was in flight, PeakRSSRatio that
// peak divided by Bytes; RSSBeforeBytes is the resident set size just
// before the echo, so the peak minus it is what the echo cost.
type BigResult struct {
	Bytes          int     `json:"bytes"`
	OK             bool    `json:"ok"`
	Error          string  `json:"error,omitempty"`
	MS             float64 `json:"ms"`
	CPUMS          float64 `json:"cpu_ms"`
	RSSBeforeBytes int64   `json:"rss_before_bytes"`
	PeakRSSBytes   int64   `json:"peak_rss_bytes"`
	PeakRSSRatio   float64 `json:"peak_rss_ratio"`
}

// ExitResult describes how the server ended after its stdin was closed
// (stdio) or after SIGTERM (an HTTP server mcpload started).
type ExitResult struct {
	MS     float64 `json:"ms"`
	Killed bool    `json:"killed"`
	Error  string  `json:"error,omitempty"`
}

// Anomalies counts inbound messages that were not answers to our calls.
type Anomalies struct {
	BadLines       int64 `json:"bad_lines"`
	Unmatched      int64 `json:"unmatched"`
	ServerRequests int64 `json:"server_requests"`
	Notifications  int64 `json:"notifications"`
}

// largestBig returns the big echo with the most bytes, or nil.
func (r *Report) largestBig() *BigResult {
	var top *BigResult
	for _, b := range r.Big {
		if top == nil || b.Bytes > top.Bytes {
			top = b
		}
	}
	return top
}

// writeJSON writes r as one indented JSON object.
func writeJSON(w io.Writer, r *Report) error {
	b, err := json.MarshalIndent(r, "", "  ")
	if err != nil {
		return err
	}
	_, err = w.Write(append(b, '\n'))
	return err
}

// writeTable writes r for people to read.
func writeTable(w io.Writer, r *Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	fmt.Fprintf(tw, "server\t%s (%s %s, protocol %s)\n", r.Name, r.Server.Name, r.Server.Version, r.Server.ProtocolVersion)
	if r.Transport == "http" {
		session := ""
		if r.Server.Session {
			session = ", in a session"
		}
		fmt.Fprintf(tw, "endpoint\t%s (%s era%s)\n", r.URL, r.Era, session)
	}
	fmt.Fprintf(tw, "handshake\t%.0f µs\n", r.Server.HandshakeUS)
	for _, p := range []struct {
		label string
		res   *RateResult
	}{{"sequential (depth %d)", r.Sequential}, {"pipelined (depth %d)", r.Pipelined}, {"concurrent (%d connections)", r.Concurrent}} {
		if p.res == nil {
			continue
		}
		x := p.res
		fmt.Fprintf(tw, p.label+"\t%d/%d ok\t%.0f calls/s\tp50 %.1f µs\tp99 %.1f µs\tcpu %s µs/call\n",
			x.Depth, x.OK, x.Calls, x.CallsPerSec, x.P50US, x.P99US, cpuText(x.CPUUSPerCall))
	}
	for _, b := range r.Big {
		status := "ok"
		if !b.OK {
			status = "FAILED: " + b.Error
		}
		fmt.Fprintf(tw, "echo %s\t%s\t%.1f ms\tcpu %s ms\tpeak RSS %s (%.2fx message)\n",
			sizeText(int64(b.Bytes)), status, b.MS, cpuText(b.CPUMS), sizeText(b.PeakRSSBytes), b.PeakRSSRatio)
	}
	if x := r.List; x != nil {
		fmt.Fprintf(tw, "tools/list (sequential)\t%d/%d ok\tp50 %.1f µs\tp99 %.1f µs\n", x.OK, x.Calls, x.P50US, x.P99US)
	}
	if x := r.Spawn; x != nil {
		fmt.Fprintf(tw, "spawn → initialize reply\t%d processes\tp50 %.0f µs\tmin %.0f µs\n", x.Count, x.P50US, x.MinUS)
	}
	for _, x := range r.Soak {
		fmt.Fprintf(tw, "soak %s\tidle: RSS %s, goroutines %d\n", x.Mode, sizeText(x.Idle.RSSBytes), x.Idle.Goroutines)
		for _, p := range x.Samples {
			fmt.Fprintf(tw, "  after %d calls\tRSS %s\tgoroutines %d\t%.0f calls/s\tp50 %.1f µs\n", p.Calls, sizeText(p.RSSBytes), p.Goroutines, p.CallsPerSec, p.P50US)
		}
		if x.Settled != nil {
			fmt.Fprintf(tw, "  %v after the last call\tRSS %s\tgoroutines %d\n", soakSettle, sizeText(x.Settled.RSSBytes), x.Settled.Goroutines)
		}
	}
	if x := r.Slow; x != nil {
		fmt.Fprintf(tw, "slow (%d × %d ms at once)\tok %d\trefused %d (p50 %.1f ms, max %.1f ms)\tRSS %s → %s\t%.0f B per kept call\tgoroutines %d\tsent in %.0f ms, all in %.0f ms\n",
			x.Calls, x.SleepMS, x.OK, x.Refused, x.RefusedP50MS, x.RefusedMaxMS, sizeText(x.RSSBeforeBytes), sizeText(x.PeakRSSBytes), x.BytesPerCall, x.PeakGoroutines, x.SentMS, x.AllMS)
	}
	fmt.Fprintf(tw, "peak RSS (VmHWM)\t%s\n", sizeText(r.PeakRSSBytes))
	exit := fmt.Sprintf("%.1f ms", r.Exit.MS)
	if r.Exit.Killed {
		exit += " (killed)"
	}
	switch {
	case r.Transport != "http":
		fmt.Fprintf(tw, "exit after stdin close\t%s\n", exit)
	case len(r.Command) > 0:
		fmt.Fprintf(tw, "exit after SIGTERM\t%s\n", exit)
	}
	a := r.Anomalies
	if a != (Anomalies{}) {
		fmt.Fprintf(tw, "anomalies\tbad lines %d, unmatched %d, server requests %d, notifications %d\n",
			a.BadLines, a.Unmatched, a.ServerRequests, a.Notifications)
	}
	fmt.Fprintf(tw, "failures\t%d\n", r.Failures)
	for _, p := range r.Problems {
		fmt.Fprintf(tw, "PROBLEM\t%s\n", p)
	}
	return tw.Flush()
}

// cpuText formats a CPU figure, or "?" when it could not be read.
func cpuText(v float64) string {
	if v < 0 {
		return "?"
	}
	return fmt.Sprintf("%.1f", v)
}

// sizeText formats a byte count in KiB or MiB.
func sizeText(n int64) string {
	const kib, mib = 1 << 10, 1 << 20
	switch {
	case n >= mib:
		return fmt.Sprintf("%.1f MiB", float64(n)/mib)
	case n >= kib:
		return fmt.Sprintf("%.1f KiB", float64(n)/kib)
	}
	return fmt.Sprintf("%d B", n)
}

// readReport loads a report written with -json.
func readReport(path string) (*Report, error) {
	data, err := os.ReadFile(path)
	if err != nil {
		return nil, err
	}
	var r Report
	if err := json.Unmarshal(data, &r); err != nil {
		return nil, fmt.Errorf("%s: %w", path, err)
	}
	return &r, nil
}

// metric is one row of the comparison table.
type metric struct {
	label string
	// higherBetter tells the reader which way the ratio should point.
	higherBetter bool
	// get returns the figure and whether the report has it.
	get func(*Report) (float64, bool)
	// format renders the figure.
	format func(float64) string
}

// compareMetrics are the rows of the comparison table.
var compareMetrics = []metric{
	{"pipelined calls/s", true, rate((*Report).pipe, func(x *RateResult) float64 { return x.CallsPerSec }), fmtNum("%.0f")},
	{"pipelined p50 µs", false, rate((*Report).pipe, func(x *RateResult) float64 { return x.P50US }), fmtNum("%.1f")},
	{"pipelined p99 µs", false, rate((*Report).pipe, func(x *RateResult) float64 { return x.P99US }), fmtNum("%.1f")},
	{"concurrent calls/s", true, rate((*Report).conc, func(x *RateResult) float64 { return x.CallsPerSec }), fmtNum("%.0f")},
	{"concurrent p50 µs", false, rate((*Report).conc, func(x *RateResult) float64 { return x.P50US }), fmtNum("%.1f")},
	{"concurrent p99 µs", false, rate((*Report).conc, func(x *RateResult) float64 { return x.P99US }), fmtNum("%.1f")},
	{"sequential calls/s", true, rate((*Report).seq, func(x *RateResult) float64 { return x.CallsPerSec }), fmtNum("%.0f")},
	{"sequential p50 µs", false, rate((*Report).seq, func(x *RateResult) float64 { return x.P50US }), fmtNum("%.1f")},
	{"sequential p99 µs", false, rate((*Report).seq, func(x *RateResult) float64 { return x.P99US }), fmtNum("%.1f")},
	{"cpu µs/call (seq)", false, cpuRate((*Report).seq), fmtNum("%.1f")},
	{"cpu µs/call (pipe)", false, cpuRate((*Report).pipe), fmtNum("%.1f")},
	{"cpu µs/call (conc)", false, cpuRate((*Report).conc), fmtNum("%.1f")},
	{"tools/list p50 µs", false, rate(func(r *Report) *RateResult { return r.List }, func(x *RateResult) float64 { return x.P50US }), fmtNum("%.1f")},
	{"spawn → initialize µs", false, func(r *Report) (float64, bool) {
		return r.spawnP50(), r.Spawn != nil && r.Spawn.Error == "" && r.Spawn.P50US > 0
	}, fmtNum("%.0f")},
	{"largest echo ms", false, big(func(b *BigResult) float64 { return b.MS }), fmtNum("%.1f")},
	{"largest echo peak RSS", false, big(func(b *BigResult) float64 { return float64(b.PeakRSSBytes) }), func(v float64) string { return sizeText(int64(v)) }},
	{"  / message size", false, big(func(b *BigResult) float64 { return b.PeakRSSRatio }), fmtNum("%.2f")},
	{"  growth / message size", false, big(func(b *BigResult) float64 { return float64(b.PeakRSSBytes-b.RSSBeforeBytes) / float64(max(b.Bytes, 1)) }), fmtNum("%.2f")},
	{"peak RSS (VmHWM)", false, func(r *Report) (float64, bool) { return float64(r.PeakRSSBytes), r.PeakRSSBytes > 0 }, func(v float64) string { return sizeText(int64(v)) }},
	{"exit ms", false, func(r *Report) (float64, bool) { return r.Exit.MS, true }, fmtNum("%.1f")},
	{"failures", false, func(r *Report) (float64, bool) { return float64(r.Failures), true }, fmtNum("%.0f")},
}

func (r *Report) spawnP50() float64 {
	if r.Spawn == nil {
		return 0
	}
	return r.Spawn.P50US
}

func (r *Report) seq() *RateResult  { return r.Sequential }
func (r *Report) pipe() *RateResult { return r.Pipelined }
func (r *Report) conc() *RateResult { return r.Concurrent }

// rate reads a figure of a rate phase that has at least one successful call.
func rate(phase func(*Report) *RateResult, f func(*RateResult) float64) func(*Report) (float64, bool) {
	return func(r *Report) (float64, bool) {
		x := phase(r)
		if x == nil || x.OK == 0 {
			return 0, false
		}
		return f(x), true
	}
}

// cpuRate reads the CPU per call of a rate phase, when it was measured.
func cpuRate(phase func(*Report) *RateResult) func(*Report) (float64, bool) {
	return func(r *Report) (float64, bool) {
		x := phase(r)
		if x == nil || x.CPUUSPerCall < 0 {
			return 0, false
		}
		return x.CPUUSPerCall, true
	}
}

// big reads a figure of the largest echo, when it succeeded.
func big(f func(*BigResult) float64) func(*Report) (float64, bool) {
	return func(r *Report) (float64, bool) {
		b := r.largestBig()
		if b == nil || !b.OK {
			return 0, false
		}
		return f(b), true
	}
}

func fmtNum(format string) func(float64) string {
	return func(v float64) string { return fmt.Sprintf(format, v) }
}

// writeCompare prints the reports side by side, followed by the ratio of
// the first report's figure to each other report's figure.
func writeCompare(w io.Writer, reps []*Report) error {
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"metric", "better"}
	for _, r := range reps {
		head = append(head, r.Name)
	}
	for _, r := range reps[1:] {
		head = append(head, reps[0].Name+"/"+r.Name)
	}
	if b := reps[0].largestBig(); b != nil {
		fmt.Fprintf(w, "largest echo: %s\n", sizeText(int64(b.Bytes)))
	}
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, m := range compareMetrics {
		if !anyHas(m, reps) {
			continue // a phase none of the runs had
		}
		better := "lower"
		if m.higherBetter {
			better = "higher"
		}
		row := []string{m.label, better}
		for _, r := range reps {
			row = append(row, cell(m, r))
		}
		for _, r := range reps[1:] {
			row = append(row, ratioCell(m, reps[0], r))
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for _, r := range reps {
		for _, p := range r.Problems {
			fmt.Fprintf(w, "PROBLEM %s: %s\n", r.Name, p)
		}
	}
	return nil
}

// anyHas reports whether some report has the metric's figure.
func anyHas(m metric, reps []*Report) bool {
	for _, r := range reps {
		if _, ok := m.get(r); ok {
			return true
		}
	}
	return false
}

// cell formats one report's figure, or "-" when it is missing.
func cell(m metric, r *Report) string {
	v, ok := m.get(r)
	if !ok {
		return "-"
	}
	return m.format(v)
}

// ratioCell formats a/b for the metric, or "-" when either is missing or b
// is zero.
func ratioCell(m metric, a, b *Report) string {
	va, okA := m.get(a)
	vb, okB := m.get(b)
	if !okA || !okB || vb == 0 {
		return "-"
	}
	return fmt.Sprintf("%.2fx", va/vb)
}

// writeRounds prints reports of several rounds of the same servers: reps
// holds rounds groups, one after the other, each with one report of every
// server (matched by name to the first group's). For each metric it prints
// the median figure of each server, then the ratio of the first server's
// figure to each other one's in every round (paired: both from the same
// round) and the geometric mean of those ratios.
func writeRounds(w io.Writer, reps []*Report, rounds int) error {
	per := len(reps) / rounds
	first := reps[:per]
	groups := make([][]*Report, rounds) // groups[round][server], in first's order
	for i := range rounds {
		g := reps[i*per : (i+1)*per]
		groups[i] = make([]*Report, per)
		for j, want := range first {
			for _, r := range g {
				if r.Name == want.Name {
					groups[i][j] = r
				}
			}
			if groups[i][j] == nil {
				return fmt.Errorf("round %d has no report named %q", i+1, want.Name)
			}
		}
	}
	tw := tabwriter.NewWriter(w, 0, 0, 2, ' ', 0)
	head := []string{"metric", "better"}
	for _, r := range first {
		head = append(head, r.Name+" (median)")
	}
	for _, r := range first[1:] {
		for i := range rounds {
			head = append(head, fmt.Sprintf("%s/%s r%d", first[0].Name, r.Name, i+1))
		}
		head = append(head, "geomean")
	}
	fmt.Fprintf(w, "%d rounds; ratios are paired within a round\n", rounds)
	fmt.Fprintln(tw, strings.Join(head, "\t"))
	for _, m := range compareMetrics {
		if !anyHas(m, reps) {
			continue
		}
		better := "lower"
		if m.higherBetter {
			better = "higher"
		}
		row := []string{m.label, better}
		for j := range first {
			var vals []float64
			for i := range rounds {
				if v, ok := m.get(groups[i][j]); ok {
					vals = append(vals, v)
				}
			}
			if len(vals) == 0 {
				row = append(row, "-")
			} else {
				row = append(row, m.format(median(vals)))
			}
		}
		for j := 1; j < per; j++ {
			logSum, n := 0.0, 0
			for i := range rounds {
				a, okA := m.get(groups[i][0])
				b, okB := m.get(groups[i][j])
				if !okA || !okB || a <= 0 || b <= 0 {
					row = append(row, "-")
					continue
				}
				row = append(row, fmt.Sprintf("%.2fx", a/b))
				logSum += math.Log(a / b)
				n++
			}
			if n == 0 {
				row = append(row, "-")
			} else {
				row = append(row, fmt.Sprintf("%.2fx", math.Exp(logSum/float64(n))))
			}
		}
		fmt.Fprintln(tw, strings.Join(row, "\t"))
	}
	if err := tw.Flush(); err != nil {
		return err
	}
	for i, g := range groups {
		for _, r := range g {
			for _, p := range r.Problems {
				fmt.Fprintf(w, "PROBLEM %s, round %d: %s\n", r.Name, i+1, p)
			}
		}
	}
	return nil
}

// median returns the median of vals, which it sorts.
func median(vals []float64) float64 {
	slices.Sort(vals)
	n := len(vals)
	if n%2 == 1 {
		return vals[n/2]
	}
	return (vals[n/2-1] + vals[n/2]) / 2
}
