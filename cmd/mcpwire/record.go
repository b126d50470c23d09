package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"
	"os/signal"
	"time"
)

// runRecord runs the record command: CMD behind a transparent stdio proxy
// while the session is written to --out as a golden transcript. It
// returns the server's exit status (128 plus the signal when a signal
// ended it), or 2 when the command line is wrong, the file cannot be
// written or the server does not start.
//
// The relay is byte for byte and unbuffered (relay); the server's stderr
// is ours; SIGINT, SIGTERM and SIGHUP are forwarded to the server, which
// runs in a process group of its own so that a terminal's signal reaches
// it once; EOF on stdin closes the server's stdin. Either is a !close step
// in the transcript, written once, before what the server writes in
// answer (a signal's step has a "#" note naming it): a host that ends a
// session with SIGINT, as Claude Code does, leaves a transcript that
// replays.
//
// The file is rewritten whole (written aside, then renamed over FILE)
// flushDelay after a line comes and once more when the server has
// exited, with a last "#" line saying how it ended: a server that crashes
// or a host that signals the recorder leaves a complete file, while a
// SIGKILL of the recorder can lose the lines of its last flushDelay. Its
// header (session.transcript) says when (UTC), which client (clientInfo of
// initialize, or of a 2026-07-28 request's _meta), which server
// (serverInfo of the initialize or discover result), the command line and
// the note; cursors and states are placeholders (golden.NameSealed), and
// lines that are not JSON are kept with a "#" line saying so.
func runRecord(args []string, stdin io.Reader, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("record", flag.ContinueOnError)
	fs.SetOutput(stderr)
	out := fs.String("out", "", "the transcript file to write (required)")
	note := fs.String("note", "", "a note for the transcript's header")
	fs.Usage = func() { fmt.Fprint(stderr, "usage: mcpwire record --out FILE [--note TEXT] -- CMD [ARGS...]\n") }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return 0
		}
		return 2
	}
	argv := fs.Args()
	if *out == "" || len(argv) == 0 {
		fmt.Fprint(stderr, "mcpwire record: --out FILE and a command after -- are required\n")
		fs.Usage()
		return 2
	}
	sess, err := newSession(*out, argv, *note)
	if err != nil {
		fmt.Fprintf(stderr, "mcpwire record: %v\n", err)
		return 2
	}
	p, err := startProxied(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcpwire record: %v\n", err)
		sess.end("The server did not start: " + err.Error())
		return 2
	}
	code := proxy(p, sess, stdin, stdout)
	if err := sess.end(p.describe()); err != nil {
		fmt.Fprintf(stderr, "mcpwire record: writing %s: %v\n", *out, err)
	}
	return code
}

// proxy relays both ways and forwards signals until the server has
// exited and its output is drained (or held open exitGrace after the exit
// by something it started), and returns the server's exit status. EOF on
// stdin closes the server's stdin.
func proxy(p *proxied, sess *session, stdin io.Reader, stdout io.Writer) int {
	sigs := make(chan os.Signal, 4)
	signal.Notify(sigs, forwarded...)
	defer signal.Stop(sigs)
	go func() {
		relay(p.Stdin(), stdin, sess.clientLine)
		// Recorded before the server can see it, so that what the
		// server writes in answer comes after it in the transcript.
		sess.closed()
		p.Stdin().Close()
	}()
	drained := make(chan struct{})
	go func() {
		relay(stdout, p.Stdout(), sess.serverLine)
		close(drained)
	}()
	for running := true; running; {
		select {
		case sig := <-sigs:
			// Recorded before the server sees it, as EOF is.
			sess.signalled(sig)
			p.Signal(sig)
		case <-p.Exited():
			running = false
		}
	}
	select {
	case <-drained:
	case <-time.After(exitGrace):
		p.Stdout().Close()
		<-drained
	}
	return p.Status()
}
