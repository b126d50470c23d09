package scenario

import (
	"context"
	"fmt"
	"os"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// ModernVersion is the first protocol version of the modern (stateless) era.
const ModernVersion = "2026-07-28"

// Checks names every check in the order Run reports them.
var Checks = []string{
	"connect", "era", "list", "echo", "echo-1mib", "add", "tags", "fail",
	"bundle", "unknown", "progress", "cancel", "resources", "templates",
	"read-text", "read-binary", "read-template", "read-missing", "prompts",
	"prompt-simple", "prompt-args", "prompt-missing", "complete", "subscribe",
	"sampling", "elicitation", "elicitation-decline", "roots", "multi-round",
	"wire", "exit",
}

// Config says what to run.
type Config struct {
	Server     string   // path of the built server
	ServerArgs []string // its flags
	Connect    Connect  // the client SDK's adapter
	// HTTP runs the server with -http 127.0.0.1:0 and connects the SDK's
	// Streamable HTTP client transport to it, instead of stdio.
	HTTP bool
	// WantModern says whether this client mode should end up in the modern
	// era; the era check compares it with what the SDK negotiated.
	WantModern bool
	// CallTimeout bounds each step; zero means 15 s.
	CallTimeout time.Duration
	// WireFile, if set, receives the transcript when the run ends, one line
	// per message: "->" for the client's, "<-" for the server's, each cut
	// to its first few hundred bytes.
	WireFile string
}

// ExitLimit is how long the server may take to exit once stdin is closed
// (or, over HTTP, once it got SIGTERM).
const ExitLimit = 2 * time.Second

// listenLimit is how long an HTTP server may take to say where it listens.
const listenLimit = 5 * time.Second

// run holds the state one scenario run shares between its checks.
type run struct {
	cfg    Config
	r      *harness.Report
	srv    *harness.Server
	wire   *harness.Wire
	sess   Session
	modern bool
	tools  map[string]Tool
	// What the resources, templates and prompts checks listed; nil when
	// the listing failed or did not run.
	resources, templates, prompts *listing
	// handlers answer what the server asks the client; accepted is the
	// form content the client sent in the last ask check's exchange.
	handlers *Handlers
	accepted map[string]any
}

// Run starts the server, runs every check in Checks against it with the
// configured client, and reports each one to r.
func Run(ctx context.Context, cfg Config, r *harness.Report) {
	if cfg.CallTimeout == 0 {
		cfg.CallTimeout = 15 * time.Second
	}
	start := harness.Start
	if cfg.HTTP {
		start = func(path string, args ...string) (*harness.Server, error) {
			return harness.StartHTTP(listenLimit, path, args...)
		}
	}
	srv, err := start(cfg.Server, cfg.ServerArgs...)
	if err != nil {
		failAll(r, Checks, "starting the server: %v", err)
		return
	}
	defer srv.Kill()
	x := &run{cfg: cfg, r: r, srv: srv, wire: srv.Wire, handlers: &Handlers{}}
	if cfg.WireFile != "" {
		defer x.saveWire()
	}
	if !x.connect(ctx) {
		failAll(r, Checks[1:len(Checks)-1], "not connected")
		x.checkExit()
		return
	}
	x.checkEra()
	x.checkList(ctx)
	x.checkEcho(ctx, "echo", "héllo\nworld ✓")
	x.checkEcho(ctx, "echo-1mib", BigText(1<<20))
	x.checkAdd(ctx)
	x.checkTags(ctx)
	x.checkFail(ctx)
	x.checkBundle(ctx)
	x.checkUnknown(ctx)
	x.checkProgress(ctx)
	x.checkCancel(ctx)
	x.checkResources(ctx)
	x.checkReadText(ctx)
	x.checkReadBinary(ctx)
	x.checkReadTemplate(ctx)
	x.checkReadMissing(ctx)
	x.checkPrompts(ctx)
	x.checkPromptSimple(ctx)
	x.checkPromptArgs(ctx)
	x.checkPromptMissing(ctx)
	x.checkComplete(ctx)
	x.checkSubscribe(ctx)
	x.checkAsks(ctx)
	x.checkWire()
	x.checkExit()
}

func failAll(r *harness.Report, checks []string, format string, args ...any) {
	for _, c := range checks {
		r.Fail(c, format, args...)
	}
}

// step returns a context bounded by the call timeout.
func (x *run) step(ctx context.Context) (context.Context, context.CancelFunc) {
	return context.WithTimeout(ctx, x.cfg.CallTimeout)
}

func (x *run) connect(ctx context.Context) bool {
	cctx, cancel := x.step(ctx)
	defer cancel()
	start := time.Now()
	link := Link{Stdin: x.srv.Stdin(), Stdout: x.srv.Stdout()}
	if x.cfg.HTTP {
		link = Link{URL: x.srv.URL, HTTPClient: harness.HTTPClient(x.wire)}
		x.r.Info("server at %s", x.srv.URL)
	}
	sess, err := x.cfg.Connect(cctx, link, x.handlers)
	took := time.Since(start).Round(time.Millisecond)
	x.r.Info("first client line: %s", x.wire.FirstClientLine())
	x.r.Info("handshake: %s", describeHandshake(x.wire.Lines()))
	if err != nil {
		x.r.Fail("connect", "after %v: %v%s", took, err, stderrTail(x.srv))
		return false
	}
	x.sess = sess
	x.modern = sess.ProtocolVersion() >= ModernVersion
	x.r.Pass("connect", "protocol version %s in %v", sess.ProtocolVersion(), took)
	return true
}

func (x *run) checkEra() {
	era := map[bool]string{true: "modern", false: "legacy"}
	got := fmt.Sprintf("%s era (%s)", era[x.modern], x.sess.ProtocolVersion())
	if x.modern != x.cfg.WantModern {
		x.r.Fail("era", "want the %s era, got %s; handshake: %s", era[x.cfg.WantModern], got, describeHandshake(x.wire.Lines()))
		return
	}
	x.r.Pass("era", "%s", got)
}

// saveWire writes the transcript to the configured file.
func (x *run) saveWire() {
	if err := os.WriteFile(x.cfg.WireFile, []byte(x.wire.Transcript()), 0o644); err != nil {
		x.r.Info("saving the transcript: %v", err)
	}
}

// stderrTail returns the end of the server's stderr as a suffix for a
// failure's detail, or "" when the server wrote nothing there.
func stderrTail(srv *harness.Server) string {
	if srv.Stderr() == "" {
		return ""
	}
	return "; server stderr: " + lastLines(srv.Stderr(), 3)
}

// lastLines returns the last n lines of s, joined with " | ".
func lastLines(s string, n int) string {
	lines := strings.Split(strings.TrimRight(s, "\n"), "\n")
	if len(lines) > n {
		lines = lines[len(lines)-n:]
	}
	return strings.Join(lines, " | ")
}
