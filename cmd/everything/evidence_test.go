package main

import (
	"context"
	"encoding/json"
	"errors"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
)

var (
	anonymous = (*auth.Principal)(nil)
	reader    = &auth.Principal{Subject: "bob", Scopes: []string{"reader"}}
	operator  = &auth.Principal{Subject: "ada", Scopes: []string{"operator"}}
)

// allWords is every word of every evidence title and text: queries that
// between them find every item.
func allWords() []string {
	var words []string
	for _, e := range evidence {
		for _, w := range uniqueWords(e.title + " " + e.text) {
			if !slices.Contains(words, w) {
				words = append(words, w)
			}
		}
	}
	return words
}

// No query finds restricted evidence for a caller without the operator
// scope; for an operator, some query finds each restricted item. Every
// result is sorted, scored within [0, 1] and within the limit.
func TestSearchEvidenceHidesRestricted(t *testing.T) {
	seen := map[string]bool{}
	for _, w := range allWords() {
		for _, caller := range []*auth.Principal{anonymous, reader, operator} {
			for _, limit := range []int{0, 1, 3, maxEvidenceResults} {
				found := searchEvidence(searchArgs{Query: w + " crate", Limit: limit}, caller)
				if limit > 0 && len(found) > limit {
					t.Errorf("%q limit %d: %d results", w, limit, len(found))
				}
				for i, f := range found {
					if f.item.restricted && !caller.HasScope(operatorScope) {
						t.Errorf("%q found restricted %s for %+v", w, f.item.uri(), caller)
					}
					if f.score <= 0 || f.score > 1 {
						t.Errorf("%q: score %v of %s is outside (0, 1]", w, f.score, f.item.uri())
					}
					if i > 0 && found[i-1].score < f.score {
						t.Errorf("%q: results not best first: %v", w, found)
					}
					if caller == operator {
						seen[f.item.uri()] = true
					}
				}
			}
		}
	}
	for _, e := range evidence {
		if !seen[e.uri()] {
			t.Errorf("no query finds %s for an operator", e.uri())
		}
	}
	if got := searchEvidence(searchArgs{Query: "crate", Region: "us-east"}, operator); len(got) != 2 {
		t.Errorf("region us-east: %v, want the manifest and the customs hold", got)
	}
}

// The schema states the bound and the default the handler applies, and
// marks region, and only region, for an Mcp-Param-Region header.
func TestSearchSchemaMatchesTheHandler(t *testing.T) {
	var sch struct {
		Properties map[string]map[string]any `json:"properties"`
	}
	if err := json.Unmarshal([]byte(searchSchema), &sch); err != nil {
		t.Fatal(err)
	}
	limit := sch.Properties["limit"]
	if limit["maximum"] != float64(maxEvidenceResults) || limit["default"] != float64(defaultEvidenceResults) || limit["minimum"] != 1.0 {
		t.Errorf("limit's schema %v does not match maxEvidenceResults %d and defaultEvidenceResults %d", limit, maxEvidenceResults, defaultEvidenceResults)
	}
	for name, p := range sch.Properties {
		if got, want := p["x-mcp-header"], map[bool]any{true: "Region", false: nil}[name == "region"]; got != want {
			t.Errorf("%s: x-mcp-header %v, want %v", name, got, want)
		}
	}
	if got := searchEvidence(searchArgs{Query: "case"}, operator); len(got) != defaultEvidenceResults {
		t.Errorf("no limit: %d results, want %d", len(got), defaultEvidenceResults)
	}
}

// Every URI search_evidence returns, and every link it carries, names a
// resource that resources/list lists and resources/read reads for the same
// caller; the restricted ones appear nowhere for anyone else.
func TestSearchEvidenceLinksRegisteredResources(t *testing.T) {
	for _, caller := range []string{"", "bob:reader", "ada:operator"} {
		s := startRaw(t, "-page-size", "100", "-watch-interval", "0", "-caller", caller)
		s.initialize()
		s.send(`{"jsonrpc":"2.0","id":"l","method":"resources/list"}`)
		list := s.next()
		s.send(`{"jsonrpc":"2.0","id":"s","method":"tools/call","params":{"name":"search_evidence","arguments":{"query":"case crate seal customs","limit":10}}}`)
		line := s.next()
		var res struct {
			Result struct {
				Content []struct {
					Type string `json:"type"`
					URI  string `json:"uri"`
				} `json:"content"`
				Structured struct {
					Result []evidenceHit `json:"result"`
				} `json:"structuredContent"`
			} `json:"result"`
		}
		if err := json.Unmarshal([]byte(line), &res); err != nil {
			t.Fatalf("caller %q: %v: %s", caller, err, line)
		}
		hits := res.Result.Structured.Result
		links := 0
		for _, c := range res.Result.Content {
			if c.Type == "resource_link" {
				if links >= len(hits) || hits[links].URI != c.URI {
					t.Errorf("caller %q: link %d is %s, not hit %d", caller, links, c.URI, links)
				}
				links++
			}
		}
		if links != len(hits) || len(hits) == 0 {
			t.Errorf("caller %q: %d hits, %d links", caller, len(hits), links)
		}
		for _, h := range hits {
			if !strings.Contains(list, `"uri":"`+h.URI+`"`) {
				t.Errorf("caller %q: hit %s is not listed", caller, h.URI)
			}
			s.send(`{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"` + h.URI + `"}}`)
			if r := s.next(); !strings.Contains(r, `"contents"`) {
				t.Errorf("caller %q: reading %s: %s", caller, h.URI, r)
			}
		}
		restricted := strings.Contains(list, "incident-report") || strings.Contains(line, "incident-report") ||
			strings.Contains(list, "customs-hold") || strings.Contains(line, "customs-hold")
		if want := caller == "ada:operator"; restricted != want {
			t.Errorf("caller %q: restricted evidence shown = %v, want %v", caller, restricted, want)
		}
	}
}

// A restricted item's read answers "not found" to a request without the
// operator scope (here, none at all), whoever registered it.
func TestRestrictedReadChecksTheCaller(t *testing.T) {
	for _, e := range evidence {
		_, err := e.resource().Read(context.Background(), e.uri())
		if got := errors.Is(err, mcp.ErrResourceNotFound); got != e.restricted {
			t.Errorf("%s: not found = %v (%v), want %v", e.uri(), got, err, e.restricted)
		}
	}
}
