package mcptest

import (
	"context"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/internal/peer/check"
	engine "github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// An Option configures Check.
type Option func(*config)

// config is what the options set.
type config struct {
	client  *client.Options // WithClient; nil: the reviewer's defaults
	callAll bool            // Check calls every no-argument tool (CallAll)
	// timeout and total bound Check's listings and calls, and the whole
	// review (CheckTimeout, CheckTotal); zero takes mcpwire check's
	// defaults.
	timeout, total time.Duration
}

// WithClient gives Check the era of opts (Era and ProtocolVersion; a zero
// Era is 2026-07-28) and, when opts sets any of Elicit, Sample, Roots or
// Capabilities, the test's answers to the server's questions instead of
// the reviewer's. Check's client keeps its own name (mcpwire-check); the
// other fields of opts are not used.
func WithClient(opts *client.Options) Option {
	return func(c *config) { c.client = opts }
}

// CallAll makes Check call every tool that needs no argument, not only
// the read-only ones (mcpwire check --call-all).
func CallAll() Option {
	return func(c *config) { c.callAll = true }
}

// CheckTimeout bounds each listing and each call Check makes (default 10s,
// restarted by every progress notification of a call): a call that gets
// no answer in time is a finding.
func CheckTimeout(d time.Duration) Option {
	return func(c *config) { c.timeout = d }
}

// CheckTotal bounds the whole of Check (default 5m); a review that
// outlasts it fails the test.
func CheckTotal(d time.Duration) Option {
	return func(c *config) { c.total = d }
}

// checkOptions returns the reviewer's session options in the era of
// WithClient (2026-07-28 by default), with the test's answers when it
// gave any.
func (c *config) checkOptions() engine.Options {
	o := check.ClientOptions()
	o.Era = protocol.Modern
	p := c.client
	if p == nil {
		return o
	}
	if p.Era != 0 {
		o.Era = p.Era
	}
	o.ProtocolVersion = p.ProtocolVersion
	if p.Capabilities == nil && p.Elicit == nil && p.Sample == nil && p.Roots == nil {
		return o
	}
	o.Handlers = engine.Handlers{Elicit: p.Elicit, Sample: p.Sample}
	if p.Roots != nil {
		roots := append(protocol.List[protocol.Root]{}, p.Roots...)
		o.Handlers.Roots = func(context.Context) (*protocol.ListRootsResult, error) {
			return &protocol.ListRootsResult{Roots: roots}, nil
		}
	}
	o.Capabilities = p.Capabilities
	if o.Capabilities == nil {
		o.Capabilities = declared(p)
	}
	return o
}

// declared is what a client of package client with opts declares when
// opts.Capabilities is nil: what its handlers answer.
func declared(opts *client.Options) *protocol.ClientCapabilities {
	caps := &protocol.ClientCapabilities{}
	if opts.Elicit != nil {
		caps.Elicitation = &protocol.ElicitationCapability{Form: protocol.Object{}}
		if opts.ElicitURL {
			caps.Elicitation.URL = protocol.Object{}
		}
	}
	if opts.Sample != nil {
		caps.Sampling = &protocol.SamplingCapability{}
	}
	if opts.Roots != nil {
		caps.Roots = protocol.Object{"listChanged": []byte("true")}
	}
	return caps
}
