package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpwire/mcpwire/internal/check"
	"github.com/mcpwire/mcpwire/internal/client"
	"github.com/mcpwire/mcpwire/internal/review"
)

// errURL is the answer to --url until Streamable HTTP is supported.
var errURL = errors.New("not yet supported: --url (Streamable HTTP) comes in a later release")

// config holds the settings of one review.
type config struct {
	argv    []string
	json    bool
	callAll bool
	timeout time.Duration // the handshake, each listing, each call
	total   time.Duration // the whole review
	color   bool          // colour the table (stdout is a terminal)
	stdout  io.Writer
	prog    *progress
}

// runCheck parses the check command line, runs the review and writes
// its report; it returns the exit status.
func runCheck(ctx context.Context, args []string, stdout, stderr io.Writer) int {
	cfg, err := parseCheck(args, stderr)
	if errors.Is(err, flag.ErrHelp) {
		return exitOK
	}
	if err != nil {
		fmt.Fprintf(stderr, "mcpwire check: %v\n\n%s", err, usage)
		return exitNotRun
	}
	cfg.stdout = stdout
	cfg.color = isTerminal(stdout) && os.Getenv("NO_COLOR") == ""
	cfg.prog = newProgress(stderr)
	rep := reviewServer(ctx, cfg)
	if cfg.json {
		err = writeJSON(stdout, rep)
	} else {
		err = writeTable(stdout, rep, cfg.color)
	}
	if err != nil {
		fmt.Fprintln(stderr, "mcpwire check: writing the report:", err)
		return exitNotRun
	}
	if rep.Failure != nil && cfg.json { // the table already says it
		fmt.Fprintln(stderr, "mcpwire check:", rep.Failure.Error)
	}
	return rep.Exit
}

// parseCheck reads check's flags and the server command after them.
func parseCheck(args []string, stderr io.Writer) (config, error) {
	fs := flag.NewFlagSet("mcpwire check", flag.ContinueOnError)
	fs.SetOutput(io.Discard)
	cfg := config{}
	fs.BoolVar(&cfg.json, "json", false, "")
	fs.BoolVar(&cfg.callAll, "call-all", false, "")
	fs.DurationVar(&cfg.timeout, "timeout", check.DefaultTimeout, "")
	fs.DurationVar(&cfg.total, "total", check.DefaultTotal, "")
	url := fs.String("url", "", "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stderr, usage)
		}
		return cfg, err
	}
	cfg.argv = fs.Args()
	switch {
	case *url != "":
		return cfg, errURL
	case len(cfg.argv) == 0:
		return cfg, errors.New("no server command given: mcpwire check -- CMD [ARGS...]")
	case cfg.timeout <= 0 || cfg.total <= 0:
		return cfg, errors.New("--timeout and --total must be positive")
	}
	return cfg, nil
}

// isTerminal reports whether w is a character device, such as a terminal.
func isTerminal(w io.Writer) bool {
	f, ok := w.(*os.File)
	if !ok {
		return false
	}
	fi, err := f.Stat()
	return err == nil && fi.Mode()&os.ModeCharDevice != 0
}

// reviewServer runs the whole review of one server, bounded by cfg.total
// from the server's start, and returns its report with the exit status
// set. The review itself is package check's; this adds the process: its
// start, how it ended, its stderr's last lines and its stdout's garbage.
func reviewServer(ctx context.Context, cfg config) *report {
	ctx, cancel := context.WithTimeout(ctx, cfg.total)
	defer cancel()
	rep := newReport()
	rep.command = filepath.Base(cfg.argv[0])
	srv, err := startServer(cfg.argv)
	if err != nil {
		rep.Fail("start", err)
		return rep.finish()
	}
	defer srv.stop()
	sess, err := connect(ctx, srv, cfg)
	if err != nil {
		rep.Fail("connect", err)
		ended(rep.Failure, srv)
		rep.Problems = append(rep.Problems, notJSON(srv.stdout)...)
		return rep.finish()
	}
	defer sess.Close()
	rep.Report = check.Run(ctx, sess, check.Options{
		CallAll:  cfg.callAll,
		Timeout:  cfg.timeout,
		Total:    cfg.total,
		Progress: cfg.prog.step,
		Wire:     func() []review.Problem { return notJSON(srv.stdout) },
	})
	ended(rep.Ended, srv)
	ended(rep.Failure, srv)
	return rep
}

// connect starts a session with the server in the era it answers, as the
// reviewer (check.ClientOptions), the server/discover probe bounded by the
// smaller of its default and cfg.timeout, the whole handshake by both.
func connect(ctx context.Context, srv *server, cfg config) (*client.Session, error) {
	probe := min(client.DefaultDiscoverTimeout, cfg.timeout)
	hctx, cancel := context.WithTimeout(ctx, probe+cfg.timeout)
	defer cancel()
	cfg.prog.step("connecting to %s", srv.name)
	opts := check.ClientOptions()
	opts.Era, opts.DiscoverTimeout = client.Auto, probe
	s, err := client.Connect(hctx, srv.conn, opts)
	switch {
	case err == nil:
		return s, nil
	case hctx.Err() != nil && ctx.Err() == nil:
		return nil, fmt.Errorf("no MCP handshake within %v (the server/discover probe, then --timeout): %w", ms(probe+cfg.timeout), err)
	}
	return nil, fmt.Errorf("no MCP handshake: %w", err)
}
