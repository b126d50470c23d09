package protocol

import (
	"reflect"

	json "github.com/goccy/go-json"
)

// marshalVariant encodes the one non-nil pointer among variants, the
// fields of the union named what. None or more than one set is an error.
func marshalVariant(what string, variants ...any) ([]byte, error) {
	var found any
	for _, v := range variants {
		if reflect.ValueOf(v).IsNil() {
			continue
		}
		if found != nil {
			return nil, errorf("%s has more than one variant set", what)
		}
		found = v
	}
	if found == nil {
		return nil, errorf("%s has no variant set", what)
	}
	return json.Marshal(found)
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
