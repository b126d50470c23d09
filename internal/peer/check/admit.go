package check

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/review"
)

// toolReports makes one report per listed tool, not yet reviewed.
func toolReports(items []json.RawMessage) []*ToolReport {
	out := make([]*ToolReport, len(items))
	for i, it := range items {
		out[i] = &ToolReport{Name: idOf(it, "name"), Outcome: OutcomeNotCalled, descriptor: it,
			Problems: []review.Problem{}, Headers: []review.HeaderVerdict{}}
	}
	return out
}

// itemReports makes one report per listed resource, template or prompt,
// named by its name member and located by its uri member (none for a
// prompt).
func itemReports(items []json.RawMessage, name, uri string) []*ItemReport {
	out := make([]*ItemReport, len(items))
	for i, it := range items {
		out[i] = &ItemReport{Name: idOf(it, name), URI: idOf(it, uri), descriptor: it, Problems: []review.Problem{}}
	}
	return out
}

// admit reviews every descriptor listed, each on its own: one that is
// refused never stops the review of the others.
func admit(rep *Report) {
	rev := rep.Revision
	for _, t := range rep.Tools {
		t.Problems = append(t.Problems, review.Tool(rev, t.descriptor)...)
		t.Headers = append(t.Headers, review.Headers(t.descriptor)...)
		t.described = len(t.Problems) == 0
		t.Admitted = t.described
	}
	for _, l := range []struct {
		items []*ItemReport
		rule  func(string, json.RawMessage) []review.Problem
	}{
		{rep.Resources, review.Resource},
		{rep.ResourceTemplates, review.ResourceTemplate},
		{rep.Prompts, review.Prompt},
	} {
		for _, it := range l.items {
			it.Problems = append(it.Problems, l.rule(rev, it.descriptor)...)
			it.Admitted = len(it.Problems) == 0
		}
	}
}
