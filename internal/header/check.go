package header

import (
	"errors"
	"sort"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// Keyword is the annotation keyword this package checks.
const Keyword = "x-mcp-header"

// Annotation is one admitted x-mcp-header annotation.
type Annotation struct {
	// Header is the {Name} part of Mcp-Param-{Name}, as written.
	Header string
	// Pointer is the JSON pointer of the annotated property schema within
	// the input schema, such as "/properties/location/properties/region".
	Pointer string
	// Path is the chain of property names from the arguments object to the
	// value, such as ["location", "region"].
	Path []string
	// Type is the property's type: "string", "integer" or "boolean".
	Type string
}

// CheckInputSchema reports whether every x-mcp-header annotation in a tool's
// inputSchema obeys the admission rules (see the package documentation). It
// returns nil when the schema is admissible, including when it has no
// annotation. Otherwise the result joins one [*Error] per refusal, in
// schema order (object keys sorted).
func CheckInputSchema(inputSchema json.RawMessage, opts ...Option) error {
	_, err := Annotations(inputSchema, opts...)
	return err
}

// CheckOutputSchema refuses any x-mcp-header annotation in an outputSchema,
// wherever it is ([ErrOutput]).
func CheckOutputSchema(outputSchema json.RawMessage) error {
	w := &walker{output: true}
	if err := w.walk(outputSchema, "", nil, false); err != nil {
		return err
	}
	return errors.Join(w.errs...)
}

// Annotations checks inputSchema like [CheckInputSchema] and returns its
// admitted annotations sorted by pointer. On any refusal it returns nil and
// the error.
func Annotations(inputSchema json.RawMessage, opts ...Option) ([]Annotation, error) {
	w := &walker{cfg: newConfig(opts), seen: map[string]string{}}
	if err := w.walk(inputSchema, "", nil, true); err != nil {
		return nil, err
	}
	if len(w.errs) > 0 {
		return nil, errors.Join(w.errs...)
	}
	return w.found, nil
}

// walker visits every subschema of a schema document.
type walker struct {
	cfg    *config
	output bool
	seen   map[string]string // lower-cased header name → pointer of first use
	found  []Annotation
	errs   []error
	all    []Verdict // every annotation met, admitted or not, in walk order
}

// Subschema-holding keywords, by shape. Only "properties" keeps a schema
// reachable for annotations.
var (
	schemaKeywords = []string{
		"additionalItems", "additionalProperties", "contains", "contentSchema",
		"else", "if", "items", "not", "propertyNames", "then",
		"unevaluatedItems", "unevaluatedProperties",
	}
	schemaListKeywords = []string{"allOf", "anyOf", "items", "oneOf", "prefixItems"}
	schemaMapKeywords  = []string{
		"$defs", "definitions", "dependencies", "dependentSchemas",
		"patternProperties", "properties",
	}
)

// walk visits the schema raw at pointer ptr. path is the property-name chain
// when reachable is true. It returns an error only for malformed JSON.
func (w *walker) walk(raw json.RawMessage, ptr string, path []string, reachable bool) error {
	var node map[string]json.RawMessage
	if err := json.Unmarshal(raw, &node); err != nil {
		var v any
		if json.Unmarshal(raw, &v) != nil {
			return &Error{Rule: ErrSchema, Pointer: ptr, Detail: err.Error()}
		}
		return nil // a boolean schema or other non-object: nothing to check
	}
	if h, ok := node[Keyword]; ok {
		w.check(node, h, ptr, path, reachable)
	}
	for _, kw := range schemaKeywords {
		if sub, ok := node[kw]; ok && isObject(sub) {
			if err := w.walk(sub, ptr+"/"+escape(kw), nil, false); err != nil {
				return err
			}
		}
	}
	for _, kw := range schemaListKeywords {
		var list []json.RawMessage
		if sub, ok := node[kw]; !ok || !isArray(sub) || json.Unmarshal(sub, &list) != nil {
			continue
		}
		for i, item := range list {
			if err := w.walk(item, ptr+"/"+kw+"/"+itoa(i), nil, false); err != nil {
				return err
			}
		}
	}
	for _, kw := range schemaMapKeywords {
		var m map[string]json.RawMessage
		if sub, ok := node[kw]; !ok || !isObject(sub) || json.Unmarshal(sub, &m) != nil {
			continue
		}
		for _, name := range sortedKeys(m) {
			sub := m[name]
			if !isObject(sub) {
				continue
			}
			subPtr := ptr + "/" + escape(kw) + "/" + escape(name)
			var err error
			if kw == "properties" && reachable {
				err = w.walk(sub, subPtr, append(path[:len(path):len(path)], name), true)
			} else {
				err = w.walk(sub, subPtr, nil, false)
			}
			if err != nil {
				return err
			}
		}
	}
	return nil
}

// check applies the admission rules to one annotation.
func (w *walker) check(node map[string]json.RawMessage, raw json.RawMessage, ptr string, path []string, reachable bool) {
	var name string
	isString := json.Unmarshal(raw, &name) == nil && len(raw) > 0 && raw[0] == '"'
	fail := func(rule error, detail string) {
		e := &Error{Rule: rule, Pointer: ptr, Header: name, Detail: detail}
		w.errs = append(w.errs, e)
		w.all = append(w.all, Verdict{Header: name, Pointer: ptr, Err: e})
	}
	if w.output {
		fail(ErrOutput, "")
		return
	}
	if !reachable || len(path) == 0 {
		fail(ErrLocation, "")
		return
	}
	switch {
	case !isString:
		fail(ErrName, "the value must be a JSON string, got "+string(raw))
		return
	case !IsToken(name):
		fail(ErrName, "")
		return
	}
	typ, ok := primitiveType(node["type"])
	if !ok {
		fail(ErrType, typeDetail(node["type"]))
		return
	}
	prop := path[len(path)-1]
	if w.cfg.sensitive.matches(prop) {
		fail(ErrSensitive, "property "+quote(prop)+" looks sensitive")
		return
	}
	if w.cfg.sensitive.matches(name) {
		fail(ErrSensitive, "header name looks sensitive")
		return
	}
	key := strings.ToLower(name)
	if first, dup := w.seen[key]; dup {
		fail(ErrDuplicate, "already used at "+first)
		return
	}
	w.seen[key] = ptr
	w.found = append(w.found, Annotation{Header: name, Pointer: ptr, Path: path, Type: typ})
	w.all = append(w.all, Verdict{Header: name, Pointer: ptr})
}

// primitiveType returns the property's type when it is exactly one of the
// admitted type names.
func primitiveType(raw json.RawMessage) (string, bool) {
	var t string
	if raw == nil || json.Unmarshal(raw, &t) != nil {
		return "", false
	}
	switch t {
	case "string", "integer", "boolean":
		return t, true
	}
	return t, false
}

func typeDetail(raw json.RawMessage) string {
	if raw == nil {
		return `the property has no "type"`
	}
	return `the property has "type": ` + string(raw)
}

// IsToken reports whether s is a non-empty RFC 9110 token (1*tchar).
func IsToken(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if !isTchar(s[i]) {
			return false
		}
	}
	return true
}

func isTchar(c byte) bool {
	switch {
	case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~", c) >= 0
}

func isObject(raw json.RawMessage) bool { return jsonx.FirstByte(raw) == '{' }
func isArray(raw json.RawMessage) bool  { return jsonx.FirstByte(raw) == '[' }

// escape escapes a JSON pointer reference token (RFC 6901).
func escape(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

func sortedKeys(m map[string]json.RawMessage) []string {
	keys := make([]string, 0, len(m))
	for k := range m {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	return keys
}

func quote(s string) string {
	b, _ := json.Marshal(s)
	return string(b)
}

func itoa(i int) string { return strconv.Itoa(i) }
