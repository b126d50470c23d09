package client

import (
	"context"
	"errors"
	"log/slog"
	"slices"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// maxFindings bounds the findings a client keeps: the latest are kept.
const maxFindings = 256

// Gates of a Finding.
const (
	gateAdmit   = review.GateAdmit
	gateConsume = review.GateConsume
)

// rulePolicy names a refusal by Options.Admit.
const rulePolicy = "policy"

// gateWire and ruleMessage name a message the client could not use.
const (
	gateWire    = "wire"
	ruleMessage = "message"
)

// Finding is what the Admit gate (a listed tool, resource, template or
// prompt) or the Consume gate (a tool's result) found wrong with what the
// server sent. A refusing finding is also the error a refused call
// returns: errors.As finds it.
type Finding struct {
	// Gate is "admit", "consume", or "wire" for a message the client
	// could not use (see Findings).
	Gate string
	// Item names what the finding is about: a tool's, prompt's or
	// template's name, a resource's uri.
	Item string
	// Rule is the stable identifier of the rule broken, such as
	// "input-schema-invalid" or "structured-content-schema" (the rules
	// mcpwire check applies), or "policy" for Options.Admit.
	Rule string
	// Path is a JSON pointer into the descriptor or result; "" for all
	// of it.
	Path string
	// Message says what is wrong in one sentence. It never quotes an
	// argument value or a header value.
	Message string
	// Refused is true when a MUST of the specification (or the caller's
	// policy) is broken: the item was withheld, the result not returned.
	// False is a warning (a SHOULD), with the item admitted anyway, or
	// any finding in Lenient mode.
	Refused bool
}

// Error describes the finding.
func (f *Finding) Error() string {
	what := "warning"
	if f.Refused {
		what = "refused"
	}
	s := "client: " + f.Gate + " " + what + ": "
	if f.Item != "" {
		s += f.Item + ": "
	}
	s += f.Rule
	if f.Path != "" {
		s += " at " + f.Path
	}
	return s + ": " + f.Message
}

// Findings returns what the client found wrong in what the server sent:
// what the gates found, the latest last (every refusal and every warning,
// each once however often its item is listed, at most the latest 256), then the messages it could not use at all,
// with Gate "wire" and Rule "message" (a line that is not JSON-RPC, a
// response to no request, a request a 2026-07-28 server may not send),
// which were dropped.
func (c *Client) Findings() []Finding {
	c.mu.Lock()
	out := append([]Finding(nil), c.findings...)
	c.mu.Unlock()
	wire := func(msg string) {
		out = append(out, Finding{Gate: gateWire, Rule: ruleMessage, Message: msg, Refused: true})
	}
	for _, p := range c.sess().Problems() {
		wire(p.Error())
	}
	if h := c.cur.Load().link.http; h != nil {
		for _, p := range h.Problems() {
			wire(p)
		}
	}
	return out
}

// judge turns review problems about item into findings, records and logs
// them, and returns the refusing ones as one error (nil: none refuse).
func (c *Client) judge(item string, problems []review.Problem) error {
	if len(problems) == 0 {
		return nil
	}
	fs := make([]Finding, len(problems))
	for i, p := range problems {
		fs[i] = Finding{Gate: p.Gate, Item: clip.String(item), Rule: p.Rule, Path: p.Path, Message: p.Message,
			Refused: !p.Advisory() && !c.opts.Lenient}
	}
	return c.record(fs)
}

// record keeps and logs findings and returns the refusing ones as one
// error. A finding already kept (the same tool listed again) is neither
// kept nor logged twice.
func (c *Client) record(fs []Finding) error {
	var refusals []error
	var fresh []Finding
	c.mu.Lock()
	for i := range fs {
		f := &fs[i]
		if f.Refused {
			refusals = append(refusals, f)
		}
		if !slices.Contains(c.findings, *f) {
			c.findings = append(c.findings, *f)
			fresh = append(fresh, *f)
		}
	}
	if over := len(c.findings) - maxFindings; over > 0 {
		c.findings = append(c.findings[:0], c.findings[over:]...)
	}
	c.mu.Unlock()
	log := c.opts.logger()
	for _, f := range fresh {
		level := slog.LevelWarn
		msg := "mcp client: a server's " + f.Gate + " finding"
		log.LogAttrs(context.Background(), level, msg, slog.String("server", c.sess().ServerInfo().Name),
			slog.String("item", f.Item), slog.String("rule", f.Rule), slog.String("path", f.Path),
			slog.Bool("refused", f.Refused), slog.String("message", f.Message))
	}
	return errors.Join(refusals...)
}
