package main

import (
	"cmp"
	"context"
	"math"
	"slices"
	"strings"
	"unicode"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/schema"
	"github.com/mcpwire/mcpwire/tool"
)

// evidenceItem is one evidence document: a registered resource under
// evidence://, which search_evidence finds. A restricted one is for
// operators only: it is neither registered for, nor found for, anyone else.
type evidenceItem struct {
	slug       string // the URI's path, such as "case-42/depot-notes"
	title      string
	region     string
	restricted bool
	text       string
}

// evidence is the catalog, in listing order.
var evidence = []evidenceItem{
	{"case-42/depot-notes", "Depot notes, case 42", "eu-west", false,
		"Notes from the Dublin depot: crate 7 arrived with a broken seal; the photo was taken at the loading bay."},
	{"case-42/driver-statement", "Driver statement, case 42", "eu-west", false,
		"The driver recorded a voice note on arrival: the seal of crate 7 was broken, nothing was missing at the first count."},
	{"case-42/incident-report", "Incident report, case 42", "eu-west", true,
		"Security incident at the Dublin depot: the camera shows a forced entry the night before; the seal of crate 7 was cut."},
	{"case-17/manifest", "Shipping manifest, case 17", "us-east", false,
		"Manifest of the Newark to Atlanta run: 12 crates; crate 3 is flagged for a customs check."},
	{"case-17/customs-hold", "Customs hold, case 17", "us-east", true,
		"Customs hold on crate 3 at Newark: undeclared lithium batteries; the shipper is under review."},
	{"case-8/delivery-receipt", "Delivery receipt, case 8", "ap-south", false,
		"Signed delivery receipt from the Chennai hub: all 4 crates delivered, one of them dented."},
}

// uri is the item's resource URI.
func (e evidenceItem) uri() string { return "evidence://" + e.slug }

// visibleTo reports whether caller may see the item.
func (e evidenceItem) visibleTo(caller *auth.Principal) bool {
	return !e.restricted || caller.HasScope(operatorScope)
}

// resource is the item as a registered resource. A restricted item's read
// also checks the request's caller, answering "not found" to anyone else,
// so that it stays hidden where one server serves several callers.
func (e evidenceItem) resource() mcp.Resource {
	desc := "Evidence from " + e.region + "."
	if e.restricted {
		desc = "Restricted evidence from " + e.region + " (operators only)."
	}
	contents := []mcp.ResourceContents{mcp.TextContents(e.uri(), "text/plain", e.text)}
	return mcp.Resource{
		URI: e.uri(), Name: e.slug, Title: e.title, Description: desc, MimeType: "text/plain",
		Read: func(ctx context.Context, _ string) ([]mcp.ResourceContents, error) {
			if !e.visibleTo(callerOf(ctx)) {
				return nil, mcp.ErrResourceNotFound
			}
			return contents, nil
		},
	}
}

// callerOf returns the caller of the request ctx serves, nil when none is
// known.
func callerOf(ctx context.Context) *auth.Principal {
	if r := mcp.RequestFrom(ctx); r != nil {
		return r.Caller
	}
	return nil
}

// evidenceFor returns the items caller may see, in catalog order.
func evidenceFor(caller *auth.Principal) []evidenceItem {
	var out []evidenceItem
	for _, e := range evidence {
		if e.visibleTo(caller) {
			out = append(out, e)
		}
	}
	return out
}

// The bound and the default of search_evidence's limit, as searchSchema
// states them.
const (
	maxEvidenceResults     = 10
	defaultEvidenceResults = 5
)

// searchSchema is search_evidence's input schema, given by hand for the
// x-mcp-header annotation on region (2026-07-28 HTTP clients mirror it into
// an Mcp-Param-Region header), which no struct tag expresses.
const searchSchema = `{"type":"object","properties":{` +
	`"query":{"type":"string","minLength":1,"description":"Words to look for in the evidence's titles and texts."},` +
	`"limit":{"type":"integer","minimum":1,"maximum":10,"default":5,"description":"The most results to return, 1 to 10."},` +
	`"region":{"type":"string","description":"Only evidence from this region, such as eu-west.","x-mcp-header":"Region"}},` +
	`"required":["query"],"additionalProperties":false}`

