package schema

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// The helpers in this file work on JSON values the scanner has already
// accepted, so they do not check the syntax again.

// fastConst is a value of "const" or "enum", compared with instance values
// the way the library compares them: numbers by value (1 equals 1.0),
// strings after unescaping, objects regardless of member order.
type fastConst struct {
	kind  byte // 'n' null, 't' true, 'f' false, 's' string, 'd' number, 'a' array, 'o' object
	str   string
	num   dec
	known bool // a number (*big.Rat).SetString accepts; others equal nothing
	elems []fastConst
	names []string // object member names, parallel to elems
}

// newFastConst converts a value decoded with UseNumber.
func newFastConst(v any) (fastConst, bool) {
	switch v := v.(type) {
	case nil:
		return fastConst{kind: 'n'}, true
	case bool:
		if v {
			return fastConst{kind: 't'}, true
		}
		return fastConst{kind: 'f'}, true
	case string:
		return fastConst{kind: 's', str: v}, true
	case json.Number:
		text := []byte(string(v))
		l, end, ok := parseNumLit(text, 0)
		if !ok || end != len(text) {
			return fastConst{}, false
		}
		c := fastConst{kind: 'd', known: l.known()}
		if c.known {
			c.num = l.dec()
		}
		return c, true
	case []any:
		c := fastConst{kind: 'a'}
		for _, e := range v {
			ec, ok := newFastConst(e)
			if !ok {
				return fastConst{}, false
			}
			c.elems = append(c.elems, ec)
		}
		return c, true
	case map[string]any:
		c := fastConst{kind: 'o'}
		for _, k := range sortedKeys(v) {
			ec, ok := newFastConst(v[k])
			if !ok {
				return fastConst{}, false
			}
			c.names = append(c.names, k)
			c.elems = append(c.elems, ec)
		}
		return c, true
	}
	return fastConst{}, false
}

// valueEnd returns the index after the accepted value starting at b[i].
func valueEnd(b []byte, i int) int {
	switch b[i] {
	case '"':
		_, next, _ := scanString(b, i)
		return next
	case '{', '[':
		depth := 0
		for ; ; i++ {
			switch b[i] {
			case '"':
				_, next, _ := scanString(b, i)
				i = next - 1
			case '{', '[':
				depth++
			case '}', ']':
				depth--
				if depth == 0 {
					return i + 1
				}
			}
		}
	case 't', 'n':
		return i + 4
	case 'f':
		return i + 5
	}
	_, end, _ := parseNumLit(b, i)
	return end
}

// rawMember is one member of an accepted object, or one element of an
// accepted array (with no key).
type rawMember struct {
	key     []byte // key content, still escaped
	escaped bool
	val     []byte
}

// rawMembers iterates over the members of the accepted object or array raw:
// call it with i = 0 first, then with the returned index while ok.
func rawMembers(raw []byte, i int) (m rawMember, next int, ok bool) {
	if i == 0 {
		i = 1
	} else {
		i = skipSpace(raw, i)
		if raw[i] != ',' {
			return m, i, false
		}
		i++
	}
	i = skipSpace(raw, i)
	if raw[i] == '}' || raw[i] == ']' {
		return m, i, false
	}
	if raw[0] == '{' {
		s, after, _ := scanString(raw, i)
		m.key, m.escaped = raw[s.start:s.end], s.escaped
		i = skipSpace(raw, after) + 1 // the colon
		i = skipSpace(raw, i)
	}
	end := valueEnd(raw, i)
	m.val = raw[i:end]
	return m, end, true
}

// constEqual reports whether the accepted value raw equals c.
func constEqual(raw []byte, c *fastConst) bool {
	switch c.kind {
	case 'n':
		return string(raw) == "null"
	case 't':
		return string(raw) == "true"
	case 'f':
		return string(raw) == "false"
	case 's':
		if raw[0] != '"' {
			return false
		}
		content := raw[1 : len(raw)-1]
		return jsonx.EqualText(content, hasBackslash(content), c.str)
	case 'd':
		if raw[0] != '-' && !isDigit(raw[0]) || !c.known {
			return false
		}
		l, _, _ := parseNumLit(raw, 0)
		if !l.known() {
			return false
		}
		d := l.dec()
		return cmpDec(&d, &c.num) == 0
	case 'a':
		if raw[0] != '[' {
			return false
		}
		n := 0
		for m, i, ok := rawMembers(raw, 0); ok; m, i, ok = rawMembers(raw, i) {
			if n >= len(c.elems) || !constEqual(m.val, &c.elems[n]) {
				return false
			}
			n++
		}
		return n == len(c.elems)
	case 'o':
		if raw[0] != '{' {
			return false
		}
		n := 0
		for m, i, ok := rawMembers(raw, 0); ok; m, i, ok = rawMembers(raw, i) {
			k := constMember(c, m.key, m.escaped)
			if k < 0 || !constEqual(m.val, &c.elems[k]) {
				return false
			}
			n++
		}
		return n == len(c.elems) // names are unique on both sides
	}
	return false
}

func constMember(c *fastConst, key []byte, escaped bool) int {
	for k, name := range c.names {
		if jsonx.EqualText(key, escaped, name) {
			return k
		}
	}
	return -1
}

// decodeAny decodes an accepted value as the library does (numbers as
// json.Number), for messages that print the value.
func decodeAny(raw []byte) any {
	switch c := raw[0]; {
	case c == '"':
		content := raw[1 : len(raw)-1]
		return unescape(content, hasBackslash(content))
	case c == 't':
		return true
	case c == 'f':
		return false
	case c == 'n':
		return nil
	case c == '[':
		out := []any{}
		for m, i, ok := rawMembers(raw, 0); ok; m, i, ok = rawMembers(raw, i) {
			out = append(out, decodeAny(m.val))
		}
		return out
	case c == '{':
		out := map[string]any{}
		for m, i, ok := rawMembers(raw, 0); ok; m, i, ok = rawMembers(raw, i) {
			out[unescape(m.key, m.escaped)] = decodeAny(m.val)
		}
		return out
	}
	return json.Number(string(raw))
}
