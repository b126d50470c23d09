package jsonrpc

import (
	"bytes"
	"strings"
	"unicode"
	"unicode/utf8"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// maxDepth bounds the nesting of arrays and objects in one message.
const maxDepth = 1000

// foldMapThreshold is the key count above which an object's keys are
// compared through a map instead of pairwise.
const foldMapThreshold = 32

// span is a [start, end) byte range of the scanned input.
type span struct{ start, end int }

// topMembers records where the envelope members of a top-level object are.
type topMembers struct {
	jsonrpc, id, method, params, result, error span
	has                                        uint8 // bit set of present members
	idRepeated                                 bool  // "id" appeared more than once
}

const (
	hasJSONRPC uint8 = 1 << iota
	hasID
	hasMethod
	hasParams
	hasResult
	hasError
)

// keyRef is one key of an object being scanned.
type keyRef struct {
	raw     span
	escaped bool
}

// scanner checks that input is one well-formed JSON value, records the
// envelope members of a top-level object, and notes the first object that
// repeats a key or holds keys differing only in case.
type scanner struct {
	data    []byte
	pos     int
	depth   int
	tooDeep bool
	keys    []keyRef // stack of keys of the objects being scanned
	keyProb string   // first duplicate-key problem, "" if none
	top     topMembers
	collect bool // record every top-level member in members
	trusted bool // input already validated: skip string checks
	members []member
}

// member is one member of the top-level object.
type member struct {
	key   keyRef
	value span
}

// scan validates the whole input. It returns false on a syntax error.
func (s *scanner) scan() bool {
	s.skipSpace()
	if !s.value() {
		return false
	}
	s.skipSpace()
	return s.pos == len(s.data)
}

func (s *scanner) skipSpace() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

func (s *scanner) value() bool {
	if s.pos >= len(s.data) {
		return false
	}
	switch c := s.data[s.pos]; {
	case c == '{':
		return s.object()
	case c == '[':
		return s.array()
	case c == '"':
		_, ok := s.str()
		return ok
	case c == 't':
		return s.literal("true")
	case c == 'f':
		return s.literal("false")
	case c == 'n':
		return s.literal("null")
	case c == '-' || (c >= '0' && c <= '9'):
		return s.number()
	}
	return false
}

func (s *scanner) literal(lit string) bool {
	if !bytes.HasPrefix(s.data[s.pos:], []byte(lit)) {
		return false
	}
	s.pos += len(lit)
	return true
}

func (s *scanner) digits() int {
	n := 0
	for s.pos < len(s.data) && s.data[s.pos] >= '0' && s.data[s.pos] <= '9' {
		s.pos++
		n++
	}
	return n
}

func (s *scanner) number() bool {
	if s.data[s.pos] == '-' {
		s.pos++
	}
	if s.pos >= len(s.data) {
		return false
	}
	if s.data[s.pos] == '0' {
		s.pos++
	} else if s.digits() == 0 {
		return false
	}
	if s.pos < len(s.data) && s.data[s.pos] == '.' {
		s.pos++
		if s.digits() == 0 {
			return false
		}
	}
	if s.pos < len(s.data) && (s.data[s.pos] == 'e' || s.data[s.pos] == 'E') {
		s.pos++
		if s.pos < len(s.data) && (s.data[s.pos] == '+' || s.data[s.pos] == '-') {
			s.pos++
		}
		if s.digits() == 0 {
			return false
		}
	}
	return true
}

// str scans a string starting at the opening quote. It reports whether the
// string held an escape sequence.
func (s *scanner) str() (escaped, ok bool) {
	s.pos++ // opening quote
	if s.trusted {
		return s.trustedStr()
	}
	for s.pos < len(s.data) {
		c := s.data[s.pos]
		switch {
		case c == '"':
			s.pos++
			return escaped, true
		case c == '\\':
			escaped = true
			if !s.escape() {
				return escaped, false
			}
		case c < 0x20:
			return escaped, false
		case c < utf8.RuneSelf:
			s.pos++
		default:
			r, size := utf8.DecodeRune(s.data[s.pos:])
			if r == utf8.RuneError && size == 1 {
				return escaped, false
			}
			s.pos += size
		}
	}
	return escaped, false
}

func (s *scanner) escape() bool {
	s.pos++ // backslash
	if s.pos >= len(s.data) {
		return false
	}
	switch s.data[s.pos] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		s.pos++
		return true
	case 'u':
		if s.pos+5 > len(s.data) {
			return false
		}
		for _, h := range s.data[s.pos+1 : s.pos+5] {
			if !isHex(h) {
				return false
			}
		}
		s.pos += 5
		return true
	}
	return false
}

func isHex(c byte) bool {
	return (c >= '0' && c <= '9') || (c >= 'a' && c <= 'f') || (c >= 'A' && c <= 'F')
}

func (s *scanner) enter() bool {
	s.depth++
	if s.depth > maxDepth {
		s.tooDeep = true
		return false
	}
	return true
}

func (s *scanner) array() bool {
	if !s.enter() {
		return false
	}
	s.pos++
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == ']' {
		s.pos++
		s.depth--
		return true
	}
	for {
		s.skipSpace()
		if !s.value() {
			return false
		}
		s.skipSpace()
		if s.pos >= len(s.data) {
			return false
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case ']':
			s.pos++
			s.depth--
			return true
		default:
			return false
		}
	}
}

