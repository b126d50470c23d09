package review

import (
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/schema"
)

// structured checks a result's structuredContent against the revision and
// the descriptor's outputSchema, and its text mirror (the specification's
// Tools page, "Structured Content").
func structured(rep *report, r protocol.Revision, descriptor json.RawMessage, res members, isError bool) {
	declared, out := declaredOutput(rep, r, descriptor)
	raw, present := res["structuredContent"]
	switch {
	case !present:
		if declared && !isError {
			rep.add(RuleStructuredMissing, "/structuredContent", "structuredContent is missing, but the tool declares an outputSchema (only an isError result may leave it out)")
		}
		return
	case !feature.Structured(r):
		rep.add(RuleStructuredRevision, "/structuredContent", "structuredContent is defined from 2025-06-18 on; a %s connection must not carry it", r)
		return
	case feature.ObjectOutput(r) && kind(raw) != "object":
		rep.add(RuleStructuredRevision, "/structuredContent", "on a %s connection structuredContent must be a JSON object, not %s (only 2026-07-28 allows any JSON value)", r, kind(raw))
	}
	if out != nil {
		for _, v := range out.Validate(raw) {
			if v.Keyword == schema.MoreKeyword {
				rep.add(RuleStructuredSchema, "/structuredContent", "structuredContent breaks the outputSchema in more places: %s", v.Message)
				continue
			}
			rep.add(RuleStructuredSchema, "/structuredContent"+v.Pointer, "structuredContent does not match the outputSchema: %s (%s)", v.Message, v.Keyword)
		}
	}
	if !mirrored(res["content"], raw) && !(feature.ObjectOutput(r) && mirrored(res["content"], wrapped(raw))) {
		rep.add(RuleStructuredTextMirror, "/content", "no text block holds the JSON serialisation of structuredContent, which clients that ignore structuredContent need")
	}
}

// declaredOutput reports whether the descriptor declares an outputSchema
// the revision defines, and returns it compiled; nil when it does not
// compile, which is reported (Tool reports why). A client calls the same
// tool many times: what a descriptor declares is kept (see outputs).
func declaredOutput(rep *report, r protocol.Revision, descriptor json.RawMessage) (bool, *schema.Schema) {
	if !feature.Structured(r) {
		return false, nil
	}
	o := outputs.of(descriptor)
	switch {
	case o.notObject:
		rep.add(RuleDescriptor, "", "the tool descriptor is not a JSON object, so structuredContent cannot be checked against an outputSchema")
		return false, nil
	case o.invalid:
		rep.add(RuleOutputSchemaInvalid, "", "the tool's outputSchema is not a valid JSON Schema, so structuredContent cannot be checked against it")
	}
	return o.declared, o.schema
}

// maxOutputs bounds the descriptors whose output schemas are kept.
const maxOutputs = 256

// output is what one descriptor declares of its output.
type output struct {
	notObject bool           // the descriptor is not a JSON object
	declared  bool           // it has an outputSchema
	invalid   bool           // which does not compile, or is not an object
	schema    *schema.Schema // compiled; nil unless declared and valid
}

// outputMemo keeps the outputs of the descriptors seen last, by their
// JSON, so that a schema is compiled once per tool and not per call.
type outputMemo struct {
	mu sync.Mutex
	m  map[string]output
}

// outputs is the package's memo, shared by every review.
var outputs outputMemo

// of returns what descriptor declares, computing it when it is not kept.
func (o *outputMemo) of(descriptor json.RawMessage) output {
	o.mu.Lock()
	out, ok := o.m[string(descriptor)]
	o.mu.Unlock()
	if ok {
		return out
	}
	out = declared(descriptor)
	o.mu.Lock()
	if o.m == nil || len(o.m) >= maxOutputs {
		o.m = map[string]output{}
	}
	o.m[string(descriptor)] = out
	o.mu.Unlock()
	return out
}

// declared reads and compiles a descriptor's outputSchema.
func declared(descriptor json.RawMessage) output {
	d, ok := object(descriptor)
	if !ok {
		return output{notObject: true}
	}
	raw, ok := d["outputSchema"]
	if !ok {
		return output{}
	}
	s, err := schema.Compile(raw)
	if err != nil || kind(raw) != "object" {
		return output{declared: true, invalid: true}
	}
	return output{declared: true, schema: s}
}

// mirrored reports whether some text block of content holds the JSON
// serialisation of structured: JSON equal to it as JSON Schema's "const"
// compares (key order, white space and number spelling ignored), or, for
// a JSON string, the string itself (as go-sdk and package tool write a
// string result).
func mirrored(content, structured json.RawMessage) bool {
	if structured == nil {
		return false
	}
	str, isString := text(structured)
	blocks, _ := array(content)
	var same *schema.Schema
	for _, raw := range blocks {
		b, ok := object(raw)
		if typ, _ := text(b["type"]); !ok || typ != "text" {
			continue
		}
		s, ok := text(b["text"])
		if !ok {
			continue
		}
		if isString && s == str {
			return true
		}
		if same == nil {
			var err error
			if same, err = schema.Compile(constSchema(structured)); err != nil {
				return false
			}
		}
		if same.Validate(json.RawMessage(s)) == nil {
			return true
		}
	}
	return false
}

// wrapped returns v of a structuredContent {"result": v}, the wrapping by
// which servers (ours, FastMCP) give a 2025 client, which needs an object,
// a value of another type; its text block carries v itself. It returns
// nil for anything else.
func wrapped(structured json.RawMessage) json.RawMessage {
	m, ok := object(structured)
	if !ok || len(m) != 1 {
		return nil
	}
	return m["result"]
}

// constSchema is the schema {"const": v}.
func constSchema(v json.RawMessage) json.RawMessage {
	out := make([]byte, 0, len(v)+10)
	out = append(out, `{"const":`...)
	out = append(out, v...)
	return append(out, '}')
}
