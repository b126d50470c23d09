package mcptest

import (
	"context"
	"testing"

	"github.com/mcpwire/mcpwire/internal/peer/check"
	engine "github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// Check reviews srv as mcpwire check reviews a server, over an in-memory
// connection in 2026-07-28 or the era [WithClient] chooses: it lists
// everything twice, reviews every descriptor, calls every tool that
// declares readOnlyHint true and needs no argument (every one that needs
// no argument with CallAll) and reviews each result. It
// calls t.Errorf once per finding: each problem of a rejected descriptor,
// call or result, naming the item, the gate, the rule id and the JSON
// pointer, and each problem of the server as a whole; and once when the
// review could not run. A server that passes gets no call at all.
//
// The client answers as the reviewer does, a user who says no: it
// declines every elicitation and lists no roots, and declares no
// sampling. The answers of [WithClient] (Elicit, Sample, Roots,
// Capabilities) replace those with the test's. Check returns when the
// review is over and srv's Serve has returned.
func Check(t testing.TB, srv *mcp.Server, opts ...Option) {
	t.Helper()
	cfg := &config{}
	for _, o := range opts {
		o(cfg)
	}
	callAll := cfg.callAll
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	stop, served := serve(srv, serverEnd)
	defer stop()
	defer waitServe(t, "mcptest.Check", served)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	s, err := engine.Connect(ctx, clientEnd, cfg.checkOptions())
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
