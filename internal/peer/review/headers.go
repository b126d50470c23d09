package review

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/header"
)

// HeaderVerdict is one x-mcp-header annotation of a descriptor and its
// verdict: names and paths only, never values.
type HeaderVerdict struct {
	// Header is the {Name} of Mcp-Param-{Name} as written; "" when the
	// annotation is not a JSON string.
	Header string `json:"header"`
	// Path is the JSON pointer, within the descriptor, of the annotated
	// property schema, such as "/inputSchema/properties/region".
	Path string `json:"path"`
	// Verdict is "ok" or the rule id that refuses the annotation (one of
	// the RuleHeader* constants).
	Verdict string `json:"verdict"`
}

// VerdictOK is the verdict of an admitted annotation.
const VerdictOK = "ok"

// Headers lists every x-mcp-header annotation of a tool descriptor with
// its verdict, whatever the revision: those of inputSchema in schema order
// (by package header's rules, with the default sensitive names), then any
// in outputSchema, each refused with "header-placement". A descriptor that
// is not an object, or a schema that is not JSON, gives no verdicts (Tool
// reports why).
func Headers(descriptor json.RawMessage) []HeaderVerdict {
	d, ok := object(descriptor)
	if !ok {
		return nil
	}
	var out []HeaderVerdict
	for _, s := range []struct {
		member string
		output bool
	}{{"inputSchema", false}, {"outputSchema", true}} {
		raw, ok := d[s.member]
		if !ok {
			continue
		}
		for _, v := range verdicts(raw, s.output) {
			hv := HeaderVerdict{Header: v.Header, Path: "/" + s.member + v.Pointer, Verdict: VerdictOK}
			if v.Err != nil {
				hv.Verdict = v.Err.ID()
			}
			out = append(out, hv)
		}
	}
	return out
}

// verdicts returns package header's verdicts on an input or output schema;
// none for a schema that is not JSON.
func verdicts(raw json.RawMessage, output bool) []header.Verdict {
	var vs []header.Verdict
	var err error
	if output {
		vs, err = header.OutputVerdicts(raw)
	} else {
		vs, err = header.Verdicts(raw)
	}
	if err != nil {
		return nil
	}
	return vs
}

// headerProblems reports each refused annotation of a schema (the
// descriptor's inputSchema, or its outputSchema when output is set).
func headerProblems(rep *report, raw json.RawMessage, output bool) {
	base := "/inputSchema"
	if output {
		base = "/outputSchema"
	}
	for _, v := range verdicts(raw, output) {
		if v.Err == nil {
			continue
		}
		msg := "x-mcp-header " + quoted(v.Header) + ": " + v.Err.Rule.Error()
		if v.Err.Detail != "" {
			msg += " (" + clipped(v.Err.Detail) + ")"
		}
		rep.add(v.Err.ID(), base+v.Pointer, "%s", msg)
	}
}
