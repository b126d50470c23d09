package schema

import (
	"bytes"
	"encoding"
	"fmt"
	"reflect"
	"strconv"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// For infers the JSON Schema (2020-12) of the JSON encoding of T. See the
// package documentation for the mapping and the struct tags it reads.
func For[T any](opts ...Option) (json.RawMessage, error) {
	return FromType(reflect.TypeFor[T](), opts...)
}

// FromType infers the JSON Schema (2020-12) of the JSON encoding of values
// of type t. A pointer type gives the schema of its element. The output is
// compact and byte-stable: properties follow field order and $defs follow
// first use.
func FromType(t reflect.Type, opts ...Option) (json.RawMessage, error) {
	if t == nil {
		return nil, &Error{Path: "(nil)", Reason: "no type given"}
	}
	g := &generator{defNames: map[reflect.Type]string{}, used: map[string]bool{}, defs: &object{}}
	for _, o := range opts {
		o(&g.opts)
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	g.root = t
	body, err := g.build(t, t.String())
	if err != nil {
		return nil, err
	}
	root, ok := body.(*object)
	if !ok {
		return nil, fmt.Errorf("schema: internal error: root schema is %T", body)
	}
	if g.opts.schemaURI {
		root.members = append([]member{{"$schema", Draft202012}}, root.members...)
	}
	if len(g.defs.members) > 0 {
		root.set("$defs", g.defs)
	}
	var buf bytes.Buffer
	if err := encode(&buf, root); err != nil {
		return nil, err
	}
	return buf.Bytes(), nil
}

// Error reports a Go type or struct tag that cannot be turned into a schema.
type Error struct {
	// Path locates the problem from the root type, such as
	// "main.Config.Events" or "main.Config.Tags[]".
	Path string
	// Type is the offending type, when one is to blame.
	Type reflect.Type
	// Reason says what is wrong.
	Reason string
}

// Error formats the path, the type and the reason.
func (e *Error) Error() string {
	if e.Type != nil {
		return fmt.Sprintf("schema: %s (type %s): %s", e.Path, e.Type, e.Reason)
	}
	return fmt.Sprintf("schema: %s: %s", e.Path, e.Reason)
}

type generator struct {
	opts     options
	root     reflect.Type
	defNames map[reflect.Type]string // recursive named types → $defs key
	used     map[string]bool         // $defs keys taken
	defs     *object
	cycles   map[reflect.Type]bool // memo of isRecursive
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	numberType        = reflect.TypeFor[json.Number]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// schemaOf returns the schema of a value of type t met at path: a "$ref" for
// recursive named types, an inline schema otherwise.
func (g *generator) schemaOf(t reflect.Type, path string) (any, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if t.Name() == "" || !g.isRecursive(t) {
		return g.build(t, path)
	}
	if t == g.root {
		return &object{members: []member{{"$ref", "#"}}}, nil
	}
	name, ok := g.defNames[t]
	if !ok {
		name = g.reserveName(t)
		body, err := g.build(t, path)
		if err != nil {
			return nil, err
		}
		g.defs.set(name, body)
	}
	return &object{members: []member{{"$ref", "#/$defs/" + name}}}, nil
}

// reserveName picks a unique, pointer-safe $defs key for t and reserves a
// slot for it so $defs keep first-use order.
func (g *generator) reserveName(t reflect.Type) string {
	base := sanitize(t.Name())
	name := base
	for n := 2; g.used[name]; n++ {
		name = base + strconv.Itoa(n)
	}
	g.used[name] = true
	g.defNames[t] = name
	g.defs.set(name, nil)
	return name
}

// sanitize keeps letters, digits, '_', '-' and '.', so the name needs no
// escaping in a JSON pointer or URI fragment.
func sanitize(s string) string {
	b := []byte(s)
	for i, c := range b {
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9', c == '_', c == '-', c == '.':
		default:
			b[i] = '_'
		}
	}
	return string(b)
}

// build returns the inline schema of t (never a "$ref" for t itself).
func (g *generator) build(t reflect.Type, path string) (any, error) {
	if s, ok := special(t); ok {
		return s, nil
	}
	switch t.Kind() {
	case reflect.Bool:
		return typed("boolean"), nil
	case reflect.String:
		return typed("string"), nil
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return bounded("integer", t), nil
	case reflect.Float32:
		return bounded("number", t), nil
	case reflect.Float64:
		return typed("number"), nil
	case reflect.Interface:
		return &object{}, nil
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !implementsAny(t.Elem()) {
			s := typed("string")
			s.set("contentEncoding", "base64")
			return s, nil
		}
		return g.array(t, path, -1)
	case reflect.Array:
		return g.array(t, path, int64(t.Len()))
	case reflect.Map:
		return g.mapSchema(t, path)
	case reflect.Struct:
		return g.structSchema(t, path)
	}
	return nil, &Error{Path: path, Type: t, Reason: "type cannot be represented in JSON Schema (" + t.Kind().String() + ")"}
}

// special handles types with a custom JSON form.
func special(t reflect.Type) (*object, bool) {
	switch {
	case t == timeType:
		s := typed("string")
		s.set("format", "date-time")
		return s, true
	case t == numberType:
		return typed("number"), true // written as the number it holds
	case implements(t, marshalerType):
		return &object{}, true // unknown shape: any value
	case implements(t, textMarshalerType):
		return typed("string"), true
	}
	return nil, false
}

func implementsAny(t reflect.Type) bool {
	return implements(t, marshalerType) || implements(t, textMarshalerType)
}

func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || (t.Kind() != reflect.Pointer && t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(iface))
}

func typed(name string) *object {
	return &object{members: []member{{"type", name}}}
}

// bounded returns the schema of a numeric type whose range is narrower
// than a model or a client may assume: "minimum" and "maximum" tell it,
// and the validator refuses what would not decode. The 64-bit integer
// types get no such noise on every field: a signed one no bound, an
// unsigned one only "minimum": 0; a value beyond their range is reported
// by the decoding of the arguments, in the same terms.
func bounded(name string, t reflect.Type) *object {
	s := typed(name)
	lo, hi, _ := jsonx.NumberRange(t)
	wide := t.Kind() != reflect.Float32 && t.Bits() == 64
	switch {
	case wide && lo == "0":
		s.set("minimum", int64(0))
	case !wide:
		s.set("minimum", json.RawMessage(lo))
		s.set("maximum", json.RawMessage(hi))
	}
	return s
}

func (g *generator) array(t reflect.Type, path string, n int64) (any, error) {
	items, err := g.schemaOf(t.Elem(), path+"[]")
	if err != nil {
		return nil, err
	}
	s := typed("array")
	s.set("items", items)
	if n >= 0 {
		s.set("minItems", n)
		s.set("maxItems", n)
	}
	return s, nil
}

func (g *generator) mapSchema(t reflect.Type, path string) (any, error) {
	// Keys are member names: strings, or values that encoding.TextMarshaler
	// writes as strings.
	if k := t.Key(); k.Kind() != reflect.String && !implements(k, textMarshalerType) {
		return nil, &Error{Path: path, Type: t, Reason: "map keys must be strings or implement encoding.TextMarshaler"}
	}
	values, err := g.schemaOf(t.Elem(), path+"[key]")
	if err != nil {
		return nil, err
	}
	s := typed("object")
	s.set("additionalProperties", values)
	return s, nil
}

func (g *generator) structSchema(t reflect.Type, path string) (any, error) {
	props := &object{}
	var required []string
	for _, f := range structFields(t) {
		fpath := path + "." + f.goPath
		ps, err := g.fieldSchema(f, fpath)
		if err != nil {
			return nil, err
		}
		props.set(f.name, ps)
		if (!f.optional && f.typ.Kind() != reflect.Pointer) || isRequiredTag(f.tag) {
			required = append(required, f.name)
		}
	}
	s := typed("object")
	if len(props.members) > 0 {
		s.set("properties", props)
	}
	if len(required) > 0 {
		s.set("required", required)
	}
	if !g.opts.allowAdditional {
		s.set("additionalProperties", false)
	}
	return s, nil
}

// fieldSchema builds a property schema and applies the field's tags.
func (g *generator) fieldSchema(f field, path string) (any, error) {
	var ps any
	if f.quoted && isScalar(f.typ) {
		ps = typed("string")
	} else {
		var err error
		if ps, err = g.schemaOf(f.typ, path); err != nil {
			return nil, err
		}
	}
	obj, ok := ps.(*object)
	if !ok {
		return ps, nil
	}
	if err := applyTags(obj, f.tag, path); err != nil {
		return nil, err
	}
	return obj, nil
}

// isScalar reports whether the ",string" option applies to t.
func isScalar(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return !implementsAny(t)
	}
	return false
}
