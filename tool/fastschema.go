package tool

import (
	"bytes"
	"math"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
)

// fastSchema is a JSON Schema of the simple kind most tools have (typed
// properties, required, additionalProperties, items, lengths, bounds and
// string enums), checked by a single scan of the instance without building
// it. It only ever accepts: when it cannot tell, or the instance is
// invalid, the caller falls back to the full validator, which also
// explains the violations. So every keyword it does not model must make
// compileFast give up.
type fastSchema struct {
	never bool    // the false schema
	types typeSet // 0 means any type

	// objects
	props    []fastProp
	required uint64      // bits of props
	closed   bool        // additionalProperties: false
	extra    *fastSchema // additionalProperties schema; nil means any

	// arrays
	items              *fastSchema // nil means any
	minItems, maxItems int         // -1 when absent

	// strings
	minLen, maxLen int // -1 when absent
	enum           []string

	// numbers
	min, max, exclMin, exclMax bound
}

type fastProp struct {
	name   string
	schema *fastSchema
}

// bound is a numeric limit; isInt marks an integer limit held exactly in i.
type bound struct {
	set   bool
	isInt bool
	i     int64
	f     float64
}

type typeSet uint8

const (
	tNull typeSet = 1 << iota
	tBoolean
	tObject
	tArray
	tNumber
	tString
	tInteger
)

var typeNames = map[string]typeSet{
	"null": tNull, "boolean": tBoolean, "object": tObject, "array": tArray,
	"number": tNumber, "string": tString, "integer": tInteger,
}

// annotationKeywords never affect validity.
var annotationKeywords = map[string]bool{
	"title": true, "description": true, "default": true, "examples": true,
	"format": true, "$comment": true, "deprecated": true, "readOnly": true, "writeOnly": true,
}

// fastDefaults says what the root schema's defaults need.
type fastDefaults struct {
	top    uint64   // root properties with a default
	nested bool     // a default below the root properties
	member [][]byte // by property index: `"name":default`, for top bits
}

const maxFastDepth = 32

// compileFast returns the fast form of a schema document, or nil when it
// uses anything the fast path does not model. Only the 2020-12 dialect
// (the default) is handled.
func compileFast(raw json.RawMessage) (*fastSchema, fastDefaults) {
	var doc any
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.UseNumber()
	if dec.Decode(&doc) != nil {
		return nil, fastDefaults{}
	}
	root, isObj := doc.(map[string]any)
	if isObj {
		if d, has := root["$schema"]; has {
			if d != "https://json-schema.org/draft/2020-12/schema" && d != "https://json-schema.org/draft/2020-12/schema#" {
				return nil, fastDefaults{}
			}
			delete(root, "$schema")
		}
	}
	s := fastFrom(doc, 0)
	if s == nil || !isObj {
		return s, fastDefaults{}
	}
	return s, rootDefaults(root, s)
}

// rootDefaults finds the defaults ApplyDefaults may fill in: those of the
// root's properties, and whether there are any further down "properties"
// chains.
func rootDefaults(root map[string]any, f *fastSchema) fastDefaults {
	var d fastDefaults
	props, _ := root["properties"].(map[string]any)
	for name, ps := range props {
		obj, ok := ps.(map[string]any)
		if !ok {
			continue
		}
		if def, has := obj["default"]; has {
			i := f.index(name)
			k, errK := json.Marshal(name)
			v, errV := json.Marshal(def)
			if errK != nil || errV != nil {
				d.nested = true // leave it to ApplyDefaults
				continue
			}
			if d.member == nil {
				d.member = make([][]byte, len(f.props))
			}
			d.top |= 1 << i
			d.member[i] = append(append(k, ':'), v...)
		}
		if propsHaveDefaults(obj) {
			d.nested = true
		}
	}
	return d
}

func propsHaveDefaults(s map[string]any) bool {
	props, _ := s["properties"].(map[string]any)
	for _, ps := range props {
		obj, ok := ps.(map[string]any)
		if !ok {
			continue
		}
		if _, has := obj["default"]; has || propsHaveDefaults(obj) {
			return true
		}
	}
	return false
}

