package contract

import (
	"bytes"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/header"
	"github.com/mcpwire/mcpwire/schema"
	"github.com/mcpwire/mcpwire/tool"
)

// Contract is a registered tool's compiled contract: the descriptor, the
// handler to run (middlewares applied), and what compiling the schemas
// learnt, kept for every call. It never changes after Compile.
type Contract struct {
	tool    tool.Tool
	handler tool.Handler

	in  *schema.Schema
	out *schema.Schema // nil when the tool has no output schema

	// trivialInput marks an input schema that accepts every object, such
	// as {"type":"object"}: arguments are passed on without any work.
	trivialInput bool
	// emptyArgs is what an empty arguments object becomes (defaults
	// filled in) when it is valid; nil when "{}" is invalid.
	emptyArgs json.RawMessage
	// emptyDefaulted reports whether emptyArgs differs from "{}".
	emptyDefaulted bool

	// headers are the admitted x-mcp-header annotations.
	headers []header.Annotation
}

var objectSchema = json.RawMessage(`{"type":"object"}`)

// ValidName reports whether name is a valid tool (or prompt) name: 1 to
// 128 ASCII letters, digits, '_', '-' and '.' (^[A-Za-z0-9_.-]{1,128}$).
// It is written out rather than a regexp: compiling that one at package
// initialisation cost every server about 0.4 ms and 1,700 allocations
// (the bounded repeat expands into 128 copies of the class).
func ValidName(name string) bool {
	if len(name) < 1 || len(name) > 128 {
		return false
	}
	for i := range len(name) {
		switch c := name[i]; {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '.', c == '-':
		default:
			return false
		}
	}
	return true
}

// Compile checks a descriptor and compiles its schemas, for calls that
// run h (t's handler with the server's middlewares; nil means t.Handler):
// a problem tool.New found (t.Err), the name (^[A-Za-z0-9_.-]{1,128}$), a
// missing handler, an input schema (nil means {"type":"object"}) that is
// not a valid JSON Schema with an object root, an output schema, when
// set, that is not a valid JSON Schema of any root type, and x-mcp-header
// annotations that break the admission rules of package header (none at
// all in the output schema). Schemas are read as JSON Schema 2020-12
// unless "$schema" names another supported dialect. Every error names the
// tool. The schema documents are copied: t can be changed afterwards
// without changing the contract.
func Compile(t tool.Tool, h tool.Handler) (*Contract, error) {
	if err := t.Err(); err != nil {
		return nil, err
	}
	if !ValidName(t.Name) {
		return nil, fmt.Errorf("tool name %q is invalid: it must match ^[A-Za-z0-9_.-]{1,128}$", t.Name)
	}
	if t.Handler == nil {
		return nil, fmt.Errorf("tool %q has no handler", t.Name)
	}
	if h == nil {
		h = t.Handler
	}
	t.InputSchema, t.OutputSchema = bytes.Clone(t.InputSchema), bytes.Clone(t.OutputSchema)
	c, err := compileSchemas(t)
	if err != nil {
		return nil, err
	}
	c.tool, c.handler = t, h
	return c, nil
}

// Tool returns the descriptor the contract was compiled from.
func (c *Contract) Tool() *tool.Tool { return &c.tool }

func compileSchemas(t tool.Tool) (*Contract, error) {
	c := &Contract{}
	src := t.InputSchema
	if src == nil {
		src = objectSchema
	}
	in, err := schema.Compile(src)
	if err != nil {
		return nil, fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	if !in.IsObjectRoot() {
		return nil, fmt.Errorf(`tool %q: input schema: the root must declare "type": "object" (arguments are always a JSON object)`, t.Name)
	}
	var hopts []header.Option
	if t.SensitiveHeaderNames != nil {
		hopts = append(hopts, header.WithSensitiveNames(t.SensitiveHeaderNames))
	}
	if c.headers, err = header.Annotations(src, hopts...); err != nil {
		return nil, fmt.Errorf("tool %q: input schema: %w", t.Name, err)
	}
	c.in = in
	c.trivialInput = acceptsAnyObject(in.Raw())
	if !c.trivialInput {
		c.precomputeEmpty()
	}
	if t.OutputSchema != nil {
		out, err := schema.Compile(t.OutputSchema)
		if err != nil {
			return nil, fmt.Errorf("tool %q: output schema: %w", t.Name, err)
		}
		if err := header.CheckOutputSchema(t.OutputSchema); err != nil {
			return nil, fmt.Errorf("tool %q: output schema: %w", t.Name, err)
		}
		c.out = out
	}
	return c, nil
}

// precomputeEmpty prepares the answer for an empty arguments object, the
// most common call of a tool without required arguments.
func (c *Contract) precomputeEmpty() {
	empty := json.RawMessage("{}")
	filled, err := c.in.ApplyDefaults(empty)
	if err != nil || c.in.Validate(filled) != nil {
		return
	}
	c.emptyArgs = filled
	c.emptyDefaulted = !bytes.Equal(filled, empty)
}

// inertKeywords are root keywords that never reject an object.
var inertKeywords = map[string]bool{
	"type": true, "$schema": true, "$id": true, "$comment": true,
	"title": true, "description": true, "examples": true,
}

// acceptsAnyObject reports whether an object-rooted input schema accepts
// every JSON object without filling in defaults, such as
// {"type":"object"} or {"type":"object","properties":{}}, so calls can
// skip validation altogether.
func acceptsAnyObject(raw json.RawMessage) bool {
	var root map[string]json.RawMessage
	if json.Unmarshal(raw, &root) != nil {
		return false
	}
	for k, v := range root {
		switch {
		case inertKeywords[k]:
		case k == "properties" || k == "$defs" || k == "definitions":
			var m map[string]json.RawMessage
			if k == "properties" && (json.Unmarshal(v, &m) != nil || len(m) > 0) {
				return false
			}
		case k == "additionalProperties" || k == "unevaluatedProperties":
			if !bytes.Equal(bytes.TrimSpace(v), []byte("true")) {
				return false
			}
		default:
			return false
		}
	}
	return true
}

// Headers returns the tool's admitted x-mcp-header annotations, sorted by
// JSON pointer, for a transport that mirrors arguments into
// Mcp-Param-{Name} headers.
func (c *Contract) Headers() []header.Annotation { return c.headers }
