package main

import (
	"context"
	"errors"
	"flag"
	"fmt"
	"io"
	"net/http"
	"os"
	"path/filepath"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/check"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/review"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// config holds the settings of one review.
type config struct {
	argv    []string    // the server command (stdio); none with url
	url     string      // the MCP endpoint (--url)
	header  http.Header // sent with every HTTP request (--header, --bearer-env); never printed
	signIn  bool        // sign in when the endpoint answers 401 (--url without a token or --no-sign-in)
	era     protocol.Era
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
	fs.StringVar(&cfg.url, "url", "", "")
	era := fs.String("era", "auto", "")
	var headers headerFlags
	fs.Var(&headers, "header", "")
	bearerEnv := fs.String("bearer-env", "", "")
	noSignIn := fs.Bool("no-sign-in", false, "")
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			fmt.Fprint(stderr, usage)
		}
		return cfg, err
	}
	cfg.argv = fs.Args()
	if headers.err != nil {
		return cfg, headers.err
	}
	var err error
	if cfg.era, err = parseEra(*era); err != nil {
		return cfg, err
	}
	switch {
	case cfg.url != "" && len(cfg.argv) > 0:
		return cfg, errors.New("--url and a server command are exclusive: review either an HTTP endpoint or a stdio server")
	case cfg.url != "":
		if err := checkURL(cfg.url); err != nil {
			return cfg, err
		}
	case len(cfg.argv) == 0:
		return cfg, errors.New("no server command given: mcpwire check -- CMD [ARGS...], or mcpwire check --url URL")
	}
	if cfg.url == "" && (len(headers.h) > 0 || *bearerEnv != "") {
		return cfg, errors.New("--header and --bearer-env go with --url: a stdio server takes no HTTP headers")
	}
	if cfg.header, err = authHeader(headers.h, *bearerEnv); err != nil {
		return cfg, err
	}
	cfg.signIn = cfg.url != "" && len(cfg.header) == 0 && !*noSignIn
	if cfg.timeout <= 0 || cfg.total <= 0 {
		return cfg, errors.New("--timeout and --total must be positive")
	}
	return cfg, nil
}

// parseEra reads --era.
func parseEra(s string) (protocol.Era, error) {
	switch s {
	case "auto":
		return client.Auto, nil
	case "legacy":
		return protocol.Legacy, nil
	case "modern":
		return protocol.Modern, nil
	}
	return client.Auto, fmt.Errorf("--era %q: want auto, legacy or modern", s)
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
// With --url it is reviewURL's.
func reviewServer(ctx context.Context, cfg config) *report {
	if cfg.url != "" {
		return reviewURL(ctx, cfg)
	}
	ctx, cancel := context.WithTimeout(ctx, cfg.total)
	defer cancel()
	rep := newReport()
	rep.command = filepath.Base(cfg.argv[0])
	rep.Transport = check.TransportStdio
	srv, err := startServer(cfg.argv)
	if err != nil {
		rep.Fail("start", err)
		return rep.finish()
	}
	defer srv.stop()
	sess, err := connect(ctx, srv.conn, srv.name, cfg)
	if err != nil {
		rep.Fail("connect", err)
		ended(rep.Failure, srv)
		rep.Problems = append(rep.Problems, notJSON(srv.stdout)...)
		return rep.finish()
	}
	defer sess.Close()
	rep.Report = check.Run(ctx, sess, cfg.reviewOptions(func() []review.Problem { return notJSON(srv.stdout) }))
	rep.Transport = check.TransportStdio
	ended(rep.Ended, srv)
	ended(rep.Failure, srv)
	return rep
}

// connect starts a session with the server over conn in the era cfg
// names (auto: the one it answers), as the reviewer
// (check.ClientOptions), the server/discover probe bounded by the
// smaller of its default and cfg.timeout, the whole handshake by both.
// On failure conn is closed.
func connect(ctx context.Context, conn transport.Conn, name string, cfg config) (*client.Session, error) {
	probe := min(client.DefaultDiscoverTimeout, cfg.timeout)
	hctx, cancel := context.WithTimeout(ctx, probe+cfg.timeout)
	defer cancel()
	if cfg.signIn {
		// A sign-in, with the user's step in the browser, may come before
		// the first answer: --total bounds the handshake then.
		probe = -1
		hctx = ctx
	}
	cfg.prog.step("connecting to %s", name)
	opts := check.ClientOptions()
	opts.Era, opts.DiscoverTimeout = cfg.era, probe
	s, err := client.Connect(hctx, conn, opts)
	switch {
	case err == nil:
		return s, nil
	case hctx.Err() != nil && ctx.Err() == nil:
		return nil, fmt.Errorf("no MCP handshake within %v (the server/discover probe, then --timeout): %w", ms(probe+cfg.timeout), err)
	}
	return nil, fmt.Errorf("no MCP handshake: %w", err)
}

// reviewOptions are the review's options the command line set, with wire
// reporting what the transport found wrong below the session.
func (cfg config) reviewOptions(wire func() []review.Problem) check.Options {
	return check.Options{CallAll: cfg.callAll, Timeout: cfg.timeout, Total: cfg.total, Progress: cfg.prog.step, Wire: wire}
}
