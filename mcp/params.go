package mcp

import (
	"context"
	"reflect"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// handler runs a method whose params were already routed.
type handler func(ctx context.Context, ss *session, c *call, r *request) (any, error)

// typed adapts a handler of decoded params P (a protocol params type) for
// the method table: the params are decoded once, before the handler runs,
// and a member of the wrong type is -32602 naming it. P's members are
// listed once, here; the P values are pooled, since handlers keep none of
// them past their return (they keep slices of the message, not P).
func typed[P any](h func(ctx context.Context, ss *session, c *call, r *request, p *P) (any, error)) handler {
	ms := membersOf(reflect.TypeFor[P]())
	pool := sync.Pool{New: func() any { return new(P) }}
	return func(ctx context.Context, ss *session, c *call, r *request) (any, error) {
		p := pool.Get().(*P)
		defer func() {
			var zero P
			*p = zero
			pool.Put(p)
		}()
		if err := decodeInto(r.params, reflect.ValueOf(p).Elem(), ms, ""); err != nil {
			return nil, err
		}
		return h(ctx, ss, c, r, p)
	}
}

// decodeMembers fills the struct dst points to from the members of obj,
// matched by exact key (never case-insensitively, unlike encoding/json),
// reusing the scan that found them:
//
//   - a json.RawMessage field gets the member's bytes as they are, not a
//     copy (tools/call's arguments can be megabytes);
//   - a struct field is filled the same way from the member's object, at
//     any depth;
//   - other fields are decoded from the member's value;
//   - absent and null members leave the field zero, "_meta" is skipped
//     (routing read it once), and unknown members are ignored.
func decodeMembers(obj jsonx.Object, dst any) *jsonrpc.Error {
	v := reflect.ValueOf(dst).Elem()
	return decodeInto(obj, v, membersOf(v.Type()), "")
}

func decodeInto(obj jsonx.Object, v reflect.Value, ms []member, path string) *jsonrpc.Error {
	for i := range ms {
		f := &ms[i]
		raw := obj.Get(f.name)
		if raw == nil || string(raw) == "null" {
			continue
		}
		fv := v.FieldByIndex(f.index)
		switch {
		case f.raw:
			fv.SetBytes(raw)
		case f.object:
			inner, err := jsonx.ParseObject(raw)
			if err != nil {
				return invalidParams("%q must be an object", path+f.name)
			}
			if err := decodeInto(inner, fv, f.inner, path+f.name+"."); err != nil {
				return err
			}
		case f.str && plainString(raw):
			fv.SetString(string(raw[1 : len(raw)-1]))
		default:
			if json.Unmarshal(raw, fv.Addr().Interface()) != nil {
				return invalidParams("%q must be %s", path+f.name, f.want)
			}
		}
	}
	return nil
}

// plainString reports whether raw is a JSON string with no escapes, whose
// text is its bytes between the quotes (the message was validated).
func plainString(raw []byte) bool {
	if len(raw) < 2 || raw[0] != '"' {
		return false
	}
	for _, c := range raw[1 : len(raw)-1] {
		if c == '\\' {
			return false
		}
	}
	return true
}

// member is one decodable field of a params type.
type member struct {
	name   string // the JSON member name
	index  []int
	raw    bool     // json.RawMessage: taken as it is
	object bool     // a struct: decoded member by member
	inner  []member // the struct's members
	str    bool     // a string kind
	want   string   // the JSON type, for the error message
}

var (
	membersMu    sync.RWMutex
	membersCache = map[reflect.Type][]member{}
	rawType      = reflect.TypeFor[json.RawMessage]()
)

// membersOf lists t's JSON members, promoted fields of embedded structs
// included, computed once per type. Params types are not recursive.
func membersOf(t reflect.Type) []member {
	membersMu.RLock()
	ms, ok := membersCache[t]
	membersMu.RUnlock()
	if ok {
		return ms
	}
	ms = collectMembers(t, nil)
	membersMu.Lock()
	membersCache[t] = ms
	membersMu.Unlock()
	return ms
}

func collectMembers(t reflect.Type, prefix []int) []member {
	var ms []member
	for i := range t.NumField() {
		sf := t.Field(i)
		index := append(append([]int(nil), prefix...), i)
		name, _, _ := strings.Cut(sf.Tag.Get("json"), ",")
		if sf.Anonymous && name == "" && sf.Type.Kind() == reflect.Struct {
			ms = append(ms, collectMembers(sf.Type, index)...)
			continue
		}
		// _meta was read once by route; inputResponses is read raw, answer
		// by answer, by openInput (an extra answer of any shape must not
		// fail the request).
		if !sf.IsExported() || name == "-" || name == "_meta" || name == "inputResponses" {
			continue
		}
		if name == "" {
			name = sf.Name
		}
		m := member{name: name, index: index, want: jsonKind(sf.Type)}
		m.raw = sf.Type == rawType
		m.object = !m.raw && sf.Type.Kind() == reflect.Struct && !implementsUnmarshaler(sf.Type)
		if m.object {
			m.inner = membersOf(sf.Type)
		}
		m.str = sf.Type.Kind() == reflect.String
		ms = append(ms, m)
	}
	return ms
}

func implementsUnmarshaler(t reflect.Type) bool {
	return reflect.PointerTo(t).Implements(reflect.TypeFor[json.Unmarshaler]())
}

// jsonKind names the JSON type a Go field decodes from.
func jsonKind(t reflect.Type) string {
	if t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.String:
		return "a string"
	case reflect.Bool:
		return "a boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64,
		reflect.Float32, reflect.Float64:
		return "a number"
	case reflect.Slice, reflect.Array:
		return "an array"
	case reflect.Struct, reflect.Map:
		return "an object"
	}
	return "valid JSON"
}
