package schema

import (
	"regexp"
	"strconv"

	json "github.com/goccy/go-json"
)

// The fast path covers a subset of JSON Schema 2020-12, the keywords tool
// input schemas are usually made of:
//
//	type (a name or an array of names), enum, const
//	minimum, maximum, exclusiveMinimum, exclusiveMaximum, multipleOf
//	minLength, maxLength, pattern
//	items (one schema), minItems, maxItems, uniqueItems
//	properties, required, additionalProperties (a schema or a boolean),
//	minProperties, maxProperties
//	title, description, default, examples, $comment, format, deprecated,
//	readOnly, writeOnly (annotations only; format is not asserted)
//	$schema naming 2020-12, at the root only
//
// and boolean schemas. A schema with any other keyword anywhere is validated
// by the library alone.

// fastNode is one compiled schema of the subset.
type fastNode struct {
	isBool  bool // a boolean schema: boolVal decides
	boolVal bool
	asserts bool // some keyword can fail

	types     kindSet  // 0: no "type"
	typeNames []string // the types, as the schema lists them

	enum      []fastConst // nil: no (or an empty) enum, which the library ignores
	enumTexts []string    // the allowed values as JSON, for messages
	hasConst  bool
	konst     fastConst
	konstText []string // the constant as JSON, for messages

	multipleOf, minimum, maximum, exclusiveMinimum, exclusiveMaximum *bound

	minLength, maxLength *float64
	pattern              *regexp.Regexp
	patternText          string

	items              *fastNode // nil: none
	minItems, maxItems *float64
	uniqueItems        bool

	// names lists the properties (the first len(props)) and then the
	// required names that are not properties; index maps them to their
	// position when there are many.
	names         []string
	props         []*fastNode
	index         map[string]int
	required      []int // positions in names, in schema order
	additional    *fastNode
	minProperties *float64
	maxProperties *float64
}

// bound is a numeric keyword's value.
type bound struct {
	d    dec
	text string // as messages write it (dec.format)
}

// maxCount bounds the count keywords the fast path takes: below it a
// float64 holds them exactly and converting them to int is portable.
const maxCount = 1 << 53

// compileFast compiles a schema document (decoded with UseNumber, already
// checked and accepted by the library) for the fast path. It returns nil
// when the document is outside the subset.
func compileFast(doc any) *fastSchema {
	root, ok := fastCompile(doc, true)
	if !ok {
		return nil
	}
	return &fastSchema{root: root}
}

func fastCompile(v any, root bool) (*fastNode, bool) {
	switch v := v.(type) {
	case bool:
		return &fastNode{isBool: true, boolVal: v, asserts: !v}, true
	case map[string]any:
		n := &fastNode{}
		for k, val := range v {
			if !n.keyword(k, val, v, root) {
				return nil, false
			}
		}
		if !n.finishObject(v) {
			return nil, false
		}
		n.asserts = n.types != 0 || n.enum != nil || n.hasConst ||
			n.multipleOf != nil || n.minimum != nil || n.maximum != nil ||
			n.exclusiveMinimum != nil || n.exclusiveMaximum != nil ||
			n.minLength != nil || n.maxLength != nil || n.pattern != nil ||
			(n.items != nil && n.items.asserts) || n.minItems != nil || n.maxItems != nil || n.uniqueItems ||
			len(n.names) > 0 || (n.additional != nil && n.additional.asserts) ||
			n.minProperties != nil || n.maxProperties != nil
		return n, true
	}
	return nil, false
}

