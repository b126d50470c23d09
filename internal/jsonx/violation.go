package jsonx

import (
	"math"
	"reflect"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// The words and pointers of violations, shared by package schema's
// validators and the code that words its own violations in the same terms
// (the decoding of typed tool arguments, package ask's form checks, the
// reviewer).

// ValueText returns a value as the messages of violations quote it: value
// is its JSON text as sent, which is written without the white space
// between its tokens and clipped as package internal/clip clips client
// input, a string's ellipsis inside its quotes ("aaaa…" (10485760 bytes), the length being
// that of the content as sent). A nil or empty value gives "the value".
func ValueText(value []byte) string {
	if len(value) == 0 {
		return "the value"
	}
	value = compact(value)
	if len(value) < 2 || value[0] != '"' || value[len(value)-1] != '"' {
		return clip.Bytes(value)
	}
	content := value[1 : len(value)-1]
	if len(content) <= clip.Max {
		return string(value)
	}
	c := clip.Bytes(content)
	cut := strings.LastIndex(c, "… (")
	return `"` + wholeEscapes(c[:cut]) + `…"` + c[cut+len("…"):]
}

// compact returns raw, a JSON value, without white space between tokens.
func compact(raw []byte) []byte {
	if !spaced(raw) {
		return raw
	}
	out := make([]byte, 0, len(raw))
	inString := false
	for i := 0; i < len(raw); i++ {
		c := raw[i]
		switch {
		case inString && c == '\\' && i+1 < len(raw):
			out = append(out, c, raw[i+1])
			i++
			continue
		case c == '"':
			inString = !inString
		case !inString && IsSpace(c):
			continue
		}
		out = append(out, c)
	}
	return out
}

// spaced reports whether raw has white space outside its strings.
func spaced(raw []byte) bool {
	inString := false
	for i := 0; i < len(raw); i++ {
		switch c := raw[i]; {
		case inString && c == '\\':
			i++
		case c == '"':
			inString = !inString
		case !inString && IsSpace(c):
			return true
		}
	}
	return false
}

// wholeEscapes drops an escape sequence cut short at the end of s, the
// start of a string's content.
func wholeEscapes(s string) string {
	for i := 0; i < len(s); {
		if s[i] != '\\' {
			i++
			continue
		}
		n := 2
		if i+1 < len(s) && s[i+1] == 'u' {
			n = 6
		}
		if i+n > len(s) {
			return s[:i]
		}
		i += n
	}
	return s
}

// Pointer returns the JSON pointer of the reference tokens, in the form
// schema.Violation pointers take: each token longer than clip.Max bytes is
// clipped (see package internal/clip), then escaped (RFC 6901).
func Pointer(tokens ...string) string {
	var b strings.Builder
	for _, t := range tokens {
		b.WriteByte('/')
		b.WriteString(EscapePointer(clip.String(t)))
	}
	return b.String()
}

// EscapePointer escapes a JSON pointer reference token (RFC 6901).
func EscapePointer(s string) string {
	if !strings.ContainsAny(s, "~/") {
		return s
	}
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// NumberRange returns the smallest and the largest value of the Go numeric type
// t (after pointers), as JSON numbers: for integer types and float32, the
// "minimum" and "maximum" schema inference writes. For float64, whose
// range is that of the numbers JSON readers commonly use, inference writes
// no bounds. ok is false for other kinds.
func NumberRange(t reflect.Type) (minimum, maximum string, ok bool) {
	for t.Kind() == reflect.Pointer {
		t = t.Elem()
	}
	switch t.Kind() {
	case reflect.Int, reflect.Int8, reflect.Int16, reflect.Int32, reflect.Int64:
		shift := 64 - t.Bits()
		return strconv.FormatInt(math.MinInt64>>shift, 10), strconv.FormatInt(math.MaxInt64>>shift, 10), true
	case reflect.Uint, reflect.Uint8, reflect.Uint16, reflect.Uint32, reflect.Uint64, reflect.Uintptr:
		return "0", strconv.FormatUint(math.MaxUint64>>(64-t.Bits()), 10), true
	case reflect.Float32, reflect.Float64:
		max := strconv.FormatFloat(math.MaxFloat64, 'g', -1, 64)
		if t.Kind() == reflect.Float32 {
			// The decoder refuses what exceeds this float64 value, even
			// the decimals that round to it in float32.
			max = strconv.FormatFloat(math.MaxFloat32, 'g', -1, 64)
		}
		return "-" + max, max, true
	}
	return "", "", false
}
