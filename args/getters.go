package args

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// String returns the required string argument name.
func (r *Reader) String(name string) string {
	v, ok := r.required(name)
	if !ok {
		return ""
	}
	return r.str(name, v, "")
}

// OptString returns the string argument name, or def when it is absent.
func (r *Reader) OptString(name, def string) string {
	v, ok := r.value(name)
	if !ok {
		return def
	}
	return r.str(name, v, def)
}

// Int returns the required integer argument name.
func (r *Reader) Int(name string) int64 {
	v, ok := r.required(name)
	if !ok {
		return 0
	}
	return r.integer(name, v, 0)
}

// OptInt returns the integer argument name, or def when it is absent.
func (r *Reader) OptInt(name string, def int64) int64 {
	v, ok := r.value(name)
	if !ok {
		return def
	}
	return r.integer(name, v, def)
}

// Number returns the required number argument name.
func (r *Reader) Number(name string) float64 {
	v, ok := r.required(name)
	if !ok {
		return 0
	}
	return r.number(name, v, 0)
}

// OptNumber returns the number argument name, or def when it is absent.
func (r *Reader) OptNumber(name string, def float64) float64 {
	v, ok := r.value(name)
	if !ok {
		return def
	}
	return r.number(name, v, def)
}

// Bool returns the required boolean argument name.
func (r *Reader) Bool(name string) bool {
	v, ok := r.required(name)
	if !ok {
		return false
	}
	return r.boolean(name, v, false)
}

// OptBool returns the boolean argument name, or def when it is absent.
func (r *Reader) OptBool(name string, def bool) bool {
	v, ok := r.value(name)
	if !ok {
		return def
	}
	return r.boolean(name, v, def)
}

// Enum returns the required string argument name, which must be one of
// allowed (compared exactly).
func (r *Reader) Enum(name string, allowed ...string) string {
	v, ok := r.required(name)
	if !ok {
		return ""
	}
	return r.enum(name, v, "", allowed)
}

// OptEnum returns the string argument name, which must be one of allowed,
// or def when it is absent.
func (r *Reader) OptEnum(name, def string, allowed ...string) string {
	v, ok := r.value(name)
	if !ok {
		return def
	}
	return r.enum(name, v, def, allowed)
}

// Strings returns the required argument name, an array of strings (which
// may be empty).
func (r *Reader) Strings(name string) []string {
	v, ok := r.required(name)
	if !ok {
		return nil
	}
	return r.strings(name, v, nil)
}

// OptStrings returns the array-of-strings argument name, or def when it is
// absent.
func (r *Reader) OptStrings(name string, def []string) []string {
	v, ok := r.value(name)
	if !ok {
		return def
	}
	return r.strings(name, v, def)
}

func (r *Reader) str(name string, v json.RawMessage, def string) string {
	var s string
	if v[0] != '"' || json.Unmarshal(v, &s) != nil {
		r.addf(name, "must be a string; got %s", describe(v))
		return def
	}
	return s
}

func (r *Reader) integer(name string, v json.RawMessage, def int64) int64 {
	if !isNumber(v) {
		r.addf(name, "must be an integer; got %s", describe(v))
		return def
	}
	if n, err := strconv.ParseInt(string(v), 10, 64); err == nil {
		return n
	}
	f, _, err := big.ParseFloat(string(v), 10, 256, big.ToNearestEven)
	if err != nil || !f.IsInt() {
		r.addf(name, "must be a whole number; got %s", describe(v))
		return def
	}
	n, acc := f.Int64()
	if acc != big.Exact {
		r.addf(name, "must fit in a 64-bit integer; got %s", describe(v))
		return def
	}
	return n
}

func (r *Reader) number(name string, v json.RawMessage, def float64) float64 {
	if !isNumber(v) {
		r.addf(name, "must be a number; got %s", describe(v))
		return def
	}
	f, err := strconv.ParseFloat(string(v), 64)
	if err != nil {
		r.addf(name, "is out of the range of a 64-bit float; got %s", describe(v))
		return def
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
	r.addf(name, "must be true or false; got %s", describe(v))
	return def
}

func (r *Reader) enum(name string, v json.RawMessage, def string, allowed []string) string {
	var s string
	if v[0] != '"' || json.Unmarshal(v, &s) != nil {
		r.addf(name, "must be one of %s; got %s", quoteAll(allowed), describe(v))
		return def
	}
	for _, a := range allowed {
		if s == a {
			return s
		}
	}
	r.addf(name, "must be one of %s; got %s", quoteAll(allowed), describe(v))
	return def
}

func (r *Reader) strings(name string, v json.RawMessage, def []string) []string {
	var items []json.RawMessage
	if v[0] != '[' || json.Unmarshal(v, &items) != nil {
		r.addf(name, "must be an array of strings; got %s", describe(v))
		return def
	}
	out := make([]string, 0, len(items))
	bad := false
	for i, it := range items {
		var s string
		if len(it) == 0 || it[0] != '"' || json.Unmarshal(it, &s) != nil {
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
