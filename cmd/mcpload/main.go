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
	// Streamable HTTP: httpMode starts argv and reads its URL from its
	// stderr; url measures a server already running (pid, when set, is its
	// process for the CPU and memory figures).
	httpMode bool
	url      string
	pid      int
	era      string
	// The spawn, list, soak and slow phases (stdio only).
	spawns    int
	listCalls int
	soakCalls int
	soakEvery int
	slowCalls int
	slowMS    int
	statsFile string
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
		fmt.Fprintln(stderr, "       mcpload -http [flags] -- <HTTP server command that prints its URL on stderr>")
		fmt.Fprintln(stderr, "       mcpload -url http://HOST:PORT/mcp [-pid PID] [flags]")
		fmt.Fprintln(stderr, "       mcpload -compare [-rounds N] subject.json other.json ...")
		fs.PrintDefaults()
	}
	var (
		cfg        config
		phases     = fs.String("phases", "", "comma-separated phases to run: seq, pipe, list, spawn, soak, slow (stdio), conc (HTTP), big (default seq,pipe,big on stdio, seq,conc over HTTP)")
		bigSizes   = fs.String("big-sizes", "1MiB,8MiB", "comma-separated text sizes for the big phase (suffix KiB or MiB allowed)")
		stderrPath = fs.String("stderr", "", "file for the server's stderr (default: mcpload's stderr)")
		asJSON     = fs.Bool("json", false, "write one JSON object instead of a table")
		compare    = fs.Bool("compare", false, "print the -json reports named as arguments side by side")
		rounds     = fs.Int("rounds", 1, "with -compare: the reports are this many rounds of the same servers; print each round's ratios and their geometric mean")
	)
	fs.BoolVar(&cfg.httpMode, "http", false, "the command serves Streamable HTTP and prints its URL (http://...) on stderr")
	fs.StringVar(&cfg.url, "url", "", "measure the Streamable HTTP endpoint at this http:// URL, already running (https is not supported)")
	fs.IntVar(&cfg.pid, "pid", 0, "with -url: the server's process id, for its CPU and memory figures")
	fs.StringVar(&cfg.era, "era", eraModern, "over HTTP: modern (2026-07-28, stateless POSTs) or legacy (initialize, then POSTs in its session)")
	fs.StringVar(&cfg.name, "name", "", "label for this server in reports (default: the command's base name)")
	fs.IntVar(&cfg.calls, "n", 20000, "calls in each of the seq and pipe phases")
	fs.IntVar(&cfg.depth, "depth", 64, "outstanding calls in the pipe phase; connections (concurrent callers) in the conc phase")
	fs.IntVar(&cfg.warmup, "warmup", 500, "unmeasured sequential calls before the phases")
	fs.DurationVar(&cfg.timeout, "timeout", 60*time.Second, "longest wait for any one response")
	fs.IntVar(&cfg.spawns, "spawns", 10, "spawn phase: fresh processes started, each timed from start to its initialize reply")
	fs.IntVar(&cfg.listCalls, "list-n", 5000, "list phase: sequential tools/list calls")
	fs.IntVar(&cfg.soakCalls, "soak-n", 1000000, "soak phase: calls in each of the sequential and the pipelined soak")
	fs.IntVar(&cfg.soakEvery, "soak-every", 100000, "soak phase: calls between two samples of RSS and goroutines")
	fs.IntVar(&cfg.slowCalls, "slow-n", 10000, "slow phase: calls of the server's slow tool sent at once")
	fs.IntVar(&cfg.slowMS, "slow-ms", 2000, "slow phase: how long each slow call sleeps, in milliseconds")
	fs.StringVar(&cfg.statsFile, "stats", "", "soak and slow phases: a file the server rewrites with \"goroutines=N\" (bench/mcpwireecho -stats)")
	fs.DurationVar(&cfg.exitWait, "exit-wait", 10*time.Second, "how long to wait for the server to exit before killing it")
	if err := fs.Parse(args); err != nil {
		return 2
	}
	if *compare {
		return runCompare(fs.Args(), *rounds, stdout, stderr)
	}
	overHTTP := cfg.httpMode || cfg.url != ""
	if *phases == "" {
		*phases = "seq,pipe,big"
		if overHTTP {
			*phases = "seq,conc"
		}
	}
	var err error
	if cfg.phases, err = parsePhases(*phases); err == nil {
		cfg.bigSizes, err = parseSizes(*bigSizes)
	}
	switch {
	case err != nil:
	case cfg.calls < 1 || cfg.depth < 1 || cfg.warmup < 0:
		err = errors.New("-n and -depth must be positive, -warmup not negative")
	case cfg.spawns < 1 || cfg.listCalls < 1 || cfg.soakCalls < 1 || cfg.soakEvery < 1 || cfg.slowCalls < 1 || cfg.slowMS < 0:
		err = errors.New("-spawns, -list-n, -soak-n, -soak-every and -slow-n must be positive, -slow-ms not negative")
	case overHTTP && (cfg.phases["list"] || cfg.phases["spawn"] || cfg.phases["soak"] || cfg.phases["slow"]):
		err = errors.New("the list, spawn, soak and slow phases are stdio's")
	case cfg.httpMode && cfg.url != "":
		err = errors.New("-http starts a server, -url names a running one: give one of them")
	case cfg.url != "" && fs.NArg() > 0:
		err = errors.New("-url measures a running server: no command is started")
	case cfg.url == "" && fs.NArg() == 0:
		err = errors.New("no server command given")
	case overHTTP && cfg.phases["pipe"]:
		err = errors.New("the pipe phase is stdio's; over HTTP use conc")
	case !overHTTP && cfg.phases["conc"]:
		err = errors.New("the conc phase is HTTP's; on stdio use pipe")
	case overHTTP && cfg.era != eraModern && cfg.era != eraLegacy:
		err = errEra
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpload:", err)
		fs.Usage()
		return 2
	}
	cfg.argv = fs.Args()
	if cfg.name == "" {
		if cfg.url != "" {
			cfg.name = cfg.url
		} else {
			cfg.name = filepath.Base(cfg.argv[0])
		}
	}
	if !overHTTP {
		cfg.era = ""
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
	runner := run
	if overHTTP {
		runner = runHTTP
	}
	rep, err := runner(cfg)
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
func runCompare(paths []string, rounds int, stdout, stderr io.Writer) int {
	if len(paths) == 0 {
		fmt.Fprintln(stderr, "mcpload: -compare needs at least one report file")
		return 2
	}
	if rounds < 1 || len(paths)%rounds != 0 {
		fmt.Fprintf(stderr, "mcpload: -rounds %d does not divide the %d reports\n", rounds, len(paths))
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
	var err error
	if rounds > 1 {
		err = writeRounds(stdout, reps, rounds)
	} else {
		err = writeCompare(stdout, reps)
	}
	if err != nil {
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
		case "seq", "pipe", "conc", "big", "list", "spawn", "soak", "slow":
			m[p] = true
		case "":
		default:
			return nil, fmt.Errorf("unknown phase %q (want seq, pipe, conc, big, list, spawn, soak or slow)", p)
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
	rep := &Report{Name: cfg.name, Command: cfg.argv, Transport: "stdio"}
	e := stdioEchoer{c: c, timeout: cfg.timeout}
	rep.Server, err = handshake(c, cfg.timeout)
	if err == nil {
		err = warmUp(e, cfg.warmup)
	}
	if err != nil {
		_, _, _ = c.closeAndWait(time.Second)
		return nil, err
	}
	if cfg.phases["seq"] {
		rep.Sequential = rep.noteRate("sequential", runSequential(e, cfg.calls))
	}
	if cfg.phases["pipe"] {
		rep.Pipelined = rep.noteRate("pipelined", runPipelined(c, cfg.calls, cfg.depth, cfg.timeout))
	}
	if cfg.phases["list"] {
		rep.List = rep.noteRate("tools/list", runList(c, cfg.listCalls, cfg.timeout))
	}
	if cfg.phases["big"] {
		rep.runBigs(e, cfg.bigSizes)
	}
	if cfg.phases["soak"] {
		for _, mode := range []string{"sequential", "pipelined"} {
			x := runSoak(c, e, mode, cfg.soakCalls, cfg.soakEvery, cfg.depth, cfg.statsFile, cfg.timeout)
			rep.Soak = append(rep.Soak, x)
			if x.Failures > 0 {
				rep.Failures += x.Failures
				rep.problem("%s soak: %d calls failed", mode, x.Failures)
			}
		}
	}
	if cfg.phases["slow"] {
		rep.Slow = runSlow(c, cfg.slowCalls, cfg.slowMS, cfg.statsFile, cfg.timeout)
		if x := rep.Slow; x.Failures > 0 {
			rep.Failures += x.Failures
			rep.problem("slow: %d calls failed; first: %s", x.Failures, x.FirstError)
		}
	}
	if st, err := readMemStatus(c.pid()); err == nil {
		rep.PeakRSSBytes = st.HWM
	}
	rep.finish(c, cfg.exitWait)
	if cfg.phases["spawn"] {
		rep.Spawn = runSpawn(cfg, cfg.spawns)
		if rep.Spawn.Error != "" {
			rep.problem("spawn: %s", rep.Spawn.Error)
		}
	}
	return rep, nil
}

// finish closes the server's stdin, times its exit and records anomalies.
func (r *Report) finish(c *client, exitWait time.Duration) {
	took, killed, err := c.closeAndWait(exitWait)
	r.noteExit(took, killed, err, exitWait, "stdin closed")
	r.noteAnomalies(&c.anom, "stdout lines", "outstanding request")
}

// noteExit records how the server exited after the event named by after
// (stdin closing, SIGTERM): a kill or a slow exit is a problem.
func (r *Report) noteExit(took time.Duration, killed bool, err error, wait time.Duration, after string) {
	r.Exit = ExitResult{MS: millis(took), Killed: killed}
	if err != nil {
		r.Exit.Error = err.Error()
	}
	switch {
	case killed:
		r.problem("server did not exit within %v after %s and was killed", wait, after)
	case took > slowExit:
		r.problem("server took %v to exit after %s (more than %v)", took.Round(time.Millisecond), after, slowExit)
	}
}

// noteAnomalies copies the client's anomaly counters into the report;
// lines names what the client reads (stdout lines, event-stream events)
// and request what a response is matched with.
func (r *Report) noteAnomalies(a *anomalies, lines, request string) {
	r.Anomalies = Anomalies{
		BadLines:       a.badLines.Load(),
		Unmatched:      a.unmatched.Load(),
		ServerRequests: a.serverRequests.Load(),
		Notifications:  a.notifications.Load(),
	}
	if n := r.Anomalies.BadLines; n > 0 {
		r.problem("%d %s were not JSON-RPC messages", n, lines)
	}
	if n := r.Anomalies.Unmatched; n > 0 {
		r.problem("%d responses matched no %s", n, request)
	}
}

// noteRate adds the failures of a rate phase, x, to the report, and
// returns x.
func (r *Report) noteRate(label string, x *RateResult) *RateResult {
	if x.Failures > 0 {
		r.Failures += x.Failures
		r.problem("%s: %d of %d calls failed; first: %s", label, x.Failures, x.Calls, x.FirstError)
	}
	return x
}

// problem records a problem in words.
func (r *Report) problem(format string, args ...any) {
	r.Problems = append(r.Problems, fmt.Sprintf(format, args...))
}
