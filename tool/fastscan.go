package tool

import (
	"math"
	"strconv"
	"unicode/utf8"

	json "github.com/goccy/go-json"
)

// accepts reports whether the fast path can vouch for instance: it is one
// JSON value, valid against f. false means "ask the full validator". For
// an object root, present holds the bits of f.props that were there.
func (f *fastSchema) accepts(instance []byte) (ok bool, present uint64) {
	p := scan{b: instance}
	if !p.value(f, &present) {
		return false, 0
	}
	p.ws()
	return p.i == len(p.b), present
}

// scan walks one JSON text, checking syntax as strictly as the full
// validator's parser (including duplicate keys) and the schema at once.
type scan struct {
	b []byte
	i int
}

func (p *scan) ws() {
	for p.i < len(p.b) {
		switch p.b[p.i] {
		case ' ', '\t', '\n', '\r':
			p.i++
		default:
			return
		}
	}
}

// value checks the value at p.i against s (nil: any schema). present, when
// not nil, receives the property bits of an object value.
func (p *scan) value(s *fastSchema, present *uint64) bool {
	p.ws()
	if p.i >= len(p.b) || (s != nil && s.never) {
		return false
	}
	var kind typeSet
	ok := false
	switch c := p.b[p.i]; {
	case c == '{':
		kind, ok = tObject, p.object(s, present)
	case c == '[':
		kind, ok = tArray, p.array(s)
	case c == '"':
		kind, ok = tString, p.stringValue(s)
	case c == 't':
		kind, ok = tBoolean, p.literal("true")
	case c == 'f':
		kind, ok = tBoolean, p.literal("false")
	case c == 'n':
		kind, ok = tNull, p.literal("null")
	default:
		kind, ok = p.number(s)
	}
	if !ok || s == nil {
		return ok
	}
	if s.enum != nil && kind != tString {
		return false
	}
	return s.types == 0 || s.types&kind != 0 || (kind == tInteger && s.types&tNumber != 0)
}

func (p *scan) literal(word string) bool {
	if len(p.b)-p.i < len(word) || string(p.b[p.i:p.i+len(word)]) != word {
		return false
	}
	p.i += len(word)
	return true
}

// object checks an object; keys with escapes are left to the full
// validator, which compares them decoded.
func (p *scan) object(s *fastSchema, present *uint64) bool {
	p.i++ // '{'
	var seen uint64
	var extras [16][]byte
	nExtra := 0
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == '}' {
		p.i++
		return s == nil || s.required == 0
	}
	for {
		p.ws()
		key, ok := p.key()
		if !ok {
			return false
		}
		p.ws()
		if p.i >= len(p.b) || p.b[p.i] != ':' {
			return false
		}
		p.i++
		idx := -1
		if s != nil {
			idx = s.indexBytes(key)
		}
		switch {
		case idx >= 0:
			bit := uint64(1) << idx
			if seen&bit != 0 {
				return false // duplicate key
			}
			seen |= bit
			if !p.value(s.props[idx].schema, nil) {
				return false
			}
		case s != nil && s.closed:
			return false
		default:
			if nExtra == len(extras) {
				return false
			}
			for _, k := range extras[:nExtra] {
				if string(k) == string(key) {
					return false // duplicate key
				}
			}
			extras[nExtra] = key
			nExtra++
			var sub *fastSchema
			if s != nil {
				sub = s.extra
			}
			if !p.value(sub, nil) {
				return false
			}
		}
		p.ws()
		if p.i >= len(p.b) {
			return false
		}
		switch p.b[p.i] {
		case ',':
			p.i++
			continue
		case '}':
			p.i++
			if s != nil && seen&s.required != s.required {
				return false
			}
			if present != nil {
				*present = seen
			}
			return true
		}
		return false
	}
}

// key reads an object key without escapes and returns its raw bytes.
func (p *scan) key() ([]byte, bool) {
	if p.i >= len(p.b) || p.b[p.i] != '"' {
		return nil, false
	}
	start := p.i + 1
	escaped, ok := p.str()
	if !ok || escaped {
		return nil, false
	}
	return p.b[start : p.i-1], true
}

func (f *fastSchema) indexBytes(key []byte) int {
	for i := range f.props {
		if f.props[i].name == string(key) {
			return i
		}
	}
	return -1
}

func (p *scan) array(s *fastSchema) bool {
	p.i++ // '['
	var items *fastSchema
	if s != nil {
		items = s.items
	}
	n := 0
	p.ws()
	if p.i < len(p.b) && p.b[p.i] == ']' {
		p.i++
	} else {
		for {
			if !p.value(items, nil) {
				return false
			}
			n++
			p.ws()
			if p.i >= len(p.b) {
				return false
			}
			if p.b[p.i] == ']' {
				p.i++
				break
			}
			if p.b[p.i] != ',' {
				return false
			}
			p.i++
		}
	}
	return s == nil || ((s.minItems < 0 || n >= s.minItems) && (s.maxItems < 0 || n <= s.maxItems))
}

// str reads a string token starting at its opening quote and reports
// whether it holds escapes.
func (p *scan) str() (escaped, ok bool) {
	p.i++ // '"'
	for p.i < len(p.b) {
		for p.i < len(p.b) && plainByte[p.b[p.i]] {
			p.i++
		}
		if p.i == len(p.b) {
			break
		}
		c := p.b[p.i]
		switch {
		case c == '"':
			p.i++
			return escaped, true
		case c < 0x20:
			return false, false
		case c == '\\':
			escaped = true
			if p.i+1 >= len(p.b) {
				return false, false
			}
			switch p.b[p.i+1] {
			case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
				p.i += 2
			case 'u':
				if p.i+6 > len(p.b) || !isHex4(p.b[p.i+2:p.i+6]) {
					return false, false
				}
				p.i += 6
			default:
				return false, false
			}
		default:
			p.i++
		}
	}
	return false, false
}

