// Package natural encodes Go values as JSON the way their inferred schemas
// describe them (package schema's members), so that the zero value of any
// type and every natural Go value keeps its schema: a nil slice is [] (a
// nil []byte ""), a nil map {}, a nil pointer member is left out unless
// its schema accepts null. Everything else is encoded as encoding/json
// encodes it, without HTML escaping. Errors name the value that has no
// JSON form by its JSON pointer, never by its Go type.
//
// It serves package tool (a typed handler's Out, StructuredResult) and the
// server's contract check (a Go value a raw handler sets as structured
// content), so both encode a value the same way.
package natural

import (
	"bytes"
	"encoding"
	"encoding/base64"
	"reflect"
	"slices"
	"strconv"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// Encoder writes the JSON of the values of one type.
type Encoder struct {
	write func(e *encodeState, v reflect.Value) error
	// nullable: the type's inferred schema is {} (an interface, a
	// json.Marshaler), which accepts null.
	nullable bool
	// addr: encoding calls a method with a pointer receiver on the value
	// or on a value it holds inline, so the value must be addressable.
	addr bool
}

// encodeState is the output of one encoding and its nesting depth.
type encodeState struct {
	buf   []byte
	depth int
}

// maxEncodeDepth bounds the nesting of structured content, so that a
// pointer cycle is an error and not a stack overflow.
const maxEncodeDepth = 10000

var rawMessageType = reflect.TypeFor[json.RawMessage]()

var (
	encoders   sync.Map // reflect.Type → *Encoder
	encodersMu sync.Mutex
)

// For returns the encoder of t, compiling it on first use.
func For(t reflect.Type) *Encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(*Encoder)
	}
	encodersMu.Lock()
	defer encodersMu.Unlock()
	b := encoderBuilder{}
	e := b.of(t)
	for t, e := range b.built {
		encoders.Store(t, e)
	}
	return e
}

// Marshal returns the JSON of v, encoded by its dynamic type.
func Marshal(v any) ([]byte, error) {
	if v == nil {
		return []byte("null"), nil
	}
	rv := reflect.ValueOf(v)
	return For(rv.Type()).Encode(rv)
}

// encodeStates hold the buffers values are encoded into before they are
// copied out at their size.
var encodeStates = sync.Pool{New: func() any { return new(encodeState) }}

// maxPooledBuffer is the largest buffer kept for the next encoding.
const maxPooledBuffer = 64 << 10

// Encode returns the JSON of v, a value of the encoder's type.
func (enc *Encoder) Encode(v reflect.Value) ([]byte, error) {
	if enc.addr && !v.CanAddr() {
		v = addressable(v)
	}
	s := encodeStates.Get().(*encodeState)
	s.buf, s.depth = s.buf[:0], 0
	err := enc.write(s, v)
	var out []byte
	if err == nil {
		out = bytes.Clone(s.buf)
	}
	if cap(s.buf) <= maxPooledBuffer {
		encodeStates.Put(s)
	}
	return out, err
}

// addressable returns an addressable copy of v.
func addressable(v reflect.Value) reflect.Value {
	c := reflect.New(v.Type()).Elem()
	c.Set(v)
	return c
}

// encoderBuilder compiles the encoders of a type and of the types it
// holds; a type met again while being compiled (a recursive type) gets
// the encoder being filled in.
type encoderBuilder struct {
	built map[reflect.Type]*Encoder
}

func (b *encoderBuilder) of(t reflect.Type) *Encoder {
	if e, ok := encoders.Load(t); ok {
		return e.(*Encoder)
	}
	if e, ok := b.built[t]; ok {
		return e
	}
	if b.built == nil {
		b.built = map[reflect.Type]*Encoder{}
	}
	e := &Encoder{}
	b.built[t] = e
	b.fill(e, t)
	return e
}

var (
	timeType          = reflect.TypeFor[time.Time]()
	numberType        = reflect.TypeFor[json.Number]()
	marshalerType     = reflect.TypeFor[json.Marshaler]()
	textMarshalerType = reflect.TypeFor[encoding.TextMarshaler]()
	isZeroerType      = reflect.TypeFor[isZeroer]()
)

// fill sets e to encode values of t, checking the custom JSON forms first
// in the order inference does.
func (b *encoderBuilder) fill(e *Encoder, t reflect.Type) {
	e.nullable = acceptsNull(t)
	pt := reflect.PointerTo(t)
	switch k := t.Kind(); {
	case k == reflect.Pointer:
		b.pointer(e, t)
	case k == reflect.Interface:
		e.write = writeInterface
	case t == timeType:
		e.write = writeTime
	case t == rawMessageType:
		e.write = writeRaw
	case t == numberType:
		e.write = writeNumber
	case t.Implements(marshalerType):
		e.write = writeMarshaler
	case pt.Implements(marshalerType):
		e.write, e.addr = writeAddrMarshaler, true
	case t.Implements(textMarshalerType):
		e.write = writeText
	case pt.Implements(textMarshalerType):
		e.write, e.addr = writeAddrText, true
	default:
		b.kind(e, t)
	}
}

