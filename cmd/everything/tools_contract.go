package main

import (
	"context"
	"slices"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// contractTools show the tool contract: structured output of a non-object
// type, every content block, a failure inside the output schema, and a
// search whose results are links to registered resources, filtered by what
// the caller may see (search_evidence, evidence.go). brokenContractTool, a
// tool that breaks its own contract, is a fixture (see tools).
func contractTools() []tool.Tool {
	return []tool.Tool{tagCatalogTool(), evidenceBundleTool(), routeReportTool(), searchEvidenceTool()}
}

// tagCatalogTool returns an array: 2025-era clients see its output schema
// and result wrapped as {"result": ...}.
func tagCatalogTool() tool.Tool {
	return tool.New("tag_catalog", "Lists the tags in the catalog, as a JSON array of strings.",
		func(context.Context, struct{}) ([]string, error) {
			return []string{"alpha", "beta", "gamma"}, nil
		},
		tool.WithTitle("Tag catalog"),
		tool.ReadOnly(true), tool.OpenWorld(false))
}

// evidenceModified is the fixed lastModified of the evidence photo.
var evidenceModified = time.Date(2025, 1, 12, 15, 0, 58, 0, time.UTC)

// evidenceBundleTool returns one block of every kind, in a fixed order.
func evidenceBundleTool() tool.Tool {
	return tool.New("evidence_bundle", "Returns an evidence bundle of five content blocks: a text summary, a photo (1×1 PNG), a voice note (WAV), a link to the static text resource and the embedded case notes.",
		func(context.Context, struct{}) (*tool.Result, error) {
			return &tool.Result{Content: []tool.Content{
				tool.NewText("Evidence bundle for case 42: a photo, a voice note, a link to the static text and the case notes."),
				tool.NewImage(pixelPNG, "image/png",
					tool.Audience("user"), tool.Priority(0.8), tool.LastModified(evidenceModified)),
				tool.NewAudio(shortWAV, "audio/wav", tool.Audience("user", "assistant")),
				tool.NewResourceLink("test://static-text", "static-text",
					tool.LinkTitle("Static text"), tool.LinkDescription("The static text resource."),
					tool.LinkMimeType("text/plain")),
				tool.NewEmbeddedText("test://evidence/case-42/notes", "text/plain",
					"Case 42 notes: photo taken at the depot; voice note recorded on arrival.",
					tool.Priority(0.5), tool.BlockMeta(map[string]any{"dev.mcpwire.example/case": 42})),
			}}, nil
		},
		tool.WithTitle("Evidence bundle"),
		tool.WithIcons(tool.Icon{Src: "data:image/png;base64," + pngBase64, MimeType: "image/png", Sizes: []string{"1x1"}}),
		tool.ReadOnly(true), tool.OpenWorld(false))
}

type routeArgs struct {
	Region  string `json:"region" description:"Delivery region, such as eu-west." jsonschema:"minLength=1"`
	Date    string `json:"date" description:"Delivery date (YYYY-MM-DD)." jsonschema:"format=date" pattern:"^[0-9]{4}-[0-9]{2}-[0-9]{2}$"`
	Service string `json:"service,omitempty" description:"Service level; express halves the transit time." jsonschema:"enum=standard|express" default:"standard"`
}

// routeReport is route_report's structured output: also what it returns
// when it fails, with Accepted false.
type routeReport struct {
	Accepted bool     `json:"accepted" description:"Whether a route was planned."`
	Region   string   `json:"region" description:"The region asked for."`
	Date     string   `json:"date,omitempty" description:"The delivery date asked for."`
	Service  string   `json:"service,omitempty" description:"The service level asked for."`
	Hubs     []string `json:"hubs,omitempty" description:"Hubs the route passes through, in order."`
	ETAHours int      `json:"etaHours,omitempty" description:"Expected transit time in hours." jsonschema:"minimum=1"`
}

// routes are the regions route_report knows.
var routes = map[string]routeReport{
	"eu-west":  {Hubs: []string{"Dublin", "Amsterdam"}, ETAHours: 18},
	"us-east":  {Hubs: []string{"Newark", "Atlanta"}, ETAHours: 24},
	"ap-south": {Hubs: []string{"Mumbai", "Chennai"}, ETAHours: 30},
}

func knownRegions() string {
	names := make([]string, 0, len(routes))
	for r := range routes {
		names = append(names, r)
	}
	slices.Sort(names)
	return strings.Join(names, ", ")
}

// routeReportTool fails inside its contract: an unknown region or an
// impossible date gives an isError result whose structured content still
// conforms ({"accepted": false, ...}).
func routeReportTool() tool.Tool {
	return tool.New("route_report", "Plans a delivery route for a region on a date. An unknown region or an impossible date is reported with accepted: false.",
		func(_ context.Context, in routeArgs) (routeReport, error) {
			refused := routeReport{Accepted: false, Region: in.Region, Date: in.Date, Service: in.Service}
			r, ok := routes[in.Region]
			if !ok {
				return refused, tool.Fail("unknown region %q: known regions are %s", in.Region, knownRegions())
			}
			if _, err := time.Parse(time.DateOnly, in.Date); err != nil {
				return refused, tool.Fail("date %q is not a calendar date", in.Date)
			}
			r.Accepted, r.Region, r.Date, r.Service = true, in.Region, in.Date, in.Service
			if in.Service == "express" {
				r.ETAHours /= 2
			}
			return r, nil
		},
		tool.WithTitle("Route report"),
		tool.ReadOnly(true), tool.OpenWorld(false))
}

type breachArgs struct {
	Breach string `json:"breach,omitempty" description:"Which rule to break: schema (structured content that breaks the output schema), missing (no structured content) or block (malformed content blocks)." jsonschema:"enum=schema|missing|block" default:"schema"`
}

// brokenContractTool is a contract-violation demo: it returns results that
// break its own contract, so the runtime replaces them with an isError
// result naming the violation and logs it. It exists for the golden
// transcripts; a real tool never means to do this.
func brokenContractTool() tool.Tool {
	return tool.New("broken_contract", "Contract-violation demo: returns a result that breaks its own contract, to show that the runtime never sends it.",
		func(_ context.Context, in breachArgs) (*tool.Result, error) {
			switch in.Breach {
			case "missing":
				return tool.TextResult("a result without structured content"), nil
			case "block":
				return &tool.Result{
					Content: []tool.Content{
						&tool.Image{Data: "not base64!", MimeType: "image/png"},
						tool.NewText("ranked", tool.Priority(2)),
						tool.NewResourceLink("relative/path", "file"),
					},
					Structured: json.RawMessage(`{"count":1}`),
				}, nil
			}
			return &tool.Result{
				Content:    []tool.Content{tool.NewText(`{"count":-1,"extra":true}`)},
				Structured: map[string]any{"count": -1, "extra": true},
			}, nil
		},
		tool.WithTitle("Broken contract (demo)"),
		tool.WithOutputSchema(json.RawMessage(`{"type":"object","properties":{"count":{"type":"integer","minimum":0}},"required":["count"],"additionalProperties":false}`)))
}
