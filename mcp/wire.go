package mcp

import (
	"slices"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
)

var defaultInputSchema = json.RawMessage(`{"type":"object"}`)

// wireTool is a descriptor with the fields revision r defines.
func (e *entry) wireTool(r protocol.Revision) protocol.Tool {
	t := e.tool
	w := protocol.Tool{Name: t.Name, Description: t.Description, InputSchema: t.InputSchema}
	if w.InputSchema == nil {
		w.InputSchema = defaultInputSchema
	}
	if feature.ToolAnnotations(r) {
		w.Annotations = t.Annotations
	}
	if feature.Titles(r) {
		w.Title = t.Title
	}
	switch {
	case r.Modern():
		w.OutputSchema = t.OutputSchema
	case feature.Structured(r):
		w.OutputSchema = e.legacyOutput
	}
	if feature.ContentMeta(r) {
		w.Meta = e.meta
	}
	if feature.Icons(r) {
		w.Icons = t.Icons
	}
	return w
}

// isObjectSchema reports whether a schema's root is {"type":"object"}.
func isObjectSchema(schema json.RawMessage) bool {
	f, err := jsonx.Fields(schema, "type")
	return err == nil && string(f[0]) == `"object"`
}

// legacyOutputSchema makes an output schema acceptable to 2025-era clients,
// which require an object root: a non-object schema S is advertised as
// {"type":"object","properties":{"result":S},"required":["result"]}, and
// results are wrapped to match (see needsWrap).
func legacyOutputSchema(schema json.RawMessage) json.RawMessage {
	if schema == nil || isObjectSchema(schema) {
		return schema
	}
	obj, err := jsonx.ParseObject(schema)
	if err != nil {
		return schema
	}
	// Keywords that only mean something at a document's root move up to
	// the wrapper, so that "#/$defs/..." references still resolve.
	rootOnly := []string{"$schema", "$id", "$defs", "definitions"}
	out := make([]byte, 0, len(schema)+64)
	out = append(out, `{"type":"object","properties":{"result":{`...)
	first := true
	obj.Each(func(key string, value json.RawMessage) {
		if slices.Contains(rootOnly, key) {
			return
		}
		if !first {
			out = append(out, ',')
		}
		first = false
		out = jsonx.AppendString(out, key)
		out = append(out, ':')
		out = append(out, value...)
	})
	out = append(out, `}},"required":["result"]`...)
	for _, key := range rootOnly {
		if v := obj.Get(key); v != nil {
			out = append(out, ',')
			out = jsonx.AppendString(out, key)
			out = append(out, ':')
			out = append(out, v...)
		}
	}
	return append(out, '}')
}

// needsWrap reports whether a structured value must be wrapped as
// {"result": v} for a 2025-era client: always when the tool's output schema
// is not object-rooted (its advertised schema was wrapped the same way), and
// for a non-object value when the tool has no output schema.
func (e *entry) needsWrap(v json.RawMessage) bool {
	if e.tool.OutputSchema != nil {
		return !e.objectOutput
	}
	return len(v) == 0 || v[0] != '{'
}

// wrapResult wraps a structured value as {"result": v}.
func wrapResult(v json.RawMessage) json.RawMessage {
	out := make([]byte, 0, len(v)+12)
	out = append(out, `{"result":`...)
	out = append(out, v...)
	return append(out, '}')
}