func (b *encoderBuilder) kind(e *Encoder, t reflect.Type) {
	switch t.Kind() {
	case reflect.Bool:
		e.write = writeBool
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		e.write = writeInt
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		e.write = writeUint
	case reflect.Float32:
		e.write = writeFloat32
	case reflect.Float64:
		e.write = writeFloat64
	case reflect.String:
		e.write = writeString
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 && !HasJSONMethods(t.Elem()) {
			e.write = writeBytes
			return
		}
		elem := b.of(t.Elem())
		e.write = func(s *encodeState, v reflect.Value) error { return writeList(s, v, elem) }
	case reflect.Array:
		elem := b.of(t.Elem())
		e.addr = elem.addr
		e.write = func(s *encodeState, v reflect.Value) error { return writeList(s, v, elem) }
	case reflect.Map:
		b.mapEncoder(e, t)
	case reflect.Struct:
		b.structEncoder(e, t)
	default:
		e.write = writeUnsupported
	}
}

// acceptsNull reports whether the schema inferred for t accepts null: it
// is {} for interfaces and json.Marshaler types (time.Time aside), after
// pointers.
func acceptsNull(t reflect.Type) bool {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	return t.Kind() == reflect.Interface || t != timeType && reflect.PointerTo(t).Implements(marshalerType)
}

// HasJSONMethods reports whether t or *t has a custom JSON form
// (json.Marshaler or encoding.TextMarshaler).
func HasJSONMethods(t reflect.Type) bool {
	pt := reflect.PointerTo(t)
	return pt.Implements(marshalerType) || pt.Implements(textMarshalerType)
}

// pointer: a nil pointer is null when its element's schema accepts null,
// else its element's zero value (a nil pointer member is left out before
// it gets here: see structEncoder).
func (b *encoderBuilder) pointer(e *Encoder, t reflect.Type) {
	elem := b.of(t.Elem())
	et := t.Elem()
	acceptsNullElem := e.nullable
	e.write = func(s *encodeState, v reflect.Value) error {
		if v.IsNil() {
			if acceptsNullElem {
				s.buf = append(s.buf, "null"...)
				return nil
			}
			v = reflect.New(et)
		}
		if s.depth++; s.depth > maxEncodeDepth {
			return tooDeep()
		}
		err := elem.write(s, v.Elem())
		s.depth--
		return err
	}
}

func writeInterface(s *encodeState, v reflect.Value) error {
	if v.IsNil() {
		s.buf = append(s.buf, "null"...)
		return nil
	}
	return writeDynamic(s, v.Elem())
}

// writeDynamic writes v, the value an interface holds, by the encoder of
// its type.
func writeDynamic(s *encodeState, v reflect.Value) error {
	enc := For(v.Type())
	if enc.addr && !v.CanAddr() {
		v = addressable(v)
	}
	if s.depth++; s.depth > maxEncodeDepth {
		return tooDeep()
	}
	err := enc.write(s, v)
	s.depth--
	return err
}

func writeBool(s *encodeState, v reflect.Value) error {
	s.buf = strconv.AppendBool(s.buf, v.Bool())
	return nil
}

func writeInt(s *encodeState, v reflect.Value) error {
	s.buf = strconv.AppendInt(s.buf, v.Int(), 10)
	return nil
}

func writeUint(s *encodeState, v reflect.Value) error {
	s.buf = strconv.AppendUint(s.buf, v.Uint(), 10)
	return nil
}

func writeFloat32(s *encodeState, v reflect.Value) error { return writeFloat(s, v.Float(), 32) }

func writeFloat64(s *encodeState, v reflect.Value) error { return writeFloat(s, v.Float(), 64) }

func writeString(s *encodeState, v reflect.Value) error {
	s.buf = jsonx.AppendString(s.buf, v.String())
	return nil
}

// writeBytes writes a []byte as a base64 string; nil is "".
func writeBytes(s *encodeState, v reflect.Value) error {
	s.buf = append(s.buf, '"')
	s.buf = base64.StdEncoding.AppendEncode(s.buf, v.Bytes())
	s.buf = append(s.buf, '"')
	return nil
}

// writeList writes a slice or an array; a nil slice is [].
func writeList(s *encodeState, v reflect.Value, elem *Encoder) error {
	n := v.Len()
	if n == 0 {
		s.buf = append(s.buf, '[', ']')
		return nil
	}
	if s.depth++; s.depth > maxEncodeDepth {
		return tooDeep()
	}
	s.buf = append(s.buf, '[')
	for i := range n {
		if i > 0 {
			s.buf = append(s.buf, ',')
		}
		if err := elem.write(s, v.Index(i)); err != nil {
			return atIndex(err, i)
		}
	}
	s.buf = append(s.buf, ']')
	s.depth--
	return nil
}

func writeUnsupported(*encodeState, reflect.Value) error {
	return &encodeError{msg: "the value has no JSON form"}
}

// encodeError is a value that cannot be encoded, and where it is.
type encodeError struct {
	tokens []string // reference tokens, innermost first
	msg    string
}

// Error names the value by its JSON pointer, never by its Go type: the
// text may reach a model in a contract-violation result.
func (e *encodeError) Error() string {
	ptr := "(root)"
	if len(e.tokens) > 0 {
		tokens := slices.Clone(e.tokens)
		slices.Reverse(tokens)
		ptr = jsonx.Pointer(tokens...)
	}
	return "encoding structured content: " + ptr + ": " + e.msg
}

func tooDeep() error {
	return &encodeError{msg: "the value nests deeper than " + strconv.Itoa(maxEncodeDepth) + " levels (a pointer cycle?)"}
}

// at adds the reference token of the value that holds the failing one.
func at(err error, token string) error {
	if e, ok := err.(*encodeError); ok {
		e.tokens = append(e.tokens, token)
	}
	return err
}

func atIndex(err error, i int) error { return at(err, strconv.Itoa(i)) }
