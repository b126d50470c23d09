package tool

import (
	"encoding"
	"errors"
	"reflect"
	"regexp"
	"strconv"
	"strings"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/internal/natural"
	"github.com/mcpwire/mcpwire/schema"
)

// The decoder reports some failures without saying where: the error of a
// type's own UnmarshalJSON or UnmarshalText (a time.Time, a netip.Addr, a
// *big.Int), and a few of its own. failure finds the value that fails by
// walking the arguments along In and decoding, alone, each value read by
// a method and each scalar; it runs only when a call already failed.

// failure is the value that does not decode, and why.
type failure struct {
	tokens []string
	raw    []byte
	err    error
	key    bool // raw is an object key (as its string's content)
}

// maxLocateDepth bounds the walk of failing arguments.
const maxLocateDepth = 1000

// locateFailure returns the first value of raw, read as a t, that fails
// to decode on its own, in document order.
func locateFailure(raw []byte, t reflect.Type, tokens []string) (failure, bool) {
	if len(tokens) > maxLocateDepth {
		return failure{}, false
	}
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pt := reflect.PointerTo(t)
	if pt.Implements(unmarshalerType) || pt.Implements(textUnmarshalerType) || isScalarKind(t) {
		if err := json.Unmarshal(raw, reflect.New(t).Interface()); err != nil {
			return failure{tokens: tokens, raw: raw, err: err}, true
		}
		return failure{}, false
	}
	var found failure
	var ok bool
	visit := func(token string, val []byte, vt reflect.Type) bool {
		found, ok = locateFailure(val, vt, append(tokens[:len(tokens):len(tokens)], token))
		return !ok
	}
	switch t.Kind() {
	case reflect.Struct:
		members := map[string]reflect.Type{}
		for _, m := range schema.Members(t) {
			if !m.Quoted { // read inside a string: the decoder locates those
				members[m.Name] = m.Type
			}
		}
		eachMember(raw, func(key string, val []byte) bool {
			mt, known := members[key]
			return !known || visit(key, val, mt)
		})
	case reflect.Map:
		kt := t.Key()
		eachMember(raw, func(key string, val []byte) bool {
			if err := decodeKey(key, kt); err != nil {
				found, ok = failure{tokens: append(tokens[:len(tokens):len(tokens)], key), raw: []byte(key), err: err, key: true}, true
				return false
			}
			return visit(key, val, t.Elem())
		})
	case reflect.Slice, reflect.Array:
		if t.Kind() == reflect.Slice && t.Elem().Kind() == reflect.Uint8 && !natural.HasJSONMethods(t.Elem()) {
			return failure{}, false // base64: the decoder locates it
		}
		eachItem(raw, func(i int, val []byte) bool { return visit(strconv.Itoa(i), val, t.Elem()) })
	}
	return found, ok
}

func isScalarKind(t reflect.Type) bool {
	switch t.Kind() {
	case reflect.Bool, reflect.String, reflect.Float32, reflect.Float64,
		reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return true
	}
	return false
}

// decodeKey reads a member name into a map key of type kt, as the decoder
// does: a string as it is, else by UnmarshalText, else as an integer.
func decodeKey(name string, kt reflect.Type) error {
	k := reflect.New(kt)
	switch {
	case kt.Kind() == reflect.String:
		return nil
	case k.Type().Implements(textUnmarshalerType):
		return k.Interface().(encoding.TextUnmarshaler).UnmarshalText([]byte(name))
	}
	var err error
	switch kt.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		_, err = strconv.ParseInt(name, 10, kt.Bits())
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		_, err = strconv.ParseUint(name, 10, kt.Bits())
	}
	if err != nil {
		lo, hi, _ := jsonx.NumberRange(kt)
		return integerKeyError("should be an integer from " + lo + " to " + hi)
	}
	return nil
}

// integerKeyError says what an integer map key should be.
type integerKeyError string

func (e integerKeyError) Error() string { return string(e) }

// violation says why the value failed, in JSON terms, in the words of
// the validator's violations (package schema): the value as sent, then
// what it should be or why it cannot be read.
func (f failure) violation() schema.Violation {
	ptr := jsonx.Pointer(f.tokens...)
	if f.key {
		v := schema.Violation{Pointer: ptr, Keyword: "propertyNames",
			Message: "the property name " + jsonx.ValueText(jsonx.AppendString(nil, string(f.raw)))}
		var ie integerKeyError
		switch text := methodText(f.err); {
		case errors.As(f.err, &ie):
			v.Message += " " + ie.Error()
		case text != "":
			v.Message += " cannot be read: " + text
		default:
			v.Message += " cannot be read"
		}
		return v
	}
	var te *json.UnmarshalTypeError
	if errors.As(f.err, &te) && te.Type != nil {
		return typeViolation(ptr, f.raw, te)
	}
	var pe *time.ParseError
	if errors.As(f.err, &pe) {
		return dateTimeViolation(ptr, pe.Value)
	}
	v := schema.Violation{Pointer: ptr, Keyword: "decode", Message: jsonx.ValueText(f.raw) + " cannot be read"}
	if f.raw != nil && f.raw[0] == '"' {
		v.Keyword = "format"
	}
	if text := methodText(f.err); text != "" {
		v.Message += ": " + text
	}
	return v
}

// dateTimeViolation explains a string that is not a date-time: value is
// its content.
func dateTimeViolation(ptr, value string) schema.Violation {
	v := schema.NewViolation(ptr, "format", jsonx.AppendString(nil, value), "date-time")
	v.Message += " as RFC 3339 writes it, such as 2025-03-14T09:30:00Z"
	return v
}

// Compiled on first use, not at package initialisation: only a decoding
// method's error needs them.
var (
	// callPrefix is the "netip.ParsePrefix("1.2.3.4/99"): " that starts
	// some errors of the standard library.
	callPrefix = sync.OnceValue(func() *regexp.Regexp { return regexp.MustCompile(`^[A-Za-z_][A-Za-z0-9_.]*\(.*?\): `) })
	// goWords are what marks a text written for Go programmers: a Go
	// type or package name, a method of decoding.
	goWords = sync.OnceValue(func() *regexp.Regexp {
		return regexp.MustCompile(`\bGo\b|[Uu]nmarshal|\*[A-Za-z]|\breflect\b|\binterface \{|\bmap\[|\[\]|\b[a-z][a-z0-9]*\.[A-Z]|\b[a-z]+/[a-z]+:`)
	})
)

// methodText returns the text of a decoding method's error when a model
// can read it, without the name of the Go function that failed; "" when
// it speaks of Go.
func methodText(err error) string {
	text := strings.TrimPrefix(err.Error(), "json: ")
	text = callPrefix().ReplaceAllString(text, "")
	if goWords().MatchString(text) {
		return ""
	}
	return clip.String(text)
}
