package tool

import (
	"encoding"
	"errors"
	"math"
	"reflect"
	"strconv"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/schema"
)

// The arguments a typed handler receives passed the input schema, yet
// decoding them into In can still fail: a given input schema looser than
// In, a bound in a struct tag wider than the field's type, 1e2 for an
// integer field (an integer to JSON Schema, not to the decoder). The
// decoder's error names Go types and fields; decodeViolation says the same
// in the terms of the other violation lines: a JSON pointer, the JSON type
// or range expected, the value clipped.

// decodeViolation describes why args did not decode into a value of type
// in. A failure the decoder does not locate (the error of a type's own
// decoding method, a date-time) is found by decoding the values alone
// (see locateFailure); its text is kept only when it does not speak of
// Go.
func decodeViolation(args []byte, err error, in reflect.Type) schema.Violation {
	f, located := locateFailure(args, in, nil)
	if located && f.key {
		return f.violation() // the decoder would describe the key as a value
	}
	var te *json.UnmarshalTypeError
	if errors.As(err, &te) && te.Type != nil {
		if ptr, raw := locate(args, te); ptr != "" || te.Field != "" {
			return typeViolation(ptr, raw, te)
		}
	}
	if located {
		return f.violation()
	}
	if te != nil && te.Type != nil {
		ptr, raw := locate(args, te)
		return typeViolation(ptr, raw, te)
	}
	var pe *time.ParseError
	if errors.As(err, &pe) {
		return dateTimeViolation("", pe.Value)
	}
	if text := methodText(err); text != "" {
		return schema.Violation{Keyword: "decode", Message: "the arguments cannot be read: " + text}
	}
	return schema.Violation{Keyword: "decode", Message: "the arguments cannot be read"}
}

// locate returns the pointer and the text of the value the decoder
// refused. The decoder reports its offset and its path as names joined by
// '.', which a name holding a '.' makes ambiguous: the offset, checked
// against that path, decides; the path alone is the fallback.
func locate(args []byte, te *json.UnmarshalTypeError) (string, []byte) {
	if tokens, raw, ok := schema.Locate(args, int(te.Offset)); ok && decoderPath(tokens) == te.Field {
		return jsonx.Pointer(tokens...), raw
	}
	if te.Field == "" {
		return "", nil
	}
	tokens := strings.Split(te.Field, ".")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return jsonx.Pointer(tokens...), nil
}

var tokenEscaper = strings.NewReplacer("~", "~0", "/", "~1")

// decoderPath writes tokens the way the decoder writes a field's path.
func decoderPath(tokens []string) string {
	escaped := make([]string, len(tokens))
	for i, t := range tokens {
		escaped[i] = tokenEscaper.Replace(t)
	}
	return strings.Join(escaped, ".")
}

// typeViolation explains a value the decoder refused for a Go type. raw
// is the value's text when it was located.
func typeViolation(ptr string, raw []byte, te *json.UnmarshalTypeError) schema.Violation {
	want := jsonType(te.Type)
	kind, literal, hasLiteral := strings.Cut(te.Value, " ")
	got, value, text := kindOf(raw, kind, literal)
	v := schema.Violation{Pointer: ptr, Keyword: "type"}
	switch {
	case isNumeric(got) && isNumeric(want) && hasLiteral && text != "":
		return numberViolation(ptr, text, te.Type)
	case got == "string" && (isNumeric(want) || want == "boolean") && te.Value != "string":
		// A field with the ",string" option: the number or boolean is
		// written inside a string.
		if want != "boolean" && jsonx.IsNumber(text) {
			return numberViolation(ptr, text, te.Type)
		}
		v.Message = jsonx.ValueText(value) + " should be a string holding " + article(want)
	case got == "string" && want == "string" && te.Type.Kind() == reflect.Slice:
		return schema.NewViolation(ptr, "contentEncoding", value, "base64")
	case want != "" && got != want && !(got == "integer" && want == "number"):
		return schema.TypeViolation(ptr, value, got, want)
	case isScalar(te.Type):
		return schema.TypeViolation(ptr, value, got, "string") // the ",string" option
	case want != "":
		v.Message = jsonx.ValueText(value) + " cannot be read as " + article(want)
	default:
		v.Message = jsonx.ValueText(value) + " cannot be read"
	}
	return v
}