// fastFrom compiles one schema, or returns nil.
func fastFrom(v any, depth int) *fastSchema {
	if depth > maxFastDepth {
		return nil
	}
	switch s := v.(type) {
	case bool:
		return &fastSchema{never: !s, minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
	case map[string]any:
		f := &fastSchema{minItems: -1, maxItems: -1, minLen: -1, maxLen: -1}
		for k, val := range s {
			if !f.keyword(k, val, depth) {
				return nil
			}
		}
		return f.withRequired(s["required"])
	}
	return nil
}

// keyword applies one keyword; false means "not modelled".
func (f *fastSchema) keyword(k string, v any, depth int) bool {
	switch k {
	case "type":
		return f.setType(v)
	case "properties":
		return f.setProperties(v, depth)
	case "required":
		return true // after properties, in withRequired
	case "additionalProperties":
		if b, ok := v.(bool); ok {
			f.closed = !b
			return true
		}
		f.extra = fastFrom(v, depth+1)
		return f.extra != nil
	case "items":
		if _, isList := v.([]any); isList {
			return false
		}
		f.items = fastFrom(v, depth+1)
		return f.items != nil
	case "minItems":
		return count(v, &f.minItems)
	case "maxItems":
		return count(v, &f.maxItems)
	case "minLength":
		return count(v, &f.minLen)
	case "maxLength":
		return count(v, &f.maxLen)
	case "minimum":
		return f.min.parse(v)
	case "maximum":
		return f.max.parse(v)
	case "exclusiveMinimum":
		return f.exclMin.parse(v)
	case "exclusiveMaximum":
		return f.exclMax.parse(v)
	case "enum":
		return f.setEnum(v)
	}
	return annotationKeywords[k] || strings.HasPrefix(k, "x-")
}

func (f *fastSchema) setType(v any) bool {
	switch t := v.(type) {
	case string:
		f.types = typeNames[t]
		return f.types != 0
	case []any:
		for _, e := range t {
			name, _ := e.(string)
			bit := typeNames[name]
			if bit == 0 {
				return false
			}
			f.types |= bit
		}
		return f.types != 0
	}
	return false
}

func (f *fastSchema) setProperties(v any, depth int) bool {
	m, ok := v.(map[string]any)
	if !ok || len(m) > 64 {
		return false
	}
	for _, name := range sortedNames(m) {
		ps := fastFrom(m[name], depth+1)
		if ps == nil {
			return false
		}
		f.props = append(f.props, fastProp{name: name, schema: ps})
	}
	return true
}

// withRequired records required names, adding an any-schema property for a
// name that has none. It returns nil when they cannot be modelled.
func (f *fastSchema) withRequired(v any) *fastSchema {
	if v == nil {
		return f
	}
	list, ok := v.([]any)
	if !ok {
		return nil
	}
	for _, e := range list {
		name, isStr := e.(string)
		if !isStr {
			return nil
		}
		i := f.index(name)
		if i < 0 {
			if len(f.props) == 64 {
				return nil
			}
			i = len(f.props)
			f.props = append(f.props, fastProp{name: name})
		}
		f.required |= 1 << i
	}
	return f
}

func (f *fastSchema) setEnum(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	f.enum = make([]string, 0, len(list))
	for _, e := range list {
		s, isStr := e.(string)
		if !isStr {
			return false
		}
		f.enum = append(f.enum, s)
	}
	return true
}

func (f *fastSchema) index(name string) int {
	for i := range f.props {
		if f.props[i].name == name {
			return i
		}
	}
	return -1
}

// count reads a non-negative integer keyword value.
func count(v any, dst *int) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	i, err := strconv.ParseInt(string(n), 10, 32)
	if err != nil || i < 0 {
		return false
	}
	*dst = int(i)
	return true
}

// parse reads a numeric bound; an integer within ±2^53 is kept exactly.
func (b *bound) parse(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(n), 64)
	if err != nil || math.IsInf(f, 0) {
		return false
	}
	b.set, b.f = true, f
	if i, err := strconv.ParseInt(string(n), 10, 64); err == nil && i <= 1<<53 && i >= -(1<<53) {
		b.isInt, b.i = true, i
	}
	return true
}

func sortedNames(m map[string]any) []string {
	names := make([]string, 0, len(m))
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	return names
}
