package main

import (
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// knownFinding is a refusal that is a server's bug per the specification,
// not a wrong rule of ours: it is reported, and does not fail the run.
type knownFinding struct {
	server, item, rule string
	why                string // the specification's section it breaks
}

// known are the refusals expected from the servers run.sh drives. Each
// names the specification section the server breaks.
var known = []knownFinding{}

// isKnown returns the reason a refusal is expected, or "".
func isKnown(server string, f client.Finding) string {
	for _, k := range known {
		if k.server == server && k.item == f.Item && k.rule == f.Rule {
			return k.why
		}
	}
	return ""
}

// judgeFindings prints every finding and fails on a refusal that is not
// known.
func judgeFindings(r *harness.Report, server string, findings []client.Finding) {
	var refused, expected, warnings int
	var first string
	for _, f := range findings {
		line := describe(f)
		switch {
		case !f.Refused:
			warnings++
			r.Info("warning: %s", line)
		case isKnown(server, f) != "":
			expected++
			r.Info("expected refusal (%s): %s", isKnown(server, f), line)
		default:
			refused++
			if first == "" {
				first = line
			}
			r.Info("REFUSED: %s", line)
		}
	}
	if refused > 0 {
		r.Fail("refusals", "%d refusals, %d expected, %d warnings; first: %s", refused, expected, warnings, first)
		return
	}
	r.Pass("refusals", "none unexpected (%d expected, %d warnings)", expected, warnings)
}

// describe is one finding on one line: gate, item, rule, path, message.
func describe(f client.Finding) string {
	path := f.Path
	if path == "" {
		path = "(whole)"
	}
	return f.Gate + " " + f.Item + " rule=" + f.Rule + " path=" + path + ": " + f.Message
}
