package jsonx

// The functions below are the scanner's steps through arrays and objects,
// for readers that walk a document themselves (the schema fast path) and
// check what they find as they go. Each takes the data and an index, and
// returns the index after what it read.

// Open steps into the array or object whose bracket is b[i]. It returns
// the index of the first element or member, after white space; when the
// value closes at once, empty is true and next is after its closing
// bracket.
func Open(b []byte, i int) (next int, empty bool) {
	closing := byte('}')
	if b[i] == '[' {
		closing = ']'
	}
	i = SkipSpace(b, i+1)
	if i < len(b) && b[i] == closing {
		return i + 1, true
	}
	return i, false
}

// Key reads the member name at b[i] and the colon after it. It returns the
// name and the index of the member's value, after white space.
func Key(b []byte, i int, m Mode) (k Str, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return k, i, false
	}
	k, i, ok = ScanString(b, i, m)
	if ok && i+1 < len(b) && b[i] == ':' && b[i+1] > ' ' {
		return k, i + 1, true // compact JSON
	}
	return colon(b, i, k, ok)
}

// trustedKey is Key for data known to be valid (see Scanner.Trusted).
func trustedKey(b []byte, i int) (k Str, next int, ok bool) {
	if i >= len(b) || b[i] != '"' {
		return k, i, false
	}
	k, i, ok = skipTrusted(b, i)
	return colon(b, i, k, ok)
}

// colon reads the colon, and the white space around it, after the key k
// (which ok says was read).
func colon(b []byte, i int, k Str, ok bool) (Str, int, bool) {
	if !ok {
		return k, i, false
	}
	i = SkipSpace(b, i)
	if i >= len(b) || b[i] != ':' {
		return k, i, false
	}
	return k, SkipSpace(b, i+1), true
}

// Next reads what follows an element or a member at b[i]: white space,
// then a comma and white space (more is true, next is the index of the
// following element or member) or the closing bracket (more is false,
// next is after it).
func Next(b []byte, i int, closing byte) (next int, more, ok bool) {
	if i < len(b) && b[i] == closing {
		return i + 1, false, true // compact JSON
	}
	i = SkipSpace(b, i)
	if i >= len(b) {
		return i, false, false
	}
	switch b[i] {
	case ',':
		return SkipSpace(b, i+1), true, true
	case closing:
		return i + 1, false, true
	}
	return i, false, false
}
