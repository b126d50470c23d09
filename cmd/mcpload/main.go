package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"time"
)

// config holds the settings of one load run.
type config struct {
	name     string
	argv     []string
	calls    int
	depth    int
	warmup   int
	phases   map[string]bool
	bigSizes []int
	timeout  time.Duration
	exitWait time.Duration
	stderr   io.Writer
}

// slowExit is how long a server may take to exit before it is flagged.
const slowExit = 2 * time.Second

func main() {
	os.Exit(mainErr(os.Args[1:], os.Stdout, os.Stderr))
}

// mainErr runs mcpload with args and returns the exit status.
func mainErr(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("mcpload", flag.ContinueOnError)
	fs.SetOutput(stderr)
	fs.Usage = func() {
		fmt.Fprintln(stderr, "usage: mcpload [flags] -- <server command and args>")
		fmt.Fprintln(stderr, "       mcpload -compare subject.json other.json ...")
		fs.PrintDefaults()
	}
	var (
		cfg        config
		phases     = fs.String("phases", "seq,pipe,big", "comma-separated phases to run: seq, pipe, big")
		bigSizes   = fs.String("big-sizes", "1MiB,8MiB", "comma-separated text sizes for the big phase (suffix KiB or MiB allowed)")
		stderrPath = fs.String("stderr", "", "file for the server's stderr (default: mcpload's stderr)")
		asJSON     = fs.Bool("json", false, "write one JSON object instead of a table")
		compare    = fs.Bool("compare", false, "print the -json reports named as arguments side by side")
	)
	fs.StringVar(&cfg.name, "name", "", "label for this server in reports (default: the command's base name)")
	fs.IntVar(&cfg.calls, "n", 20000, "calls in each of the seq and pipe phases")
	fs.IntVar(&cfg.depth, "depth", 64, "outstanding calls in the pipe phase")
	fs.IntVar(&cfg.warmup, "warmup", 500, "unmeasured sequential calls before the phases")
	fs.DurationVar(&cfg.timeout, "timeout", 60*time.Second, "longest wait for any one response")
	fs.DurationVar(&cfg.exitWait, "exit-wait", 10*time.Second, "how long to wait for the server to exit before killing it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *compare {
		return runCompare(fs.Args(), stdout, stderr)
	}
	var err error
	if cfg.phases, err = parsePhases(*phases); err == nil {
		cfg.bigSizes, err = parseSizes(*bigSizes)
	}
	if err == nil && (cfg.calls < 1 || cfg.depth < 1 || cfg.warmup < 0) {
		err = errors.New("-n and -depth must be positive, -warmup not negative")
	}
	if err == nil && fs.NArg() == 0 {
		err = errors.New("no server command given")
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpload:", err)
		fs.Usage()
		return 2
	}
	cfg.argv = fs.Args()
	if cfg.name == "" {
		cfg.name = filepath.Base(cfg.argv[0])
	}
	cfg.stderr = stderr
	if *stderrPath != "" {
		f, err := os.Create(*stderrPath)
		if err != nil {
			fmt.Fprintln(stderr, "mcpload:", err)
			return 2
		}
		defer f.Close()
		cfg.stderr = f
	}
	rep, err := run(cfg)
	if err != nil {
		fmt.Fprintln(stderr, "mcpload:", err)
		return 2
	}
	if *asJSON {
		err = writeJSON(stdout, rep)
	} else {
		err = writeTable(stdout, rep)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpload:", err)
		return 2
	}
	if rep.Failures > 0 || len(rep.Problems) > 0 {
		return 1
	}
	return 0
}

// runCompare prints the reports in paths side by side.
func runCompare(paths []string, stdout, stderr io.Writer) int {
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "mcpload: -compare needs at least one report file")
		return 2
	}
	reps := make([]*Report, 0, len(paths))
	for _, p := range paths {
		r, err := readReport(p)
		if err != nil {
			fmt.Fprintln(stderr, "mcpload:", err)
			return 2
		}
		reps = append(reps, r)
	}
	if err := writeCompare(stdout, reps); err != nil {
		fmt.Fprintln(stderr, "mcpload:", err)
		return 2
	}
	return 0
}

