package mcptest

import (
	"context"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/internal/peer/check"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// CallAll makes Check call every tool that needs no argument, not only
// the read-only ones (mcpwire check --call-all). NewClient ignores it.
func CallAll() Option {
	return func(c *config) { c.callAll = true }
}

// CheckTimeout bounds each listing and each call Check makes (default 10s,
// restarted by every progress notification of a call): a call that gets
// no answer in time is a finding. NewClient ignores it.
func CheckTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// CheckTotal bounds the whole of Check (default 5m); a review that
// outlasts it fails the test. NewClient ignores it.
func CheckTotal(d time.Duration) Option {
	return func(c *config) { c.total = d }
}

// Check reviews srv as mcpwire check reviews a server, over an in-memory
// connection in the era the options choose (Modern unless Legacy is
// given): it lists everything twice, reviews every descriptor, calls
// every tool that declares readOnlyHint true and needs no argument (every
// one that needs no argument with CallAll) and reviews each result. It
// calls t.Errorf once per finding: each problem of a rejected descriptor,
// call or result, naming the item, the gate, the rule id and the JSON
// pointer, and each problem of the server as a whole; and once when the
// review could not run. A server that passes gets no call at all.
//
// The client answers as the reviewer does, a user who says no: it
// declines every elicitation and lists no roots, and declares no
// sampling. AnswerElicitation, AnswerSampling, Roots and Capabilities
// replace those answers with the test's. Check returns when the review is
// over and srv's Serve has returned.
func Check(t testing.TB, srv *mcp.Server, opts ...Option) {
	t.Helper()
	cfg := &config{era: protocol.Modern}
	for _, o := range opts {
		o(cfg)
	}
	callAll := cfg.callAll
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	stop, served := serve(srv, serverEnd)
	defer stop()
	defer waitServe(t, "mcptest.Check", served)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	s, err := client.Connect(ctx, clientEnd, cfg.checkOptions())
	cancel()
	if err != nil {
		t.Errorf("mcptest.Check: the review could not run (connect): %s", check.Trim(err))
		return
	}
	rep := check.Run(context.Background(), s, check.Options{CallAll: callAll, Timeout: cfg.timeout, Total: cfg.total,
		TimeoutName: "mcptest.CheckTimeout", TotalName: "mcptest.CheckTotal"})
	s.Close()
	report(t, rep)
}

// checkOptions returns the reviewer's session options in the config's
// era, with the test's answers when it scripted any.
func (c *config) checkOptions() client.Options {
	o := check.ClientOptions()
	o.Era, o.ProtocolVersion = c.era, c.version
	h := c.handlers
	if c.caps != nil || h.Elicit != nil || h.Sample != nil || h.Roots != nil {
		o.Capabilities, o.Handlers = c.caps, h
	}
	return o
}
