package args

import (
	"fmt"
	"math/big"
	"slices"
	"strconv"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// String returns the required string argument name.
func (r *Reader) String(name string) string { return read(r, name, true, "", r.str) }

// OptString returns the string argument name, or def when it is absent.
func (r *Reader) OptString(name, def string) string { return read(r, name, false, def, r.str) }

// Int returns the required integer argument name.
func (r *Reader) Int(name string) int64 { return read(r, name, true, 0, r.integer) }

// OptInt returns the integer argument name, or def when it is absent.
func (r *Reader) OptInt(name string, def int64) int64 { return read(r, name, false, def, r.integer) }

// Number returns the required number argument name.
func (r *Reader) Number(name string) float64 { return read(r, name, true, 0, r.number) }

// OptNumber returns the number argument name, or def when it is absent.
func (r *Reader) OptNumber(name string, def float64) float64 {
	return read(r, name, false, def, r.number)
}

// Bool returns the required boolean argument name.
func (r *Reader) Bool(name string) bool { return read(r, name, true, false, r.boolean) }

// OptBool returns the boolean argument name, or def when it is absent.
func (r *Reader) OptBool(name string, def bool) bool { return read(r, name, false, def, r.boolean) }

// Enum returns the required string argument name, which must be one of
// allowed (compared exactly).
func (r *Reader) Enum(name string, allowed ...string) string {
	return read(r, name, true, "", r.enumOf(allowed))
}

// OptEnum returns the string argument name, which must be one of allowed,
// or def when it is absent.
func (r *Reader) OptEnum(name, def string, allowed ...string) string {
	return read(r, name, false, def, r.enumOf(allowed))
}

// Strings returns the required argument name, an array of strings (which
// may be empty).
func (r *Reader) Strings(name string) []string { return read(r, name, true, nil, r.strings) }

// OptStrings returns the array-of-strings argument name, or def when it is
// absent.
func (r *Reader) OptStrings(name string, def []string) []string {
	return read(r, name, false, def, r.strings)
}

// read reads the argument name with conv, which returns def (and records a
// problem) when the value is not what it reads. An absent argument is def,
// and a problem too when it is required.
func read[T any](r *Reader, name string, required bool, def T, conv func(name string, v json.RawMessage, def T) T) T {
	var v json.RawMessage
	var ok bool
	if required {
		v, ok = r.required(name)
	} else {
		v, ok = r.value(name)
	}
	if !ok {
		return def
	}
	return conv(name, v, def)
}

func (r *Reader) str(name string, v json.RawMessage, def string) string {
	if s, ok := stringValue(v); ok {
		return s
	}
	return reject(r, name, v, def, "must be a string")
}

func (r *Reader) integer(name string, v json.RawMessage, def int64) int64 {
	if !isNumber(v) {
		return reject(r, name, v, def, "must be an integer")
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n
	}
	f, _, err := big.ParseFloat(string(v), 10, 256, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		return reject(r, name, v, def, "must be a whole number")
	}
	n, acc := f.Int64()
	if acc != big.Exact {
		return reject(r, name, v, def, "must fit in a 64-bit integer")
	}
	return n
}

func (r *Reader) number(name string, v json.RawMessage, def float64) float64 {
	if !isNumber(v) {
		return reject(r, name, v, def, "must be a number")
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		return reject(r, name, v, def, "is out of the range of a 64-bit float")
	}
	return f
}

func (r *Reader) boolean(name string, v json.RawMessage, def bool) bool {
	switch string(v) {
	case "true":
		return true
	case "false":
		return false
	}
	return reject(r, name, v, def, "must be true or false")
}

// enumOf returns the reader of a string that must be one of allowed.
func (r *Reader) enumOf(allowed []string) func(name string, v json.RawMessage, def string) string {
	return func(name string, v json.RawMessage, def string) string { return r.enum(name, v, def, allowed) }
}

func (r *Reader) enum(name string, v json.RawMessage, def string, allowed []string) string {
	if s, ok := stringValue(v); ok && slices.Contains(allowed, s) {
		return s
	}
	return reject(r, name, v, def, "must be one of "+quoteAll(allowed))
}

func (r *Reader) strings(name string, v json.RawMessage, def []string) []string {
	var items []json.RawMessage
	if v[0] != '[' || json.Unmarshal(v, &items) != nil {
		return reject(r, name, v, def, "must be an array of strings")
	}
	out := make([]string, 0, len(items))
	bad := false
	for i, it := range items {
		s, ok := stringValue(it)
		if !ok {
			r.problems = append(r.problems, fmt.Sprintf("%q[%d] must be a string; got %s", name, i, describe(it)))
			bad = true
			continue
		}
		out = append(out, s)
	}
	if bad {
		return def
	}
	return out
}

// reject records that the argument name, whose value is v, must be what
// it is not (must says what, such as "must be a string"), and returns def.
func reject[T any](r *Reader, name string, v json.RawMessage, def T, must string) T {
	r.addf(name, "%s; got %s", must, describe(v))
	return def
}

// stringValue decodes v when it is a JSON string.
func stringValue(v json.RawMessage) (string, bool) {
	var s string
	if len(v) == 0 || v[0] != '"' || json.Unmarshal(v, &s) != nil {
		return "", false
	}
	return s, true
}

// isNumber reports whether v starts like a JSON number.
func isNumber(v json.RawMessage) bool {
	return v[0] == '-' || (v[0] >= '0' && v[0] <= '9')
}

// maxShown is how much of a bad value a problem quotes.
const maxShown = 40

// describe names the JSON type of v and shows short scalar values.
func describe(v json.RawMessage) string {
	if len(v) == 0 {
		return "nothing"
	}
	shown := string(v)
	if len(shown) > maxShown {
		cut := maxShown
		for cut > 0 && !utf8.RuneStart(shown[cut]) {
			cut--
		}
		shown = shown[:cut] + "…"
	}
	switch c := v[0]; {
	case c == '"':
		return "the string " + shown
	case c == 't' || c == 'f':
		return "the boolean " + shown
	case c == 'n':
		return "null"
	case c == '[':
		return "an array"
	case c == '{':
		return "an object"
	}
	return "the number " + shown
}

func quoteAll(ss []string) string {
	q := make([]string, len(ss))
	for i, s := range ss {
		q[i] = strconv.Quote(s)
	}
	return strings.Join(q, ", ")
}
