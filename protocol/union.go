package protocol

import (
	"reflect"

	json "github.com/goccy/go-json"
)

// union is the one implementation of this package's unions: a struct U
// whose fields are pointers to its variants, exactly one of them set.
// Decoding asks pick for the name of the variant data holds (the value of
// a discriminator member such as "type", or a name the union's own rule
// gives by the members present) and decodes data into the field of the
// case of that name; a name no case has is an error naming tag. Encoding
// (marshalVariant) writes the one field that is set.
type union[U any] struct {
	tag   string // the discriminator in errors: "content block type"
	pick  func(data []byte) (string, error)
	cases []unionCase[U]
}

// unionCase is one variant of a union: its name, how data decodes into a
// new variant, and how the variant is set in the union's field.
type unionCase[U any] struct {
	name   string
	decode func(data []byte) (any, error)
	set    func(u *U, v any)
}

// variant returns the case name whose data decodes into the field that
// field selects.
func variant[U, T any](name string, field func(*U) **T) unionCase[U] {
	return unionCase[U]{
		name: name,
		decode: func(data []byte) (any, error) {
			var p *T
			err := decodeVariant(data, &p)
			return p, err
		},
		set: func(u *U, v any) { *field(u) = v.(*T) },
	}
}

// tagged returns a pick that reads the string member key.
func tagged(key string) func([]byte) (string, error) {
	return func(data []byte) (string, error) { return member(data, key) }
}

// onlyMember returns a pick that names the variant by the one of keys the
// object has; none or several is the error msg.
func onlyMember(msg string, keys ...string) func([]byte) (string, error) {
	return func(data []byte) (string, error) {
		f, err := members(data, keys...)
		if err != nil {
			return "", err
		}
		name := ""
		for i, m := range f {
			if m == nil {
				continue
			}
			if name != "" {
				return "", errorf("%s", msg)
			}
			name = keys[i]
		}
		if name == "" {
			return "", errorf("%s", msg)
		}
		return name, nil
	}
}

// unmarshal decodes data into *u, which it changes only on success.
func (d *union[U]) unmarshal(data []byte, u *U) error {
	name, err := d.pick(data)
	if err != nil {
		return err
	}
	for _, c := range d.cases {
		if c.name != name {
			continue
		}
		v, err := c.decode(data)
		if err != nil {
			return err
		}
		var zero U
		*u = zero
		c.set(u, v)
		return nil
	}
	return unknownVariant(d.tag, name)
}

// marshalVariant encodes the one non-nil pointer among variants, the
// fields of the union named what. None or more than one set is an error.
// The fields are passed one by one, not read by reflection, so that
// encoding a union allocates nothing of its own.
func marshalVariant(what string, variants ...any) ([]byte, error) {
	i, err := setVariant(what, variants...)
	if err != nil {
		return nil, err
	}
	return json.Marshal(variants[i])
}

// setVariant returns the index of the one non-nil pointer among variants,
// the fields of the union named what. None or more than one set is an
// error.
func setVariant(what string, variants ...any) (int, error) {
	found := -1
	for i, v := range variants {
		if reflect.ValueOf(v).IsNil() {
			continue
		}
		if found >= 0 {
			return 0, errorf("%s has more than one variant set", what)
		}
		found = i
	}
	if found < 0 {
		return 0, errorf("%s has no variant set", what)
	}
	return found, nil
}

// fieldCases returns a case per field of U, named by name from the
// field's variant type: for a union whose variants say their own name, so
// that a new variant is one new field.
func fieldCases[U any](name func(variant reflect.Type) string) []unionCase[U] {
	t := reflect.TypeFor[U]()
	cases := make([]unionCase[U], t.NumField())
	for i := range cases {
		elem := t.Field(i).Type.Elem()
		cases[i] = unionCase[U]{
			name: name(elem),
			decode: func(data []byte) (any, error) {
				v := reflect.New(elem).Interface()
				if u, ok := v.(json.Unmarshaler); ok {
					return v, u.UnmarshalJSON(data)
				}
				return v, json.Unmarshal(data, v)
			},
			set: func(u *U, v any) { reflect.ValueOf(u).Elem().Field(i).Set(reflect.ValueOf(v)) },
		}
	}
	return cases
}

// decodeVariant decodes data into a new T and, only when that succeeds,
// points *field at it: the decoding of one variant field of a union. A T
// with its own UnmarshalJSON is handed data directly; any other T goes
// through json.Unmarshal.
func decodeVariant[T any](data []byte, field **T) error {
	v := new(T)
	var err error
	if u, ok := any(v).(json.Unmarshaler); ok {
		err = u.UnmarshalJSON(data)
	} else {
		err = json.Unmarshal(data, v)
	}
	if err != nil {
		return err
	}
	*field = v
	return nil
}

// unknownVariant reports a discriminator value no variant of a union has.
func unknownVariant(what, value string) error {
	if value == "" {
		return errorf("%s is missing", what)
	}
	return errorf("unknown %s %q", what, value)
}