func isHex4(b []byte) bool {
	for _, c := range b {
		if !('0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F') {
			return false
		}
	}
	return true
}

func (p *scan) stringValue(s *fastSchema) bool {
	start := p.i
	escaped, ok := p.str()
	if !ok {
		return false
	}
	if s == nil || (s.minLen < 0 && s.maxLen < 0 && s.enum == nil) {
		return true
	}
	if escaped {
		return s.checkText(decodeString(p.b[start:p.i]))
	}
	return s.checkText(p.b[start+1 : p.i-1])
}

// decodeString decodes a string token; nil (which no check accepts as
// text of a failing token) on error.
func decodeString(token []byte) []byte {
	var text string
	if json.Unmarshal(token, &text) != nil {
		return nil
	}
	return []byte(text)
}

// checkText checks decoded string content against lengths and enum.
func (f *fastSchema) checkText(text []byte) bool {
	if text == nil {
		return false
	}
	if f.minLen >= 0 || f.maxLen >= 0 {
		n := utf8.RuneCount(text)
		if (f.minLen >= 0 && n < f.minLen) || (f.maxLen >= 0 && n > f.maxLen) {
			return false
		}
	}
	if f.enum == nil {
		return true
	}
	for _, e := range f.enum {
		if e == string(text) {
			return true
		}
	}
	return false
}

// number reads a number and checks its bounds. It returns tInteger for a
// number written without fraction or exponent, tNumber otherwise.
func (p *scan) number(s *fastSchema) (typeSet, bool) {
	start := p.i
	if p.i < len(p.b) && p.b[p.i] == '-' {
		p.i++
	}
	switch {
	case p.i < len(p.b) && p.b[p.i] == '0':
		p.i++
	case p.i < len(p.b) && '1' <= p.b[p.i] && p.b[p.i] <= '9':
		p.digits()
	default:
		return 0, false
	}
	kind := tInteger
	if p.i < len(p.b) && p.b[p.i] == '.' {
		p.i++
		if !p.digits() {
			return 0, false
		}
		kind = tNumber
	}
	if p.i < len(p.b) && (p.b[p.i] == 'e' || p.b[p.i] == 'E') {
		p.i++
		if p.i < len(p.b) && (p.b[p.i] == '+' || p.b[p.i] == '-') {
			p.i++
		}
		if !p.digits() {
			return 0, false
		}
		kind = tNumber
	}
	if s != nil && kind == tNumber && s.types&tNumber == 0 && s.types != 0 {
		return 0, false // 1.0 may be an integer: the full validator decides
	}
	if s == nil || !(s.min.set || s.max.set || s.exclMin.set || s.exclMax.set) {
		return kind, true
	}
	return kind, s.inBounds(p.b[start:p.i], kind == tInteger)
}

func (p *scan) digits() bool {
	start := p.i
	for p.i < len(p.b) && '0' <= p.b[p.i] && p.b[p.i] <= '9' {
		p.i++
	}
	return p.i > start
}

// inBounds compares a number with the bounds. Integers up to 2^53 against
// integer bounds compare exactly; otherwise as float64, where rounding
// keeps strict order, so a float tie is left to the full validator.
func (f *fastSchema) inBounds(text []byte, isInt bool) bool {
	iv, exact := int64(0), false
	if isInt {
		iv, exact = smallInt(text)
	}
	var fv float64
	if exact {
		fv = float64(iv)
	} else {
		v, err := strconv.ParseFloat(string(text), 64)
		if err != nil || math.IsInf(v, 0) {
			return false
		}
		fv = v
	}
	// cmp returns the sign of value-bound, and false when unsure.
	cmp := func(b bound) (int, bool) {
		if exact && b.isInt {
			switch {
			case iv < b.i:
				return -1, true
			case iv > b.i:
				return 1, true
			}
			return 0, true
		}
		switch {
		case fv < b.f:
			return -1, true
		case fv > b.f:
			return 1, true
		}
		return 0, false
	}
	check := func(b bound, ok func(int) bool) bool {
		if !b.set {
			return true
		}
		c, sure := cmp(b)
		return sure && ok(c)
	}
	return check(f.min, func(c int) bool { return c >= 0 }) &&
		check(f.max, func(c int) bool { return c <= 0 }) &&
		check(f.exclMin, func(c int) bool { return c > 0 }) &&
		check(f.exclMax, func(c int) bool { return c < 0 })
}

// smallInt parses an integer of at most 15 digits, exactly.
func smallInt(text []byte) (int64, bool) {
	neg := len(text) > 0 && text[0] == '-'
	if neg {
		text = text[1:]
	}
	if len(text) == 0 || len(text) > 15 {
		return 0, false
	}
	var v int64
	for _, c := range text {
		v = v*10 + int64(c-'0')
	}
	if neg {
		v = -v
	}
	return v, true
}

// plainByte marks the bytes a string token holds as they are: everything
// but '"', '\\' and control characters.
var plainByte = func() (t [256]bool) {
	for i := 0x20; i < 256; i++ {
		t[i] = i != '"' && i != '\\'
	}
	return t
}()
