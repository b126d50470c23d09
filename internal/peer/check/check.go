package check

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// Defaults of Options.
const (
	DefaultTimeout = 10 * time.Second // each listing, each call
	DefaultTotal   = 5 * time.Minute  // the whole review
)

// Options configure a review. The zero value calls the read-only tools
// only, with the default bounds and no progress.
type Options struct {
	// CallAll calls every admitted tool that needs no argument, not only
	// the read-only ones (mcpwire check --call-all).
	CallAll bool
	// Timeout bounds each listing and each call (default DefaultTimeout).
	Timeout time.Duration
	// Total bounds the whole of Run (default DefaultTotal); the caller's
	// context bounds it too. A review that outlasts it is not run
	// (stage "review"), with what it found so far.
	Total time.Duration
	// Progress, when set, is told each step as it starts, as a format and
	// its arguments ("tools/list…", "calling 3 tools…"). It is called on
	// Run's goroutine.
	Progress func(format string, args ...any)
	// TimeoutName and TotalName name the settings of Timeout and Total in
	// the messages of a review that ran out of time (default "--timeout"
	// and "--total", mcpwire check's flags), so that a reader knows what
	// to raise.
	TimeoutName, TotalName string
	// Wire, when set, returns what the caller found wrong in the server's
	// output below the session, such as lines of stdout that are not
	// JSON. It is called once, when the review ends, and its problems are
	// reported before the session's own (Session.Problems).
	Wire func() []review.Problem
}

// withDefaults fills in the zero bounds.
func (o Options) withDefaults() Options {
	if o.Timeout <= 0 {
		o.Timeout = DefaultTimeout
	}
	if o.Total <= 0 {
		o.Total = DefaultTotal
	}
	if o.TimeoutName == "" {
		o.TimeoutName = "--timeout"
	}
	if o.TotalName == "" {
		o.TotalName = "--total"
	}
	return o
}

// step tells Progress of a step.
func (o Options) step(format string, args ...any) {
	if o.Progress != nil {
		o.Progress(format, args...)
	}
}

// Run reviews the server at the other end of s, connected in any era:
// it lists everything twice (discover), reviews every descriptor (admit),
// calls the tools the options choose and reviews their results (invoke,
// consume), and records what the session found wrong on the wire. It
// returns the finished report, verdict and exit status set. Run does not
// close s.
func Run(ctx context.Context, s *client.Session, opts Options) *Report {
	opts = opts.withDefaults()
	ctx, cancel := context.WithTimeout(ctx, opts.Total)
	defer cancel()
	rep := NewReport()
	rep.describe(s)
	defer rep.Finish()
	if err := discover(ctx, s, opts, rep); err != nil {
		rep.Fail("discover", err)
		rep.wireAll(s, opts)
		return rep
	}
	admit(rep)
	if t := callTools(ctx, s, opts, rep); t != nil {
		rep.Ended = &Failure{Stage: GateInvoke, Error: fmt.Sprintf("the server ended the connection during the call of %s", clip.Quote(t.Name))}
	}
	rep.wireAll(s, opts)
	if ctx.Err() != nil {
		rep.Fail("review", fmt.Errorf("the review did not finish within %v (%s)", opts.Total, opts.TotalName))
	}
	return rep
}

// wireAll records the caller's wire problems, then the session's.
func (r *Report) wireAll(s *client.Session, opts Options) {
	if opts.Wire != nil {
		r.Problems = append(r.Problems, opts.Wire()...)
	}
	r.wire(s.Problems())
}
