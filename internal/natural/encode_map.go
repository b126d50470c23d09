package natural

import (
	"cmp"
	"encoding"
	"reflect"
	"slices"
	"strconv"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// mapEncoder writes a map as an object whose names are sorted, as
// encoding/json sorts them; a nil map is {}.
func (b *encoderBuilder) mapEncoder(e *Encoder, t reflect.Type) {
	keyName := keyNamer(t.Key())
	if keyName == nil {
		e.write = func(*encodeState, reflect.Value) error {
			return &encodeError{msg: "the value's keys cannot be written as JSON member names"}
		}
		return
	}
	if w := stringMapWriter(t); w != nil {
		e.write = w
		return
	}
	elem := b.of(t.Elem())
	// The pairs are copied into a slice, where keys and values are
	// addressable for their methods, in one allocation.
	pairsType := reflect.SliceOf(reflect.StructOf([]reflect.StructField{
		{Name: "K", Type: t.Key()}, {Name: "V", Type: t.Elem()},
	}))
	e.write = func(s *encodeState, v reflect.Value) error {
		n := v.Len()
		if n == 0 {
			s.buf = append(s.buf, '{', '}')
			return nil
		}
		if s.depth++; s.depth > maxEncodeDepth {
			return tooDeep()
		}
		pairs := reflect.MakeSlice(pairsType, n, n)
		var small [smallMap]mapEntry // on the stack for most maps
		entries := small[:0]
		if n > smallMap {
			entries = make([]mapEntry, 0, n)
		}
		var it reflect.MapIter
		it.Reset(v)
		for i := 0; i < n && it.Next(); i++ {
			p := pairs.Index(i)
			k := p.Field(0)
			k.SetIterKey(&it)
			name, err := keyName(k)
			if err != nil {
				return err
			}
			p.Field(1).SetIterValue(&it)
			entries = append(entries, mapEntry{name, i})
		}
		slices.SortFunc(entries, func(a, b mapEntry) int { return cmp.Compare(a.name, b.name) })
		s.buf = append(s.buf, '{')
		for i, en := range entries {
			if i > 0 {
				s.buf = append(s.buf, ',')
			}
			s.buf = append(jsonx.AppendString(s.buf, en.name), ':')
			if err := elem.write(s, pairs.Index(en.at).Field(1)); err != nil {
				return at(err, en.name)
			}
		}
		s.buf = append(s.buf, '}')
		s.depth--
		return nil
	}
}

var (
	stringMapType = reflect.TypeFor[map[string]string]()
	anyMapType    = reflect.TypeFor[map[string]any]()
)

// stringMapWriter returns a faster writer for the maps most results hold,
// those whose type converts to map[string]string or map[string]any; nil
// for others.
func stringMapWriter(t reflect.Type) func(*encodeState, reflect.Value) error {
	switch {
	case t.ConvertibleTo(stringMapType) && t.Elem().Kind() == reflect.String && !HasJSONMethods(t.Elem()):
		return func(s *encodeState, v reflect.Value) error {
			return writeSortedMap(s, asMap[string](v, t, stringMapType), func(s *encodeState, x string) error {
				s.buf = jsonx.AppendString(s.buf, x)
				return nil
			})
		}
	case t.ConvertibleTo(anyMapType) && t.Elem() == anyMapType.Elem():
		return func(s *encodeState, v reflect.Value) error {
			return writeSortedMap(s, asMap[any](v, t, anyMapType), func(s *encodeState, x any) error {
				if x == nil {
					s.buf = append(s.buf, "null"...)
					return nil
				}
				return writeDynamic(s, reflect.ValueOf(x))
			})
		}
	}
	return nil
}

// asMap returns v, a map of type t that converts to mt, as a
// map[string]V, without copying it.
func asMap[V any](v reflect.Value, t, mt reflect.Type) map[string]V {
	if t != mt {
		v = v.Convert(mt)
	}
	return v.Interface().(map[string]V)
}

// writeSortedMap writes m with its names sorted; nil is {}.
func writeSortedMap[V any](s *encodeState, m map[string]V, write func(*encodeState, V) error) error {
	if len(m) == 0 {
		s.buf = append(s.buf, '{', '}')
		return nil
	}
	if s.depth++; s.depth > maxEncodeDepth {
		return tooDeep()
	}
	var small [smallMap]string // on the stack for most maps
	names := small[:0]
	if len(m) > smallMap {
		names = make([]string, 0, len(m))
	}
	for k := range m {
		names = append(names, k)
	}
	slices.Sort(names)
	s.buf = append(s.buf, '{')
	for i, name := range names {
		if i > 0 {
			s.buf = append(s.buf, ',')
		}
		s.buf = append(jsonx.AppendString(s.buf, name), ':')
		if err := write(s, m[name]); err != nil {
			return at(err, name)
		}
	}
	s.buf = append(s.buf, '}')
	s.depth--
	return nil
}

// smallMap is the size of the maps whose names are sorted on the stack.
const smallMap = 16

// mapEntry is a member name and the position of its pair.
type mapEntry struct {
	name string
	at   int
}

// keyNamer returns how a map key becomes a member name, as encoding/json
// makes it: a string as it is, else its MarshalText, else an integer in
// decimal; nil for keys of other types.
func keyNamer(kt reflect.Type) func(reflect.Value) (string, error) {
	text := func(m encoding.TextMarshaler) (string, error) {
		b, err := m.MarshalText()
		if err != nil {
			return "", &encodeError{msg: "a key's custom text encoding failed: " + err.Error()}
		}
		return string(b), nil
	}
	switch {
	case kt.Kind() == reflect.String:
		return func(v reflect.Value) (string, error) { return v.String(), nil }
	case kt.Implements(textMarshalerType):
		return func(v reflect.Value) (string, error) {
			if v.Kind() == reflect.Pointer && v.IsNil() {
				return "", nil
			}
			return text(v.Interface().(encoding.TextMarshaler))
		}
	case reflect.PointerTo(kt).Implements(textMarshalerType):
		return func(v reflect.Value) (string, error) { return text(v.Addr().Interface().(encoding.TextMarshaler)) }
	}
	switch kt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		return func(v reflect.Value) (string, error) { return strconv.FormatInt(v.Int(), 10), nil }
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return func(v reflect.Value) (string, error) { return strconv.FormatUint(v.Uint(), 10), nil }
	}
	return nil
}
