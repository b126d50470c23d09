package mcptest

import (
	"testing"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/peer/check"
	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// report fails t once per finding of rep, and once if the review could
// not run.
func report(t testing.TB, rep *check.Report) {
	t.Helper()
	for _, tr := range rep.Tools {
		findings(t, "tool "+clip.Quote(tr.Name), tr.Problems)
	}
	for _, l := range []struct {
		noun  string
		items []*check.ItemReport
	}{
		{"resource", rep.Resources},
		{"resource template", rep.ResourceTemplates},
		{"prompt", rep.Prompts},
	} {
		for _, it := range l.items {
			findings(t, l.noun+" "+clip.Quote(itemName(it)), it.Problems)
		}
	}
	findings(t, "the server", rep.Problems)
	if f := rep.Failure; f != nil {
		t.Errorf("mcptest.Check: the review could not run (%s): %s", f.Stage, f.Error)
	}
}

// itemName names a resource or template by its URI, a prompt by its name.
func itemName(it *check.ItemReport) string {
	if it.URI != "" {
		return it.URI
	}
	return it.Name
}

// findings fails t once per problem of what.
func findings(t testing.TB, what string, problems []review.Problem) {
	t.Helper()
	for _, p := range problems {
		t.Errorf("mcptest.Check: %s: %s %s at %q: %s", what, p.Gate, p.Rule, p.Path, p.Message)
	}
}
