package schema

import (
	"bytes"
	"errors"
	"fmt"
	"io"
	"maps"
	"slices"
	"sort"
	"strings"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/kaptinlin/jsonschema"
)

// Errors returned by [Compile].
var (
	// ErrInvalidSchema reports a schema document that is not a valid JSON
	// Schema.
	ErrInvalidSchema = errors.New("schema: invalid schema")
	// ErrUnsupportedDialect reports a "$schema" naming a dialect other
	// than 2020-12, 2019-09, draft-07, draft-06 or draft-04.
	ErrUnsupportedDialect = errors.New("schema: unsupported dialect")
	// ErrUnresolvedRef reports a "$ref" that does not point inside the
	// document. Remote references are never loaded.
	ErrUnresolvedRef = errors.New("schema: unresolved $ref")
)

// Schema is a compiled JSON Schema. Compile it once and validate many
// instances; its methods are safe for concurrent use.
type Schema struct {
	raw        json.RawMessage
	compiled   *jsonschema.Schema
	objectRoot bool
	defaults   *defaultsNode // nil when no property has a default
	fast       *fastSchema   // nil when the schema is outside the fast-path subset

	// serial guards validation of schemas with "pattern" or
	// "patternProperties": the library caches compiled regular
	// expressions in the schema during validation without locking.
	serial bool
	mu     sync.Mutex
}

// Compile checks and compiles a JSON Schema document. Without "$schema" the
// document is read as JSON Schema 2020-12; an explicit "$schema" naming
// 2020-12, 2019-09, draft-07, draft-06 or draft-04 is honoured, and any other
// fails with [ErrUnsupportedDialect]. Structural mistakes (an unknown type
// name, a negative minLength, a non-schema under "properties", a bad regular
// expression) fail with [ErrInvalidSchema] and name the location. Every
// "$ref" must resolve inside the document ([ErrUnresolvedRef]): remote
// references are never fetched.
//
// The "format" keyword is an annotation, as 2020-12 specifies: it is not
// asserted.
func Compile(raw json.RawMessage) (*Schema, error) {
	raw = bytes.TrimSpace(raw)
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if err := dec.Decode(&doc); err != nil {
		return nil, fmt.Errorf("%w: not valid JSON: %v", ErrInvalidSchema, err)
	}
	if dec.More() {
		return nil, fmt.Errorf("%w: not valid JSON: data after the schema", ErrInvalidSchema)
	}
	if root, ok := doc.(map[string]any); ok {
		if err := checkDialect(root); err != nil {
			return nil, err
		}
	}
	var c checker
	if err := c.schema(doc, ""); err != nil {
		return nil, err
	}

	compiler := jsonschema.NewCompiler()
	compiler.Loaders = map[string]func(string) (io.ReadCloser, error){} // never load remote schemas
	compiled, err := compiler.Compile(raw)
	if err != nil {
		return nil, fmt.Errorf("%w: %v", ErrInvalidSchema, err)
	}
	if refs := compiled.UnresolvedReferenceURIs(); len(refs) > 0 {
		sort.Strings(refs)
		return nil, fmt.Errorf("%w: %s (only references inside the document are followed)", ErrUnresolvedRef, strings.Join(quoteAll(refs), ", "))
	}
	s := &Schema{
		raw:      append(json.RawMessage(nil), raw...),
		compiled: compiled,
		serial:   c.shape.hasPatterns,
		fast:     compileFast(doc),
	}
	if root, ok := doc.(map[string]any); ok {
		s.objectRoot = root["type"] == "object"
		s.defaults = buildDefaults(root)
	}
	return s, nil
}

func checkDialect(root map[string]any) error {
	v, ok := root["$schema"]
	if !ok {
		return nil
	}
	uri, isStr := v.(string)
	if !isStr {
		return fmt.Errorf("%w: $schema must be a string", ErrInvalidSchema)
	}
	if _, known := dialectOf(uri); !known {
		return fmt.Errorf("%w: %q (supported: 2020-12, 2019-09, draft-07, draft-06, draft-04)", ErrUnsupportedDialect, uri)
	}
	return nil
}

func quoteAll(ss []string) []string {
	out := make([]string, len(ss))
	for i, s := range ss {
		out[i] = fmt.Sprintf("%q", s)
	}
	return out
}

// Raw returns the schema document as compiled (surrounding whitespace
// trimmed). The caller must not modify it.
func (s *Schema) Raw() json.RawMessage { return s.raw }

// IsObjectRoot reports whether the root schema declares "type": "object",
// as a tool's inputSchema (and a 2025-11-25 outputSchema) must.
func (s *Schema) IsObjectRoot() bool { return s.objectRoot }

// sortedKeys returns the keys of m in ascending order.
func sortedKeys[V any](m map[string]V) []string { return slices.Sorted(maps.Keys(m)) }
