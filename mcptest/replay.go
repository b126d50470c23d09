package mcptest

import (
	"errors"
	"fmt"
	"io"
	"os"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// A ReplayOption configures Replay.
type ReplayOption func(*replayConfig)

// replayConfig is what the replay options set.
type replayConfig struct {
	exact     bool
	volatile  []string
	check     func(ServerLine) error
	update    *bool // nil: the -update flag or updateEnv decides
	transport transport.Options
}

// ServerLine is one line the server wrote, as a CheckLines hook sees it.
type ServerLine struct {
	// Revision is the protocol revision the line belongs to: the version
	// a 2026-07-28 request it answers or follows declared, else the one
	// initialize negotiated; "" before initialize.
	Revision string
	// MethodOf returns the method of the client's request whose id has
	// the JSON text id (such as 3 or "a"), "" when the client sent none.
	MethodOf func(id []byte) string
	// Text is the line as the server wrote it, without its newline.
	Text []byte
}

// Exact makes Replay compare exactly: no RFC 3339 time matches another,
// the ids of the requests the server sends must be the transcript's, and
// an expected line that is not JSON is a fault of the transcript. The
// transcript's "# volatile:" lines and Volatile pointers still apply,
// since they are asked for by name.
func Exact() ReplayOption {
	return func(c *replayConfig) { c.exact = true }
}

// Volatile names JSON pointers (RFC 6901; "*" stands for any one member
// or element, as in /result/content/*/text) whose values match whatever
// the server writes there, in every server line, in addition to those
// the transcript's "# volatile:" header lines name. A pointer covers a
// value only where the expected line has one.
func Volatile(pointers ...string) ReplayOption {
	return func(c *replayConfig) { c.volatile = append(c.volatile, pointers...) }
}

// CheckLines calls check with every line the server writes, replaying or
// recording, and fails the test with each error it returns, at the
// transcript line the server line was compared with: a schema check, say.
// check is called on the test's goroutine, one line at a time.
func CheckLines(check func(ServerLine) error) ReplayOption {
	return func(c *replayConfig) { c.check = check }
}

// TransportOptions sets the framing of the in-memory connection, as
// RunStdio's options set it on stdio: MaxMessageBytes, to replay what the
// server answers a line over its limit.
func TransportOptions(opts transport.Options) ReplayOption {
	return func(c *replayConfig) { c.transport = opts }
}

// Update makes Replay rewrite the transcript (update true) or compare
// with it (false) whatever the -update flag and MCPTEST_UPDATE say: for a test
// that decides by a flag of another name, or never rewrites.
func Update(update bool) ReplayOption {
	return func(c *replayConfig) { c.update = &update }
}

// updateEnv names the environment variable that makes Replay rewrite its
// transcripts when it holds a true value as strconv.ParseBool reads it
// ("1", "true"): MCPTEST_UPDATE=1 go test ./... rewrites every package's
// transcripts, also those of packages that declare no -update flag.
const updateEnv = "MCPTEST_UPDATE"

// Replay serves srv over an in-memory connection, as a stdio host would
// drive it, and replays the golden transcript at path against it: it
// sends each client line and compares each line the server writes with
// the transcript's, as JSON (key order does not matter), and fails the
// test with t.Errorf once for every line that differs, is missing or is
// extra, naming the file and line and showing a diff:
//
//	mcptest.Replay: testdata/add.golden:9: server line differs (-want +got): ...
//
// After the last client line (or at a "!close" line) it closes the
// server's input, as a host closes stdin, and expects the server's output
// to end. Replay returns once srv's Serve has returned, failing the test
// if Serve returns an error or has not returned within seconds of its
// input closing; every goroutine Replay started has ended by then.
//
// The transcript format is the one `mcpwire record` writes and `mcpwire
// replay` reads (see the package documentation): "> " lines from the
// client, "< " lines expected from the server, "$NAME" placeholders for
// values that change from run to run, and the directives !close, !pad
// and !sleep. By default Replay compares as mcpwire replay does: any RFC
// 3339 time matches any other, the ids of the requests the server sends
// (elicitation, sampling, roots) are matched by position, the pointers
// the header and Volatile name match anything, and an expected line that
// is not JSON matches the same text. Exact turns the first, second and
// last off.
//
// When the transcript is to be rewritten (Update, else the test binary's
// -update flag, else MCPTEST_UPDATE), Replay instead sends the client lines
// and records what the server writes after each, waiting for it to fall
// quiet, and writes the file anew: lines that still match are kept as
// they were (so their placeholders survive) and new cursors and
// requestState values are written as placeholders. Read the change before
// keeping it. A rewrite reports only what CheckLines finds.
//
// Replay itself defines no -update flag, so that it never clashes with a
// test's own: it reads a boolean flag named "update" if the test binary
// has one, as a test declares it with
//
//	var _ = flag.Bool("update", false, "rewrite the golden transcripts")
//
// and so `go test -run TestGolden -update` rewrites.
func Replay(t testing.TB, srv *mcp.Server, path string, opts ...ReplayOption) {
	t.Helper()
	cfg := replayConfig{}
	for _, o := range opts {
		o(&cfg)
	}
	update, err := cfg.updating()
	if err != nil {
		t.Fatalf("mcptest.Replay: %v", err)
	}
	tr, err := golden.Load(path)
	if err != nil {
		t.Fatalf("mcptest.Replay: %v", err)
	}
	gopts, err := cfg.goldenOptions(tr)
	if err != nil {
		t.Fatalf("mcptest.Replay: %v", err)
	}
	var o *golden.Outcome
	replayOver(t, srv, cfg.transport, func(p *golden.Peer) {
		if update {
			o = golden.RecordWith(tr, p, gopts)
		} else {
			o = golden.ReplayWith(tr, p, gopts)
		}
	})
	for _, f := range o.Faults {
		t.Errorf("mcptest.Replay: %s", where(path, f))
	}
	if update {
		rewrite(t, path, o.Rewrite(tr).Format())
	}
}

// updating reports whether the transcript is to be rewritten: as Update
// says, else as a boolean -update flag or MCPTEST_UPDATE does.
func (c *replayConfig) updating() (bool, error) {
	if c.update != nil {
		return *c.update, nil
	}
	return updateRequested()
}

// goldenOptions returns the engine's options: the transcript's volatile
// pointers and the option's, the normalisations unless Exact, the hook.
func (c *replayConfig) goldenOptions(tr *golden.Transcript) (golden.Options, error) {
	vol, err := tr.Volatile()
	if err != nil {
		return golden.Options{}, err
	}
	o := golden.Options{Volatile: append(vol, c.volatile...)}
	if !c.exact {
		o.Timestamps, o.ServerIDs, o.Text = true, true, true
	}
	if check := c.check; check != nil {
		o.Check = func(rev string, methodOf func([]byte) string, line []byte) error {
			return check(ServerLine{Revision: rev, MethodOf: methodOf, Text: line})
		}
	}
	return o, nil
}

// where renders a fault as file:line: message.
func where(path string, f golden.Fault) string {
	if f.Line == 0 {
		return fmt.Sprintf("%s: %s", path, f.Msg)
	}
	return fmt.Sprintf("%s:%d: %s", path, f.Line, f.Msg)
}

// rewrite writes a rewritten transcript, leaving an unchanged file alone.
func rewrite(t testing.TB, path, text string) {
	t.Helper()
	if old, err := os.ReadFile(path); err == nil && string(old) == text {
		return
	}
	info, err := os.Stat(path)
	if err != nil {
		t.Fatalf("mcptest.Replay: %v", err)
	}
	if err := os.WriteFile(path, []byte(text), info.Mode().Perm()); err != nil {
		t.Fatalf("mcptest.Replay: %v", err)
	}
	t.Logf("mcptest.Replay: rewrote %s", path)
}

// errReplayOver ends the reading of the server's output once a replay is
// over and the server did not end it itself.
var errReplayOver = errors.New("mcptest: the replay is over")

// replayOver serves srv over in-memory byte pipes, the stdio a host
// gives a server, and runs drive against it; then it closes the server's
// input, reads its output to the end and waits for Serve to return,
// failing the test if Serve does not or returns an error. No goroutine
// it started survives it (but a Serve that never returns).
func replayOver(t testing.TB, srv *mcp.Server, opts transport.Options, drive func(*golden.Peer)) {
	t.Helper()
	inR, inW := io.Pipe()   // the server's input
	outR, outW := io.Pipe() // its output
	stop, served := serve(srv, transport.NewStream(inR, outW, opts))
	defer stop()
	p := golden.NewPeer(inW, outR)
	drive(p)
	p.CloseInput()
	ended := drain(p, serveTimeout)
	waitServe(t, "mcptest.Replay", served)
	if !ended {
		stop()
		outR.CloseWithError(errReplayOver)
		drain(p, time.Second)
	}
}

// drain reads the server's lines, which the replay has finished with,
// until its output ends or for d at most; it reports whether it ended.
func drain(p *golden.Peer, d time.Duration) bool {
	deadline := time.Now().Add(d)
	for {
		_, err := p.ReadLine(time.Until(deadline))
		if errors.Is(err, io.EOF) {
			return true
		}
		if err != nil {
			return false
		}
	}
}
