package tool

import (
	"bytes"
	"fmt"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/header"
	"github.com/mcpwire/mcpwire/schema"
)

// compiled is what Compile learns about a tool, kept for every call.
type compiled struct {
	// inputSrc and outputSrc are the schema documents compiled, so that
	// a repeated Compile can tell whether they changed.
	inputSrc, outputSrc json.RawMessage

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

// compileMu serializes Compile: registration is rare, and one lock keeps
// two servers registering the same tool at once from racing.
var compileMu sync.Mutex

var objectSchema = json.RawMessage(`{"type":"object"}`)

// Compile checks the descriptor and compiles its schemas: the name must
// match ^[A-Za-z0-9_.-]{1,128}$, the handler must be set, the input schema
// (nil means {"type":"object"}) must be a valid JSON Schema whose root is
// {"type":"object"}, the output schema, when set, must be a valid JSON
// Schema of any root type, and x-mcp-header annotations must obey the
// admission rules of package header (none at all in the output schema).
// Schemas are read as JSON Schema 2020-12 unless "$schema" names another
// supported dialect.
//
// The mcp server calls Compile at registration, so a bad tool fails there,
// with an error naming the tool and the problem, and never at call time.
// Compile is idempotent and safe for concurrent use: the schemas are
// compiled once and kept until the schema documents change.
func (t *Tool) Compile() error {
	if err := CheckName(t.Name); err != nil {
		return err
	}
	if t.Handler == nil {
		return fmt.Errorf("tool %q has no handler", t.Name)
	}
	compileMu.Lock()
	defer compileMu.Unlock()
	if c, _ := t.compiled.Load().(*compiled); c != nil &&
		bytes.Equal(c.inputSrc, t.InputSchema) && bytes.Equal(c.outputSrc, t.OutputSchema) &&
		(c.inputSrc == nil) == (t.InputSchema == nil) && (c.outputSrc == nil) == (t.OutputSchema == nil) {
		return nil
	}
	c, err := compileSchemas(t)
	if err != nil {
		return err
	}
	t.compiled.Store(c)
	return nil
}

func compileSchemas(t *Tool) (*compiled, error) {
	c := &compiled{
		inputSrc:  bytes.Clone(t.InputSchema),
		outputSrc: bytes.Clone(t.OutputSchema),
	}
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
	if c.headers, err = header.Annotations(src, t.HeaderOptions...); err != nil {
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
func (c *compiled) precomputeEmpty() {
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

// state returns the compiled form of t, compiling it on first use when it
// was never registered.
func (t *Tool) state() (*compiled, error) {
	if c, _ := t.compiled.Load().(*compiled); c != nil {
		return c, nil
	}
	if err := t.Compile(); err != nil {
		return nil, err
	}
	c, _ := t.compiled.Load().(*compiled)
	return c, nil
}

// HeaderAnnotations returns the tool's admitted x-mcp-header annotations,
// sorted by JSON pointer, for a transport that mirrors arguments into
// Mcp-Param-{Name} headers. It compiles the tool when needed.
func (t *Tool) HeaderAnnotations() ([]header.Annotation, error) {
	c, err := t.state()
	if err != nil {
		return nil, err
	}
	return c.headers, nil
}
