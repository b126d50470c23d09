package review

import (
	"fmt"
	"strconv"

	"github.com/mcpwire/mcpwire/protocol"
)

// Problem is one finding of the review.
type Problem struct {
	// Gate is the gate the finding belongs to: [GateAdmit] or
	// [GateConsume] here; the command adds "discover" and "invoke".
	Gate string `json:"gate"`
	// Rule is the stable kebab-case identifier of the broken rule, one
	// of the Rule* constants (or a header.ID* constant).
	Rule string `json:"rule"`
	// Path is a JSON pointer into the descriptor or result, "" for the
	// whole of it.
	Path string `json:"path,omitempty"`
	// Message is one clear sentence. It never holds a header value or an
	// argument value; names quoted from the descriptor are clipped.
	Message string `json:"message"`

	advisory bool // breaks a SHOULD, not a MUST (see Advisory)
}

// Advisory reports whether the problem breaks a SHOULD of the
// specification rather than a MUST: a tool name outside the recommended
// characters (Tools, "Tool Names", all SHOULD-level), a text block that
// does not mirror structuredContent (Tools, "Structured Content"), an
// x-mcp-header on a parameter whose name looks like a secret (servers
// SHOULD NOT annotate sensitive parameters), a 2026-07-28 result without
// resultType (which clients read as "complete"). A client warns of an
// advisory problem and admits or consumes what it concerns anyway.
func (p Problem) Advisory() bool { return p.advisory }

// advisoryRules are the rules every problem of which is advisory.
var advisoryRules = map[string]bool{RuleStructuredTextMirror: true, RuleHeaderSensitive: true}

// Gates of the review this package decides.
const (
	GateAdmit   = "admit"   // a listed descriptor: may a client show and call it?
	GateConsume = "consume" // a tools/call result: may a client use it?
)

// report collects the problems of one call of the package.
type report struct {
	gate string
	list []Problem
}

// add records a problem; the message is formatted with fmt.Sprintf.
func (r *report) add(rule, path, format string, args ...any) {
	r.list = append(r.list, Problem{Gate: r.gate, Rule: rule, Path: path, Message: fmt.Sprintf(format, args...), advisory: advisoryRules[rule]})
}

// advise records an advisory problem of a rule whose other problems are
// not.
func (r *report) advise(rule, path, format string, args ...any) {
	r.add(rule, path, format, args...)
	r.list[len(r.list)-1].advisory = true
}

// known checks the revision; an unknown one is the only problem.
func (r *report) known(revision string) (protocol.Revision, bool) {
	v := protocol.ParseRevision(revision)
	if !v.Known() {
		r.add(RuleRevision, "", "revision %s is not one this reviewer knows (it knows %s to %s)",
			strconv.Quote(clipped(revision)), protocol.Revisions()[0], protocol.Latest)
	}
	return v, v.Known()
}
