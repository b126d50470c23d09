package main

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/review"
)

// toolReports makes one report per listed tool, not yet reviewed.
func toolReports(items []json.RawMessage) []*toolReport {
	out := make([]*toolReport, len(items))
	for i, it := range items {
		out[i] = &toolReport{Name: idOf(it, "name"), Outcome: outcomeNotCalled, descriptor: it,
			Problems: []review.Problem{}, Headers: []review.HeaderVerdict{}}
	}
	return out
}

// itemReports makes one report per listed resource, template or prompt,
// named by its name member and located by its uri member (none for a
// prompt).
func itemReports(items []json.RawMessage, name, uri string) []*itemReport {
	out := make([]*itemReport, len(items))
	for i, it := range items {
		out[i] = &itemReport{Name: idOf(it, name), URI: idOf(it, uri), descriptor: it, Problems: []review.Problem{}}
	}
	return out
}

// admit reviews every descriptor listed, each on its own: one that is
// refused never stops the review of the others.
func admit(rep *report) {
	rev := rep.Revision
	for _, t := range rep.Tools {
		t.Problems = append(t.Problems, review.Tool(rev, t.descriptor)...)
		t.Headers = append(t.Headers, review.Headers(t.descriptor)...)
		t.described = len(t.Problems) == 0
		t.Admitted = t.described
	}
	for _, l := range []struct {
		items []*itemReport
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
