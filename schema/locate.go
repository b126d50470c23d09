package schema

import "strconv"

// Locate finds the innermost value of the JSON document doc that holds the
// byte at offset-1 (decoders report an error at the offset just past the
// value they refused, or just past its opening bracket), and returns the
// reference tokens of its JSON pointer, unescaped and not clipped (see
// the Pointer of package internal/jsonx), and its text. It reports false when doc is not valid JSON (as
// [Schema.Validate] reads it: no duplicate names) or the offset is outside
// the document.
func Locate(doc []byte, offset int) (tokens []string, value []byte, ok bool) {
	if w := (walker{buf: doc}); !w.document(nil) {
		return nil, nil, false // the helpers below expect valid JSON
	}
	at := offset - 1
	start := skipSpace(doc, 0)
	end := valueEnd(doc, start)
	if at < start || at >= end {
		return nil, nil, false
	}
	for {
		raw := doc[start:end]
		if raw[0] != '{' && raw[0] != '[' {
			return tokens, raw, true
		}
		inner := false
		index := 0
		for m, next, more := rawMembers(raw, 0); more; m, next, more = rawMembers(raw, next) {
			vstart := start + next - len(m.val)
			if at >= vstart && at < start+next {
				if raw[0] == '{' {
					tokens = append(tokens, unescape(m.key, m.escaped))
				} else {
					tokens = append(tokens, strconv.Itoa(index))
				}
				start, end, inner = vstart, start+next, true
				break
			}
			index++
		}
		if !inner {
			return tokens, raw, true // on the brackets or between members
		}
	}
}
