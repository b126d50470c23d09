package jsonx

// Prepend returns obj with the member "key": value put first, when obj is
// a valid JSON object without a member key (compared unescaped): a member
// added without decoding and encoding the rest, in one copy. It reports
// false for anything else, which the caller then handles the slow way.
// key must need no escaping; value must be valid JSON.
func Prepend(obj []byte, key string, value []byte) ([]byte, bool) {
	if FirstByte(obj) != '{' {
		return nil, false
	}
	sc := Scanner{Collect: true}
	if _, ok := sc.Scan(obj); !ok {
		return nil, false
	}
	for i := range sc.NumMembers() {
		if k := sc.Member(i).Key; EqualText(k.Content(obj), k.Escaped, key) {
			return nil, false
		}
	}
	rest := obj[SkipSpace(obj, 0)+1:] // after the brace
	out := make([]byte, 0, len(key)+len(value)+len(rest)+5)
	out = append(append(append(append(out, `{"`...), key...), `":`...), value...)
	if FirstByte(rest) != '}' {
		out = append(out, ',')
	}
	return append(out, rest...), true
}
