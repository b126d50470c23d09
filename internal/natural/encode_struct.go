package natural

import (
	"reflect"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/schema"
)

// member is how one member of a struct is encoded.
type member struct {
	name      string
	key       []byte // the name as JSON, and the colon
	index     []int
	direct    bool // one field of the struct itself, no embedded pointer on the way
	enc       *Encoder
	omitEmpty bool
	omitZero  func(reflect.Value) bool // nil without omitzero
	pointer   bool                     // a nil pointer: left out, unless nullOK
	nullOK    bool                     // the member's schema accepts null
	quoted    *Encoder                 // the ",string" option: the scalar's encoder, after pointers
}

// structEncoder writes the members package schema lists, in their order.
// A member promoted through a nil embedded pointer is left out, as
// encoding/json leaves it out; so is a nil pointer member, which the
// inferred schema does not require, unless its schema accepts null
// (jsonschema:"nullable", or a type whose schema is {}), and then it is
// null.
func (b *encoderBuilder) structEncoder(e *Encoder, t reflect.Type) {
	ms := schema.Members(t)
	members := make([]member, len(ms))
	for i, m := range ms {
		me := &members[i]
		me.name, me.index, me.direct = m.Name, m.Index, len(m.Index) == 1
		me.key = append(jsonx.AppendString(nil, m.Name), ':')
		me.enc = b.of(m.Type)
		e.addr = e.addr || me.enc.addr
		me.omitEmpty = m.OmitEmpty
		if m.OmitZero {
			me.omitZero = zeroCheck(m.Type)
		}
		me.pointer = m.Type.Kind() == reflect.Pointer
		me.nullOK = m.Nullable || acceptsNull(m.Type)
		if st, ok := quotable(m.Type); ok && m.Quoted {
			me.quoted = b.of(st)
		}
	}
	e.write = func(s *encodeState, v reflect.Value) error {
		if s.depth++; s.depth > maxEncodeDepth {
			return tooDeep()
		}
		s.buf = append(s.buf, '{')
		first := true
		for i := range members {
			m := &members[i]
			var f reflect.Value
			if m.direct {
				f = v.Field(m.index[0])
			} else if f = m.field(v); !f.IsValid() {
				continue
			}
			if m.omitEmpty && isEmpty(f) || m.omitZero != nil && m.omitZero(f) {
				continue
			}
			nilPointer := m.pointer && f.IsNil()
			if nilPointer && !m.nullOK {
				continue
			}
			if !first {
				s.buf = append(s.buf, ',')
			}
			first = false
			s.buf = append(s.buf, m.key...)
			var err error
			switch {
			case nilPointer:
				s.buf = append(s.buf, "null"...)
			case m.quoted != nil:
				err = writeQuoted(s, f, m.quoted)
			default:
				err = m.enc.write(s, f)
			}
			if err != nil {
				return at(err, m.name)
			}
		}
		s.buf = append(s.buf, '}')
		s.depth--
		return nil
	}
}

// field returns the member's field in v, or the zero Value when an
// embedded pointer on the way is nil.
func (m *member) field(v reflect.Value) reflect.Value {
	for i, x := range m.index {
		if i > 0 && v.Kind() == reflect.Pointer {
			if v.IsNil() {
				return reflect.Value{}
			}
			v = v.Elem()
		}
		v = v.Field(x)
	}
	return v
}

// quotable returns the type the ",string" option applies to, after
// pointers, as inference reads it: a bool, a number or a string without a
// custom JSON form.
func quotable(t reflect.Type) (reflect.Type, bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return t, !HasJSONMethods(t)
	}
	return nil, false
}

// writeQuoted writes a value with the ",string" option: the JSON of the
// scalar inside a JSON string.
func writeQuoted(s *encodeState, v reflect.Value, scalar *Encoder) error {
	for v.Kind() == reflect.Pointer {
		if v.IsNil() {
			s.buf = append(s.buf, "null"...)
			return nil
		}
		v = v.Elem()
	}
	if v.Kind() == reflect.String {
		s.buf = jsonx.AppendString(s.buf, string(jsonx.AppendString(nil, v.String())))
		return nil
	}
	s.buf = append(s.buf, '"')
	if err := scalar.write(s, v); err != nil {
		return err
	}
	s.buf = append(s.buf, '"')
	return nil
}

// isEmpty reports what omitempty leaves out, as encoding/json does.
func isEmpty(v reflect.Value) bool {
	switch v.Kind() {
	case reflect.Array, reflect.Map, reflect.Slice, reflect.String:
		return v.Len() == 0
	case reflect.Bool:
		return !v.Bool()
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return v.Int() == 0
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return v.Uint() == 0
	case reflect.Float32, reflect.Float64:
		return v.Float() == 0
	case reflect.Interface, reflect.Pointer:
		return v.IsNil()
	}
	return false
}

type isZeroer interface{ IsZero() bool }

// zeroCheck returns what omitzero leaves out, as encoding/json does: the
// value's IsZero method decides when it has one.
func zeroCheck(t reflect.Type) func(reflect.Value) bool {
	switch {
	case t.Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if (v.Kind() == reflect.Pointer || v.Kind() == reflect.Interface) && v.IsNil() {
				return true
			}
			return v.Interface().(isZeroer).IsZero()
		}
	case reflect.PointerTo(t).Implements(isZeroerType):
		return func(v reflect.Value) bool {
			if !v.CanAddr() {
				v = addressable(v)
			}
			return v.Addr().Interface().(isZeroer).IsZero()
		}
	}
	return reflect.Value.IsZero
}
