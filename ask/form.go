package ask

import (
	"encoding"
	"errors"
	"fmt"
	"reflect"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/schema"
)

// FormOf infers the elicitation form of T, a struct (or a pointer to one)
// of primitive fields. Each JSON member of the struct, as package schema
// names it, is one field of the form, and the struct tags package schema
// reads refine it (description, jsonschema: enum, default, minLength,
// maxLength, minimum, maximum, format, minItems, maxItems). A member is
// required unless it is a pointer or has omitempty or omitzero, or when its
// jsonschema tag has the required item. The Go
// types a field may have:
//
//   - string, and types that encode as text (time.Time is a string with
//     "format": "date-time"): a text field; with enum values, a single
//     choice
//   - bool: a yes/no field
//   - the integer types: an integer field (those narrower than 64 bits
//     with their range as minimum and maximum); float32 and float64: a
//     number field
//   - []string with enum values: a multiple choice
//
// Two tags of this package label a field and its choices:
//
//	title:"Full name"          the field's title
//	titles:"Alpha|Beta|Gamma"  the titles of the enum values, in their
//	                           order, separated by '|': the field becomes a
//	                           titled choice ("oneOf" for a string, "anyOf"
//	                           items for a []string)
//
// Anything else is refused with an error naming the field: nested
// structs, maps, interfaces, arrays, slices other than []string, a
// []string without enum values, types with their own JSON encoding, and
// keywords an elicitation form does not have (pattern, exclusiveMinimum,
// exclusiveMaximum, nullable, enum on a number or a boolean, a format other
// than email, uri, date and date-time). The form of a type is inferred
// once; each call returns a copy of its own.
func FormOf[T any]() (protocol.RequestedSchema, error) {
	return formFor(reflect.TypeFor[T]())
}

// formCache holds the outcome of inferring the form of each type formFor
// was asked about: reflect.Type → formEntry.
var formCache sync.Map

// formEntry is a type's form as JSON (so that each caller decodes a copy
// it may modify), or why it has none.
type formEntry struct {
	raw []byte
	err error
}

// formFor returns the form of t (see [FormOf]), inferring it on first use.
func formFor(t reflect.Type) (protocol.RequestedSchema, error) {
	if t == nil {
		return protocol.RequestedSchema{}, errors.New("ask: a form is inferred from a struct type, and none was given")
	}
	e, ok := formCache.Load(t)
	if !ok {
		var entry formEntry
		form, err := inferForm(t)
		if err == nil {
			entry.raw, err = json.Marshal(form)
		}
		entry.err = err
		e, _ = formCache.LoadOrStore(t, entry)
	}
	entry := e.(formEntry)
	if entry.err != nil {
		return protocol.RequestedSchema{}, entry.err
	}
	var form protocol.RequestedSchema
	if err := json.Unmarshal(entry.raw, &form); err != nil {
		return protocol.RequestedSchema{}, fmt.Errorf("ask: internal error: the form of %s does not decode: %w", t, err)
	}
	return form, nil
}

// inferForm builds the form of t: package schema infers the JSON Schema
// of the struct, and each property is turned into a form field.
func inferForm(t reflect.Type) (protocol.RequestedSchema, error) {
	root := t
	for root.Kind() == reflect.Pointer {
		root = root.Elem()
	}
	if root.Kind() != reflect.Struct {
		return protocol.RequestedSchema{}, fmt.Errorf("ask: a form is inferred from a struct, not from %s", t)
	}
	members := schema.Members(root)
	for _, m := range members {
		if reason := fieldTypeProblem(m.Type); reason != "" {
			return protocol.RequestedSchema{}, fieldError(root, m, reason)
		}
	}
	raw, err := schema.FromType(root)
	if err != nil {
		return protocol.RequestedSchema{}, fmt.Errorf("ask: the form of %s: %w", root, err)
	}
	var doc struct {
		Properties map[string]json.RawMessage `json:"properties"`
		Required   []string                   `json:"required"`
	}
	if err := json.Unmarshal(raw, &doc); err != nil {
		return protocol.RequestedSchema{}, fmt.Errorf("ask: internal error: the schema of %s does not decode: %w", root, err)
	}
	form := protocol.RequestedSchema{
		Properties: make(map[string]protocol.PrimitiveSchemaDefinition, len(members)),
		Required:   doc.Required,
	}
	for _, m := range members {
		def, err := fieldForm(doc.Properties[m.Name], root.FieldByIndex(m.Index).Tag)
		if err != nil {
			return protocol.RequestedSchema{}, fieldError(root, m, err.Error())
		}
		form.Properties[m.Name] = def
	}
	return form, nil
}

// fieldError reports why member m of struct type root cannot be a form
// field.
func fieldError(root reflect.Type, m schema.Member, reason string) error {
	return fmt.Errorf("ask: the form of %s: field %q (%s, type %s): %s", root, m.Name, m.GoPath, m.Type, reason)
}

// The types whose JSON encoding fieldTypeProblem knows by their methods
// rather than by their kind, as package schema knows them.
var (
	timeType          = reflect.TypeFor[time.Time]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
)

// fieldTypeProblem says why a field of Go type t cannot be a form field,
// or returns "" when it can.
func fieldTypeProblem(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch {
	case t == timeType:
		return ""
	case implements(t, marshalerType):
		return "the type has its own JSON encoding (MarshalJSON), whose shape a form cannot know"
	case implements(t, textMarshalerType):
		return "" // text
	}
	switch t.Kind() {
	case reflect.String, reflect.Bool,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr,
		reflect.Float32, reflect.Float64:
		return ""
	case reflect.Slice:
		if e := t.Elem(); e.Kind() == reflect.String && !implements(e, marshalerType) && !implements(e, textMarshalerType) {
			return ""
		}
		return "a slice of " + t.Elem().String() + ": the only list a form has is a []string of enum choices (a multiple choice)"
	case reflect.Struct:
		return "a nested struct: a form is a flat object of primitive fields"
	case reflect.Map:
		return "a map: a form is a flat object of primitive fields"
	case reflect.Interface:
		return "an interface: a form field is a string, a number, an integer, a boolean or a []string of choices"
	case reflect.Array:
		return "an array: a multiple choice is a []string with enum values"
	}
	return "a " + t.Kind().String() + " cannot be a form field"
}

// implements reports whether t or *t implements iface.
func implements(t, iface reflect.Type) bool {
	return t.Implements(iface) || (t.Kind() != reflect.Interface && reflect.PointerTo(t).Implements(iface))
}
