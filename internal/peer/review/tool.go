package review

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/schema"
)

// hints are the boolean members of ToolAnnotations (the specification's
// Tools page, "Tool Annotations").
var hints = []string{"readOnlyHint", "destructiveHint", "idempotentHint", "openWorldHint"}

// Tool reviews one tools/list descriptor as seen on a connection that
// negotiated revision ("2024-11-05" … "2025-11-25", or "2026-07-28"). It
// returns nil when the tool is admitted; otherwise every problem found, in
// the order name, title and description, annotations, inputSchema (with
// its x-mcp-header annotations on 2026-07-28), outputSchema. A
// descriptor that is not a JSON object gives that one problem. See the
// package documentation for the rules.
func Tool(revision string, descriptor json.RawMessage) []Problem {
	rep, r, d, ok := start(revision, descriptor, "tool")
	if !ok {
		return rep.list
	}
	toolName(rep, d)
	optionalStrings(rep, "", d, "title", "description")
	toolAnnotations(rep, d)
	inputSchema(rep, r, d)
	outputSchema(rep, r, d)
	return rep.list
}

// toolName applies the name rule: 1 to 128 of A-Z, a-z, 0-9, '_', '-' and
// '.' (the specification's Tools page, "Tool Names"), as the server does
// at registration.
func toolName(rep *report, d members) {
	name, ok := required(rep, RuleToolName, "", d, "name")
	switch msg := "tool name %s is invalid: it must be 1 to 128 characters of A-Z, a-z, 0-9, '_', '-' and '.'"; {
	case ok && name == "":
		rep.add(RuleToolName, "/name", msg, quoted(name))
	case ok && !contract.ValidName(name):
		rep.advise(RuleToolName, "/name", msg, quoted(name))
	}
}

// toolAnnotations checks that annotations is an object whose hints are
// booleans and whose title is a string.
func toolAnnotations(rep *report, d members) {
	a, ok := optionalObject(rep, RuleFieldType, "", d, "annotations")
	if !ok {
		return
	}
	for _, h := range hints {
		if v, ok := a[h]; ok && kind(v) != "boolean" {
			rep.add(RuleAnnotationHint, at("/annotations", h), "annotations.%s must be a boolean, not %s", h, kind(v))
		}
	}
	optionalStrings(rep, "/annotations", a, "title")
}

// inputSchema checks that inputSchema is there, compiles, and has an
// object root, and on 2026-07-28 applies the x-mcp-header rules to it.
func inputSchema(rep *report, r protocol.Revision, d members) {
	raw, ok := d["inputSchema"]
	if !ok || kind(raw) == "null" {
		rep.add(RuleInputSchemaMissing, "/inputSchema", `the tool has no inputSchema (a tool without arguments declares {"type":"object"})`)
		return
	}
	s, err := schema.Compile(raw)
	if err != nil {
		rep.add(RuleInputSchemaInvalid, "/inputSchema", "inputSchema is not a valid JSON Schema: %v", err)
		return
	}
	if !s.IsObjectRoot() {
		rep.add(RuleInputSchemaRoot, "/inputSchema", `inputSchema's root must declare "type": "object": arguments are always a JSON object`)
	}
	if r.Modern() {
		headerProblems(rep, raw, false)
	}
}

// outputSchema checks that an outputSchema appears only from 2025-06-18
// on, compiles, has an object root on the 2025 revisions, and on
// 2026-07-28 holds no x-mcp-header annotation.
func outputSchema(rep *report, r protocol.Revision, d members) {
	raw, ok := d["outputSchema"]
	switch {
	case !ok:
		return
	case !feature.Structured(r):
		rep.add(RuleOutputSchemaRevision, "/outputSchema", "outputSchema is defined from 2025-06-18 on; a %s connection must not carry it", r)
		return
	case kind(raw) != "object":
		rep.add(RuleOutputSchemaInvalid, "/outputSchema", "outputSchema must be a JSON Schema object, not %s", kind(raw))
		return
	}
	s, err := schema.Compile(raw)
	if err != nil {
		rep.add(RuleOutputSchemaInvalid, "/outputSchema", "outputSchema is not a valid JSON Schema: %v", err)
		return
	}
	if feature.ObjectOutput(r) && !s.IsObjectRoot() {
		rep.add(RuleOutputSchemaRoot, "/outputSchema", `on a %s connection outputSchema's root must declare "type": "object" (only 2026-07-28 allows any root); clients of this revision (the TypeScript SDK among them) reject the whole tools/list otherwise`, r)
	}
	if r.Modern() {
		headerProblems(rep, raw, true)
	}
}
