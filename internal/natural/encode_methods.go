package natural

import (
	"encoding"
	"reflect"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// The writers of the types with a JSON form of their own: time.Time,
// json.RawMessage and json.Number, then json.Marshaler and
// encoding.TextMarshaler types, whose methods with a pointer receiver are
// called on an addressable value.

func writeTime(s *encodeState, v reflect.Value) error {
	var t time.Time
	if v.CanAddr() {
		t = *v.Addr().Interface().(*time.Time)
	} else {
		t = v.Interface().(time.Time)
	}
	offset := 0
	if t.Location() != time.UTC {
		_, offset = t.Zone()
	}
	if y := t.Year(); y < 0 || y > 9999 || offset <= -24*60*60 || offset >= 24*60*60 {
		return &encodeError{msg: "the date-time cannot be written as RFC 3339 (year from 0 to 9999, zone offset under 24 hours)"}
	}
	s.buf = append(s.buf, '"')
	s.buf = t.AppendFormat(s.buf, time.RFC3339Nano)
	s.buf = append(s.buf, '"')
	return nil
}

// writeNumber writes a json.Number as the number it holds, "" as 0, as
// encoding/json does.
func writeNumber(s *encodeState, v reflect.Value) error {
	n := v.String()
	if n == "" {
		n = "0"
	}
	if !jsonx.IsNumber(n) {
		return &encodeError{msg: "the number " + clip.Quote(n) + " is not a JSON number"}
	}
	s.buf = append(s.buf, n...)
	return nil
}

func writeRaw(s *encodeState, v reflect.Value) error {
	return appendJSON(s, v.Bytes())
}

// The writers of json.Marshaler and encoding.TextMarshaler types: by value
// (a nil pointer is null), or, for methods with a pointer receiver, through
// the value's address.
var (
	writeMarshaler     = byValue(callMarshalJSON)
	writeAddrMarshaler = byAddr(callMarshalJSON)
	writeText          = byValue(callMarshalText)
	writeAddrText      = byAddr(callMarshalText)
)

// byValue returns the writer that calls write with the value as an M, or
// writes null for a nil pointer.
func byValue[M any](write func(*encodeState, M) error) func(*encodeState, reflect.Value) error {
	return func(s *encodeState, v reflect.Value) error {
		if v.Kind() == reflect.Pointer && v.IsNil() {
			s.buf = append(s.buf, "null"...)
			return nil
		}
		return write(s, v.Interface().(M))
	}
}

// byAddr returns the writer that calls write with the value's address as
// an M, copying a value that is not addressable.
func byAddr[M any](write func(*encodeState, M) error) func(*encodeState, reflect.Value) error {
	return func(s *encodeState, v reflect.Value) error {
		if !v.CanAddr() {
			v = addressable(v)
		}
		return write(s, v.Addr().Interface().(M))
	}
}

func callMarshalJSON(s *encodeState, m json.Marshaler) error {
	b, err := m.MarshalJSON()
	if err != nil {
		return &encodeError{msg: "the value's custom JSON encoding failed: " + err.Error()}
	}
	return appendJSON(s, b)
}

// appendJSON appends b, a JSON value written by a custom encoding, without
// its white space; nil is null.
func appendJSON(s *encodeState, b []byte) error {
	if b == nil {
		s.buf = append(s.buf, "null"...)
		return nil
	}
	if !json.Valid(b) {
		return &encodeError{msg: "the value's custom JSON encoding is not valid JSON"}
	}
	s.buf = appendCompact(s.buf, b)
	return nil
}

func callMarshalText(s *encodeState, m encoding.TextMarshaler) error {
	b, err := m.MarshalText()
	if err != nil {
		return &encodeError{msg: "the value's custom text encoding failed: " + err.Error()}
	}
	s.buf = jsonx.AppendString(s.buf, string(b))
	return nil
}
