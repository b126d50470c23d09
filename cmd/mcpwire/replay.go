package main

import (
	"errors"
	"flag"
	"fmt"
	"io"
	"os"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
)

// Exit statuses of replay.
const (
	replayMatched = 0 // every server line matched
	replayDiffers = 1 // a line differed, was missing or was extra
	replayNotRun  = 2 // the transcript or the command line is wrong, or the server did not start
)

// replayOptions are the normalisations of a replayed recording: what
// legitimately differs between runs of a server compares equal.
func replayOptions(tr *golden.Transcript) (golden.Options, error) {
	vol, err := tr.Volatile()
	return golden.Options{Timestamps: true, Volatile: vol, ServerIDs: true, Text: true}, err
}

// runReplay runs the replay command: the transcript's client lines are
// sent to CMD and its lines compared with the transcript's as JSON, under
// replayOptions (golden.ReplayWith), each difference printed as a diff;
// or with --update what CMD writes is recorded into the file
// (golden.RecordWith and Rewrite). CMD's stderr is ours; after the last
// line it is ended as a client ends a stdio server: its stdin closed,
// then SIGTERM, then SIGKILL to its process group, exitGrace apart.
func runReplay(args []string, stdout, stderr io.Writer) int {
	fs := flag.NewFlagSet("replay", flag.ContinueOnError)
	fs.SetOutput(stderr)
	update := fs.Bool("update", false, "rewrite FILE with what the server writes")
	fs.Usage = func() { fmt.Fprint(stderr, "usage: mcpwire replay [--update] FILE -- CMD [ARGS...]\n") }
	if err := fs.Parse(args); err != nil {
		if errors.Is(err, flag.ErrHelp) {
			return replayMatched
		}
		return replayNotRun
	}
	rest := fs.Args()
	if len(rest) < 3 || rest[1] != "--" {
		fmt.Fprint(stderr, "mcpwire replay: a transcript FILE, then -- and a command, are required\n")
		fs.Usage()
		return replayNotRun
	}
	file, argv := rest[0], rest[2:]
	tr, err := golden.Load(file)
	if err != nil {
		fmt.Fprintf(stderr, "mcpwire replay: %v\n", err)
		return replayNotRun
	}
	opts, err := replayOptions(tr)
	if err != nil {
		fmt.Fprintf(stderr, "mcpwire replay: %v\n", err)
		return replayNotRun
	}
	p, err := startProxied(argv, stderr)
	if err != nil {
		fmt.Fprintf(stderr, "mcpwire replay: %v\n", err)
		return replayNotRun
	}
	peer := golden.NewPeer(p.Stdin(), p.Stdout())
	if *update {
		o := golden.RecordWith(tr, peer, opts)
		p.stop()
		if err := os.WriteFile(file, []byte(o.Rewrite(tr).Format()), 0o644); err != nil {
			fmt.Fprintf(stderr, "mcpwire replay: %v\n", err)
			return replayNotRun
		}
		fmt.Fprintf(stdout, "%s: rewritten from what %s wrote (%d client lines)\n", file, argv[0], len(tr.Steps))
		return replayMatched
	}
	o := golden.ReplayWith(tr, peer, opts)
	p.stop()
	for _, pr := range o.Problems {
		fmt.Fprintf(stdout, "%s: %s\n", file, pr)
	}
	if len(o.Problems) > 0 {
		fmt.Fprintf(stdout, "%s: %d difference(s)\n", file, len(o.Problems))
		return replayDiffers
	}
	fmt.Fprintf(stdout, "%s: every server line matched (%d client lines)\n", file, len(tr.Steps))
	return replayMatched
}
