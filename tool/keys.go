package tool

import (
	"reflect"
	"sync"

	"github.com/mcpwire/mcpwire/internal/natural"
	"github.com/mcpwire/mcpwire/schema"
)

// Go's JSON decoding matches an object key to a struct field ignoring
// case: "Text" fills the field named "text". Arguments are decoded by
// exact key instead: a key that names a member of In only when case is
// ignored is refused before decoding, at any depth, as an unknown
// property (see keyScan). A keyPlan says where In has structs whose keys
// must be looked at.

// keyPlan is what the keys of a JSON value decoded into one Go type are
// checked against; nil when nothing inside the value is.
type keyPlan struct {
	kind planKind
	// members maps a struct's member names to the plans of their values.
	members map[string]*keyPlan
	// names lists a struct's member names, for the comparison ignoring
	// case.
	names []string
	// elem is the plan of a map's values, or of a list's items.
	elem *keyPlan
}

type planKind uint8

const (
	planStruct planKind = iota
	planMap
	planList
)

// argsPlan is the key plan of an In type, and whether it must be used
// even with a strict inferred schema.
type argsPlan struct {
	keys *keyPlan
	// opaque: a struct is decoded by its fields where the inferred schema
	// is {} (a json.Marshaler type that decodes by its fields), so
	// "additionalProperties": false does not guard its keys.
	opaque bool
	// strs decodes a struct of plain strings without goccy/go-json; nil
	// for any other type.
	strs *stringArgs
}

var argsPlans sync.Map // reflect.Type → argsPlanResult

type argsPlanResult struct {
	plan argsPlan
	err  error
}

// argsPlanFor returns the plan of In type t, or an [*schema.Error] when t
// holds what no call could decode: see planBuilder.
func argsPlanFor(t reflect.Type) (argsPlan, error) {
	if r, ok := argsPlans.Load(t); ok {
		r := r.(argsPlanResult)
		return r.plan, r.err
	}
	b := planBuilder{memo: map[reflect.Type]*keyPlan{}}
	keys, err := b.build(t, t.String())
	r := argsPlanResult{plan: argsPlan{keys: keys, opaque: b.opaque, strs: stringArgsFor(t)}, err: err}
	argsPlans.Store(t, r)
	return r.plan, r.err
}

// planBuilder builds the key plan of an In type and refuses, with the
// field's path, what would fail on every call that sends it:
//
//   - an interface type with methods (only the empty interface has a
//     JSON form: any value);
//   - a struct type with fields none of which is a JSON member (struct{}
//     is fine: no arguments);
//   - a type written as a string by encoding.TextMarshaler that cannot
//     be read from one;
//   - a map whose keys are neither strings, integers nor
//     encoding.TextUnmarshaler values;
//   - channels, functions, complex numbers and unsafe pointers.
type planBuilder struct {
	memo   map[reflect.Type]*keyPlan
	opaque bool
}

func (b *planBuilder) build(t reflect.Type, path string) (*keyPlan, error) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	if p, ok := b.memo[t]; ok {
		return p, nil
	}
	pt := reflect.PointerTo(t)
	if pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) {
		return nil, nil // read by its own method, not by keys
	}
	marshals := pt.Implements(marshalerType)
	if !marshals && pt.Implements(textMarshalerType) && t.Kind() != reflect.String {
		return nil, &schema.Error{Path: path, Type: t, Reason: "the type is written as a JSON string (encoding.TextMarshaler) " +
			"but cannot be read from one: it does not implement encoding.TextUnmarshaler"}
	}
	p, err := b.kind(t, path)
	if p != nil && marshals {
		b.opaque = true // inferred as {}, decoded by its fields
	}
	return p, err
}

func (b *planBuilder) kind(t reflect.Type, path string) (*keyPlan, error) {
	switch t.Kind() {
	case reflect.Interface:
		if t.NumMethod() > 0 {
			return nil, &schema.Error{Path: path, Type: t, Reason: "an interface type with methods cannot receive arguments: " +
				"decoding has no concrete type to make (use any for any JSON value, or a concrete type)"}
		}
		return nil, nil
	case reflect.Struct:
		return b.structPlan(t, path)
	case reflect.Map:
		if k := t.Key(); !keyDecodes(k) {
			return nil, &schema.Error{Path: path, Type: t, Reason: "map keys must be strings, integers or implement encoding.TextUnmarshaler"}
		}
		return b.container(t, planMap, path+"[key]")
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !natural.HasJSONMethods(t.Elem()) {
			return nil, nil // base64
		}
		return b.container(t, planList, path+"[]")
	case reflect.Array:
		return b.container(t, planList, path+"[]")
	case reflect.Chan, reflect.Func, reflect.Complex64, reflect.Complex128, reflect.UnsafePointer:
		return nil, &schema.Error{Path: path, Type: t, Reason: "type has no JSON form (" + t.Kind().String() + ")"}
	}
	return nil, nil
}

func keyDecodes(k reflect.Type) bool {
	switch k.Kind() {
	case reflect.String, reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return reflect.PointerTo(k).Implements(textUnmarshalerType)
}

func (b *planBuilder) structPlan(t reflect.Type, path string) (*keyPlan, error) {
	ms := schema.Members(t)
	if len(ms) == 0 {
		if t.NumField() > 0 {
			return nil, &schema.Error{Path: path, Type: t, Reason: "the struct has fields but none is exported, " +
				"so no argument can reach them (struct{} declares a tool without arguments)"}
		}
		return nil, nil
	}
	p := &keyPlan{kind: planStruct, members: make(map[string]*keyPlan, len(ms)), names: make([]string, len(ms))}
	b.memo[t] = p
	for i, m := range ms {
		sub, err := b.build(m.Type, path+"."+m.GoPath)
		if err != nil {
			return nil, err
		}
		p.members[m.Name], p.names[i] = sub, m.Name
	}
	return p, nil
}

// container returns the plan of a map or a list, nil when nothing inside
// its values has keys to check.
func (b *planBuilder) container(t reflect.Type, kind planKind, path string) (*keyPlan, error) {
	p := &keyPlan{kind: kind}
	b.memo[t] = p
	elem, err := b.build(t.Elem(), path)
	if err != nil || elem == nil {
		b.memo[t] = nil
		return nil, err
	}
	p.elem = elem
	return p, nil
}