// searchArgs are search_evidence's arguments; Limit is 5 when not given
// (the schema's default, filled in before the handler runs; 0 means the
// same here).
type searchArgs struct {
	Query  string `json:"query"`
	Limit  int    `json:"limit,omitempty"`
	Region string `json:"region,omitempty"`
}

// evidenceHit is one search result.
type evidenceHit struct {
	URI   string  `json:"uri" description:"The evidence resource; read it with resources/read."`
	Title string  `json:"title" description:"The evidence's title."`
	Score float64 `json:"score" description:"Relevance: the share of the query's words found, a word in the title counting fully and one in the text only half." jsonschema:"minimum=0,maximum=1"`
}

// searchEvidenceTool finds evidence documents by words. Its output is a
// JSON array (wrapped as {"result": [...]} for 2025-era clients), and its
// result also carries one resource_link per hit. A caller never sees the
// URI of evidence they may not see: restricted items are left out before
// scoring.
func searchEvidenceTool() tool.Tool {
	out, err := schema.For[[]evidenceHit]()
	if err != nil {
		panic(err)
	}
	return tool.New("search_evidence", "Searches the evidence documents for words, best match first; each hit is a resource to read.",
		func(ctx context.Context, in searchArgs) (*tool.Result, error) {
			found := searchEvidence(in, callerOf(ctx))
			hits := make([]evidenceHit, len(found))
			for i, f := range found {
				hits[i] = evidenceHit{URI: f.item.uri(), Title: f.item.title, Score: f.score}
			}
			res, err := tool.StructuredResult(hits)
			if err != nil {
				return nil, err
			}
			for _, f := range found {
				res.Content = append(res.Content, f.item.resource().Link())
			}
			return res, nil
		},
		tool.WithTitle("Search evidence"),
		tool.WithInputSchema(json.RawMessage(searchSchema)),
		tool.WithOutputSchema(out),
		tool.ReadOnly(true), tool.OpenWorld(false))
}

// scored is an item and its score.
type scored struct {
	item  evidenceItem
	score float64
}

// searchEvidence returns the items caller may see that match in's query
// (and region), best first, then by URI, at most in.Limit of them.
func searchEvidence(in searchArgs, caller *auth.Principal) []scored {
	terms := uniqueWords(in.Query)
	var found []scored
	for _, e := range evidenceFor(caller) {
		if in.Region != "" && e.region != in.Region {
			continue
		}
		if s := score(terms, e); s > 0 {
			found = append(found, scored{e, s})
		}
	}
	slices.SortStableFunc(found, func(a, b scored) int {
		return cmp.Or(cmp.Compare(b.score, a.score), strings.Compare(a.item.uri(), b.item.uri()))
	})
	limit := in.Limit
	if limit <= 0 {
		limit = defaultEvidenceResults
	}
	return found[:min(limit, maxEvidenceResults, len(found))]
}

// score is the share of terms found in e: a term in the title counts 1,
// one only in the text 0.5. It is rounded to two decimals.
func score(terms []string, e evidenceItem) float64 {
	if len(terms) == 0 {
		return 0
	}
	title, text := uniqueWords(e.title), uniqueWords(e.text)
	sum := 0.0
	for _, t := range terms {
		switch {
		case slices.Contains(title, t):
			sum++
		case slices.Contains(text, t):
			sum += 0.5
		}
	}
	return math.Round(sum/float64(len(terms))*100) / 100
}

// uniqueWords returns the lower-case words of s (runs of letters and
// digits), each once, in order.
func uniqueWords(s string) []string {
	var out []string
	for _, w := range strings.FieldsFunc(strings.ToLower(s), func(r rune) bool {
		return !unicode.IsLetter(r) && !unicode.IsDigit(r)
	}) {
		if !slices.Contains(out, w) {
			out = append(out, w)
		}
	}
	return out
}