func (s *scanner) object() bool {
	if !s.enter() {
		return false
	}
	mark := len(s.keys)
	defer func() { s.keys = s.keys[:mark] }()
	s.pos++
	s.skipSpace()
	if s.pos < len(s.data) && s.data[s.pos] == '}' {
		s.pos++
		s.depth--
		return true
	}
	for {
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != '"' {
			return false
		}
		kstart := s.pos
		escaped, ok := s.str()
		if !ok {
			return false
		}
		key := keyRef{raw: span{kstart + 1, s.pos - 1}, escaped: escaped}
		s.checkKey(mark, key)
		s.skipSpace()
		if s.pos >= len(s.data) || s.data[s.pos] != ':' {
			return false
		}
		s.pos++
		s.skipSpace()
		vstart := s.pos
		if !s.value() {
			return false
		}
		if s.depth == 1 {
			s.recordTop(key, span{vstart, s.pos})
			if s.collect {
				s.members = append(s.members, member{key, span{vstart, s.pos}})
			}
		}
		s.skipSpace()
		if s.pos >= len(s.data) {
			return false
		}
		switch s.data[s.pos] {
		case ',':
			s.pos++
		case '}':
			s.pos++
			s.depth--
			if s.keyProb == "" && len(s.keys)-mark > foldMapThreshold {
				s.checkKeysByMap(s.keys[mark:])
			}
			return true
		default:
			return false
		}
	}
}

// recordTop notes where an envelope member of the top-level object is.
func (s *scanner) recordTop(k keyRef, v span) {
	key := s.data[k.raw.start:k.raw.end]
	if k.escaped {
		// "\u0069d" names the same member as "id": match the decoded text.
		key = []byte(s.keyText(k))
	}
	var bit uint8
	switch string(key) {
	case "jsonrpc":
		bit, s.top.jsonrpc = hasJSONRPC, v
	case "id":
		if s.top.has&hasID != 0 {
			s.top.idRepeated = true
		}
		bit, s.top.id = hasID, v
	case "method":
		bit, s.top.method = hasMethod, v
	case "params":
		bit, s.top.params = hasParams, v
	case "result":
		bit, s.top.result = hasResult, v
	case "error":
		bit, s.top.error = hasError, v
	}
	s.top.has |= bit
}

// checkKey compares a new key with the keys already seen in its object and
// records the first duplicate or case-variant pair.
func (s *scanner) checkKey(mark int, k keyRef) {
	if s.trusted {
		return // already checked when the message was decoded
	}
	siblings := s.keys[mark:]
	s.keys = append(s.keys, k)
	if s.keyProb != "" {
		return
	}
	if len(siblings) >= foldMapThreshold {
		return // checked through a map when the object closes
	}
	name := s.keyBytes(k)
	for _, o := range siblings {
		other := s.keyBytes(o)
		if bytes.Equal(other, name) {
			s.keyProb = "duplicate key " + clip.Quote(string(name))
			return
		}
		if bytes.EqualFold(other, name) {
			s.keyProb = "keys " + clip.Quote(string(other)) + " and " + clip.Quote(string(name)) + " differ only in case"
			return
		}
	}
}

// keyBytes returns a key's decoded text, without allocating for the usual
// key that holds no escape.
func (s *scanner) keyBytes(k keyRef) []byte {
	if !k.escaped {
		return s.data[k.raw.start:k.raw.end]
	}
	return []byte(s.keyText(k))
}

// checkKeysByMap checks a large object's keys through a folded-key map,
// once, when the object closes.
func (s *scanner) checkKeysByMap(keys []keyRef) {
	seen := make(map[string]string, len(keys))
	for _, k := range keys {
		name := s.keyText(k)
		f := foldKey(name)
		if prev, dup := seen[f]; dup {
			if prev == name {
				s.keyProb = "duplicate key " + clip.Quote(name)
			} else {
				s.keyProb = "keys " + clip.Quote(prev) + " and " + clip.Quote(name) + " differ only in case"
			}
			return
		}
		seen[f] = name
	}
}

// foldKey maps every rune of name to the smallest rune of its case-folding
// orbit, so that foldKey(a) == foldKey(b) exactly when strings.EqualFold(a, b),
// as the pairwise check decides.
func foldKey(name string) string {
	return strings.Map(func(r rune) rune {
		for {
			f := unicode.SimpleFold(r)
			if f <= r {
				return f
			}
			r = f
		}
	}, name)
}

// keyText returns a key's decoded text.
func (s *scanner) keyText(k keyRef) string {
	raw := s.data[k.raw.start:k.raw.end]
	if !k.escaped {
		return string(raw)
	}
	var out string
	if json.Unmarshal(s.data[k.raw.start-1:k.raw.end+1], &out) != nil {
		return string(raw)
	}
	return out
}

// trustedStr skips a string already known to be valid, jumping to the next
// quote with bytes.IndexByte and looking for escapes only before it.
func (s *scanner) trustedStr() (escaped, ok bool) {
	for {
		i := bytes.IndexByte(s.data[s.pos:], '"')
		if i < 0 {
			return escaped, false
		}
		j := bytes.IndexByte(s.data[s.pos:s.pos+i], '\\')
		if j < 0 {
			s.pos += i + 1
			return escaped, true
		}
		escaped = true
		s.pos += j + 2 // a backslash and the byte it escapes
		if s.pos > len(s.data) {
			return escaped, false
		}
	}
}