// keyword compiles one member of a schema object; false means the schema
// is outside the subset.
func (n *fastNode) keyword(k string, v any, s map[string]any, root bool) bool {
	switch k {
	case "title", "description", "$comment", "format", "default", "examples",
		"deprecated", "readOnly", "writeOnly":
		return true
	case "$schema":
		uri, ok := v.(string)
		if !ok || !root {
			return false
		}
		d, _ := dialectOf(uri)
		return d == "2020-12"
	case "type":
		return n.setTypes(v)
	case "enum":
		return n.setEnum(v)
	case "const":
		c, ok := newFastConst(v)
		n.hasConst, n.konst, n.konstText = true, c, []string{jsonText(v)}
		return ok
	case "multipleOf":
		return setBound(&n.multipleOf, v)
	case "minimum":
		return setBound(&n.minimum, v)
	case "maximum":
		return setBound(&n.maximum, v)
	case "exclusiveMinimum":
		return setBound(&n.exclusiveMinimum, v)
	case "exclusiveMaximum":
		return setBound(&n.exclusiveMaximum, v)
	case "minLength":
		return setCount(&n.minLength, v)
	case "maxLength":
		return setCount(&n.maxLength, v)
	case "minItems":
		return setCount(&n.minItems, v)
	case "maxItems":
		return setCount(&n.maxItems, v)
	case "minProperties":
		return setCount(&n.minProperties, v)
	case "maxProperties":
		return setCount(&n.maxProperties, v)
	case "pattern":
		return n.setPattern(v)
	case "uniqueItems":
		b, ok := v.(bool)
		n.uniqueItems = b
		return ok
	case "items":
		if _, isList := v.([]any); isList {
			return false // the draft-07 tuple form
		}
		items, ok := fastCompile(v, false)
		n.items = items
		return ok
	case "additionalProperties":
		add, ok := fastCompile(v, false)
		n.additional = add
		return ok
	case "properties", "required":
		return true // finishObject
	}
	return false
}

func (n *fastNode) setTypes(v any) bool {
	var names []string
	switch v := v.(type) {
	case string:
		names = []string{v}
	case []any:
		for _, e := range v {
			s, ok := e.(string)
			if !ok {
				return false
			}
			names = append(names, s)
		}
	default:
		return false
	}
	if len(names) == 0 {
		return false
	}
	for _, name := range names {
		k, ok := kindNames[name]
		if !ok {
			return false
		}
		n.types |= k
	}
	n.typeNames = names
	return true
}

func (n *fastNode) setEnum(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	if len(list) == 0 {
		return true // the library ignores an empty enum
	}
	for _, e := range list {
		c, ok := newFastConst(e)
		if !ok {
			return false
		}
		n.enum = append(n.enum, c)
	}
	n.enumTexts = jsonTexts(list)
	return true
}

func (n *fastNode) setPattern(v any) bool {
	p, ok := v.(string)
	if !ok {
		return false
	}
	re, err := regexp.Compile(p) // as the library does: RE2 syntax
	if err != nil {
		return false
	}
	n.pattern, n.patternText = re, p
	return true
}

func setBound(dst **bound, v any) bool {
	num, ok := v.(json.Number)
	if !ok {
		return false
	}
	text := []byte(string(num))
	l, end, ok := parseNumLit(text, 0)
	if !ok || end != len(text) || !l.known() {
		return false
	}
	d := l.dec()
	*dst = &bound{d: d, text: d.format()}
	return true
}

func setCount(dst **float64, v any) bool {
	num, ok := v.(json.Number)
	if !ok {
		return false
	}
	f, err := strconv.ParseFloat(string(num), 64)
	if err != nil || f < 0 || f >= maxCount || f != float64(int64(f)) {
		return false
	}
	*dst = &f
	return true
}

// finishObject compiles "properties" and "required".
func (n *fastNode) finishObject(s map[string]any) bool {
	if v, ok := s["properties"]; ok {
		props, ok := v.(map[string]any)
		if !ok {
			return false
		}
		for _, name := range sortedKeys(props) {
			sub, ok := fastCompile(props[name], false)
			if !ok {
				return false
			}
			n.names = append(n.names, name)
			n.props = append(n.props, sub)
		}
	}
	if v, ok := s["required"]; ok {
		list, ok := v.([]any)
		if !ok {
			return false
		}
		for _, e := range list {
			name, ok := e.(string)
			if !ok {
				return false
			}
			i := indexOf(n.names, name)
			if i < 0 {
				i = len(n.names)
				n.names = append(n.names, name)
			}
			n.required = append(n.required, i)
		}
	}
	if len(n.names) > 8 {
		n.index = make(map[string]int, len(n.names))
		for i, name := range n.names {
			n.index[name] = i
		}
	}
	return true
}

func indexOf(list []string, s string) int {
	for i, e := range list {
		if e == s {
			return i
		}
	}
	return -1
}