// kindOf returns the JSON type of the refused value, as the validator
// names it, the value as sent (nil when it is not known) and its text (a
// string's content, a number or a boolean as written): from raw when it
// is known, else from the decoder's description ("number 1e300",
// `string "x"`).
func kindOf(raw []byte, kind, literal string) (jsonKind string, value []byte, text string) {
	if raw == nil {
		switch kind {
		case "bool":
			if literal == "true" || literal == "false" {
				return "boolean", []byte(literal), literal
			}
			return "boolean", nil, ""
		case "number":
			if jsonx.IsNumber(literal) {
				return numberKind(literal), []byte(literal), literal
			}
		case "string":
			if s, err := strconv.Unquote(literal); err == nil {
				return kind, jsonx.AppendString(nil, s), s
			}
		}
		return kind, nil, ""
	}
	switch raw[0] {
	case '"':
		var s string
		_ = json.Unmarshal(raw, &s) // a located string is valid JSON
		return "string", raw, s
	case 't', 'f':
		return "boolean", raw, string(raw)
	case 'n':
		return "null", raw, ""
	case '{':
		return "object", raw, ""
	case '[':
		return "array", raw, ""
	}
	return numberKind(string(raw)), raw, string(raw)
}

// numberKind names a number as the validator does: "integer" when it has
// no fractional part.
func numberKind(lit string) string {
	if !strings.ContainsAny(lit, ".eE") {
		return "integer"
	}
	if f, err := strconv.ParseFloat(lit, 64); err == nil && f == math.Trunc(f) {
		return "integer"
	}
	return "number"
}

func isNumeric(jsonType string) bool { return jsonType == "integer" || jsonType == "number" }

// numberViolation explains a number that does not fit the Go numeric type
// t: above or below its range (the bounds inference writes into the
// schema), a fraction for an integer, or an integer written with a
// fraction or an exponent, which the decoder refuses. The validator words
// the first two alike (see schema.NewViolation, schema.TypeViolation).
func numberViolation(ptr, lit string, t reflect.Type) schema.Violation {
	lo, hi, _ := jsonx.NumberRange(t)
	num := []byte(lit)
	above := schema.NewViolation(ptr, "maximum", num, hi)
	below := schema.NewViolation(ptr, "minimum", num, lo)
	says := func(words string) schema.Violation {
		return schema.Violation{Pointer: ptr, Keyword: "type", Message: jsonx.ValueText(num) + words}
	}
	neg := strings.HasPrefix(lit, "-")
	if k := t.Kind(); k == reflect.Float32 || k == reflect.Float64 {
		f, _ := strconv.ParseFloat(lit, 64) // ±Inf past float64
		switch max, _ := strconv.ParseFloat(hi, 64); {
		case f > max:
			return above
		case f < -max:
			return below
		}
		return says(" cannot be read as a number")
	}
	if !strings.ContainsAny(lit, ".eE") {
		var err error
		if lo == "0" {
			_, err = strconv.ParseUint(lit, 10, t.Bits())
		} else {
			_, err = strconv.ParseInt(lit, 10, t.Bits())
		}
		switch {
		case err == nil:
			return says(" cannot be read as an integer")
		case neg:
			return below
		}
		return above
	}
	f, _ := strconv.ParseFloat(lit, 64)
	loF, _ := strconv.ParseFloat(lo, 64)
	hiF, _ := strconv.ParseFloat(hi, 64)
	switch {
	case f > hiF:
		return above
	case f < loF:
		return below
	case f != math.Trunc(f):
		return schema.TypeViolation(ptr, num, "number", "integer")
	}
	return says(" should be written as an integer, without a fraction or an exponent")
}

var (
	unmarshalerType     = reflect.TypeFor[json.Unmarshaler]()
	marshalerType       = reflect.TypeFor[json.Marshaler]()
	textMarshalerType   = reflect.TypeFor[encoding.TextMarshaler]()
	timeType            = reflect.TypeFor[time.Time]()
	numberType          = reflect.TypeFor[json.Number]()
	textUnmarshalerType = reflect.TypeFor[encoding.TextUnmarshaler]()
)

// jsonType returns the JSON type a value of t decodes from, as inference
// writes it; "" when any value may do.
func jsonType(t reflect.Type) string {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	pt := reflect.PointerTo(t)
	switch {
	case t == timeType, pt.Implements(textUnmarshalerType) && !pt.Implements(unmarshalerType):
		return "string"
	case t == numberType:
		return "number"
	case pt.Implements(unmarshalerType):
		return ""
	}
	switch t.Kind() {
	case reflect.Bool:
		return "boolean"
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64,
		reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "integer"
	case reflect.Float32, reflect.Float64:
		return "number"
	case reflect.String:
		return "string"
	case reflect.Slice:
		if t.Elem().Kind() == reflect.Uint8 {
			return "string" // base64
		}
		return "array"
	case reflect.Array:
		return "array"
	case reflect.Map, reflect.Struct:
		return "object"
	}
	return ""
}

// isScalar reports whether the ",string" option applies to t.
func isScalar(t reflect.Type) bool {
	switch jsonType(t) {
	case "boolean", "integer", "number":
		return true
	}
	return false
}

func article(jsonType string) string {
	switch jsonType {
	case "integer", "object", "array":
		return "an " + jsonType
	}
	return "a " + jsonType
}