// parsePhases parses the -phases list.
func parsePhases(s string) (map[string]bool, error) {
	m := make(map[string]bool)
	for p := range strings.SplitSeq(s, ",") {
		p = strings.TrimSpace(p)
		switch p {
		case "seq", "pipe", "big":
			m[p] = true
		case "":
		default:
			return nil, fmt.Errorf("unknown phase %q (want seq, pipe or big)", p)
		}
	}
	return m, nil
}

// parseSizes parses the -big-sizes list, such as "1MiB,8MiB,4096".
func parseSizes(s string) ([]int, error) {
	var sizes []int
	for f := range strings.SplitSeq(s, ",") {
		f = strings.TrimSpace(f)
		if f == "" {
			continue
		}
		mult := 1
		if num, ok := strings.CutSuffix(f, "MiB"); ok {
			f, mult = num, 1<<20
		} else if num, ok := strings.CutSuffix(f, "KiB"); ok {
			f, mult = num, 1<<10
		}
		n, err := strconv.Atoi(f)
		if err != nil || n < 0 {
			return nil, fmt.Errorf("bad size %q", f)
		}
		sizes = append(sizes, n*mult)
	}
	return sizes, nil
}

// run starts the server, measures it and returns the report. An error means
// the run could not start or the handshake failed; later failures are
// recorded in the report.
func run(cfg config) (*Report, error) {
	c, err := startClient(cfg.argv, cfg.stderr)
	if err != nil {
		return nil, fmt.Errorf("starting %s: %w", cfg.argv[0], err)
	}
	rep := &Report{Name: cfg.name, Command: cfg.argv}
	rep.Server, err = handshake(c, cfg.timeout)
	if err == nil {
		err = warmUp(c, cfg.warmup, cfg.timeout)
	}
	if err != nil {
		_, _, _ = c.closeAndWait(time.Second)
		return nil, err
	}
	if cfg.phases["seq"] {
		rep.Sequential = runSequential(c, cfg.calls, cfg.timeout)
		rep.noteRate("sequential", rep.Sequential)
	}
	if cfg.phases["pipe"] {
		rep.Pipelined = runPipelined(c, cfg.calls, cfg.depth, cfg.timeout)
		rep.noteRate("pipelined", rep.Pipelined)
	}
	if cfg.phases["big"] {
		for _, size := range cfg.bigSizes {
			b := runBig(c, size, cfg.timeout)
			rep.Big = append(rep.Big, b)
			if !b.OK {
				rep.Failures++
				rep.problem("echo of %s failed: %s", sizeText(int64(size)), b.Error)
			}
		}
	}
	if st, err := readMemStatus(c.pid()); err == nil {
		rep.PeakRSSBytes = st.HWM
	}
	rep.finish(c, cfg.exitWait)
	return rep, nil
}

// finish closes the server's stdin, times its exit and records anomalies.
func (r *Report) finish(c *client, exitWait time.Duration) {
	took, killed, err := c.closeAndWait(exitWait)
	r.Exit = ExitResult{MS: millis(took), Killed: killed}
	if err != nil {
		r.Exit.Error = err.Error()
	}
	switch {
	case killed:
		r.problem("server did not exit within %v of stdin closing and was killed", exitWait)
	case took > slowExit:
		r.problem("server took %v to exit after stdin closed (more than %v)", took.Round(time.Millisecond), slowExit)
	}
	r.Anomalies = Anomalies{
		BadLines:       c.anom.badLines.Load(),
		Unmatched:      c.anom.unmatched.Load(),
		ServerRequests: c.anom.serverRequests.Load(),
		Notifications:  c.anom.notifications.Load(),
	}
	if n := r.Anomalies.BadLines; n > 0 {
		r.problem("%d stdout lines were not JSON-RPC messages", n)
	}
	if n := r.Anomalies.Unmatched; n > 0 {
		r.problem("%d responses matched no outstanding request", n)
	}
}

// noteRate adds a rate phase's failures to the report.
func (r *Report) noteRate(label string, x *RateResult) {
	if x.Failures == 0 {
		return
	}
	r.Failures += x.Failures
	r.problem("%s: %d of %d calls failed; first: %s", label, x.Failures, x.Calls, x.FirstError)
}

// problem records a problem in words.
func (r *Report) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}
