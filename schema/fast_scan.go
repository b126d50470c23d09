package schema

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// The scanner below accepts exactly the JSON the library's decoder
// (go-json-experiment) accepts: RFC 8259 grammar, valid UTF-8, escaped
// surrogates only in valid pairs, no duplicate object names (compared after
// unescaping), at most maxDepth nested arrays and objects.

// maxDepth is the library decoder's nesting limit.
const maxDepth = 10000

func isSpace(c byte) bool { return c == ' ' || c == '\t' || c == '\n' || c == '\r' }

func skipSpace(b []byte, i int) int {
	for i < len(b) && isSpace(b[i]) {
		i++
	}
	return i
}

const (
	lsb = 0x0101010101010101
	msb = 0x8080808080808080
)

// plain8 reports whether the 8 bytes of x are all printable ASCII other
// than '"' and '\\', that is, bytes that stand for themselves in a string.
func plain8(x uint64) bool {
	ctrl := (x - lsb*0x20) & ^x & msb // some byte < 0x20
	q := x ^ (lsb * '"')
	s := x ^ (lsb * '\\')
	quote := (q - lsb) & ^q & msb
	slash := (s - lsb) & ^s & msb
	return (ctrl | quote | slash | x&msb) == 0
}

// strInfo describes a scanned string.
type strInfo struct {
	start, end int  // the content, without the quotes
	runes      int  // length in code points
	escaped    bool // the content has escape sequences
}

// scanString scans the string starting with the '"' at b[i]. It returns
// the string and the index after its closing quote.
func scanString(b []byte, i int) (s strInfo, next int, ok bool) {
	i++
	s.start = i
	n := 0
	for {
		for i+8 <= len(b) && plain8(binary.LittleEndian.Uint64(b[i:])) {
			i += 8
			n += 8
		}
		for i < len(b) && byteClass[b[i]]&plainByte != 0 {
			i++
			n++
		}
		if i >= len(b) {
			return s, i, false
		}
		switch byteClass[b[i]] &^ simpleEscape {
		case quoteByte:
			s.end, s.runes = i, n
			return s, i + 1, true
		case escapeByte:
			s.escaped = true
			if i+1 < len(b) && byteClass[b[i+1]]&simpleEscape != 0 {
				i += 2
			} else if w, ok := escapeLen(b, i); ok {
				i += w
			} else {
				return s, i, false
			}
			n++
		case controlByte:
			return s, i, false
		default: // a run of multi-byte characters
			for {
				size := utf8Len(b, i)
				if size == 0 {
					return s, i, false
				}
				i += size
				n++
				if i >= len(b) || b[i] < utf8.RuneSelf {
					break
				}
			}
		}
	}
}

// Byte classes for scanning strings.
const (
	plainByte    = 1 << iota // printable ASCII other than '"' and '\\'
	quoteByte                // '"'
	escapeByte               // '\\'
	controlByte              // below 0x20
	simpleEscape             // may follow '\\' in a two-byte escape
	leadByte                 // 0x80 and above
)

var byteClass = func() (t [256]uint8) {
	for c := range 256 {
		switch {
		case c < 0x20:
			t[c] = controlByte
		case c == '"':
			t[c] = quoteByte
		case c == '\\':
			t[c] = escapeByte
		case c >= 0x80:
			t[c] = leadByte
		default:
			t[c] = plainByte
		}
	}
	for _, c := range []byte{'"', '\\', '/', 'b', 'f', 'n', 'r', 't'} {
		t[c] |= simpleEscape
	}
	return t
}()

// utf8Len returns the length of the valid UTF-8 sequence at b[i] (whose
// first byte is 0x80 or above), or 0 when it is invalid or cut short. It
// accepts what utf8.DecodeRune accepts.
func utf8Len(b []byte, i int) int {
	c := b[i]
	switch {
	case c >= 0xC2 && c <= 0xDF:
		if i+1 < len(b) && b[i+1]&0xC0 == 0x80 {
			return 2
		}
	case c >= 0xE0 && c <= 0xEF:
		if i+2 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80 &&
			(c != 0xE0 || b[i+1] >= 0xA0) && (c != 0xED || b[i+1] <= 0x9F) { // no overlong forms, no surrogates
			return 3
		}
	case c >= 0xF0 && c <= 0xF4:
		if i+3 < len(b) && b[i+1]&0xC0 == 0x80 && b[i+2]&0xC0 == 0x80 && b[i+3]&0xC0 == 0x80 &&
			(c != 0xF0 || b[i+1] >= 0x90) && (c != 0xF4 || b[i+1] <= 0x8F) { // no overlong forms, nothing above U+10FFFF
			return 4
		}
	}
	return 0
}

// escapeLen returns the length of the escape sequence at b[i] (a
// backslash): 2, 6, or 12 for a surrogate pair.
func escapeLen(b []byte, i int) (int, bool) {
	if i+1 >= len(b) {
		return 0, false
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2, true
	case 'u':
		v1, ok := hex4(b, i+2)
		if !ok {
			return 0, false
		}
		if !utf16.IsSurrogate(v1) {
			return 6, true
		}
		if i+12 > len(b) || b[i+6] != '\\' || b[i+7] != 'u' {
			return 0, false
		}
		v2, ok := hex4(b, i+8)
		if !ok || utf16.DecodeRune(v1, v2) == utf8.RuneError {
			return 0, false
		}
		return 12, true
	}
	return 0, false
}

func hex4(b []byte, i int) (rune, bool) {
	if i+4 > len(b) {
		return 0, false
	}
	var r rune
	for _, c := range b[i : i+4] {
		switch {
		case c >= '0' && c <= '9':
			r = r<<4 | rune(c-'0')
		case c >= 'a' && c <= 'f':
			r = r<<4 | rune(c-'a'+10)
		case c >= 'A' && c <= 'F':
			r = r<<4 | rune(c-'A'+10)
		default:
			return 0, false
		}
	}
	return r, true
}

// nextRune decodes the character at b[i] of the content of a string that
// scanString accepted, and returns the index after it.
func nextRune(b []byte, i int) (rune, int) {
	c := b[i]
	if c >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(b[i:])
		return r, i + size
	}
	if c != '\\' {
		return rune(c), i + 1
	}
	switch b[i+1] {
	case 'b':
		return '\b', i + 2
	case 'f':
		return '\f', i + 2
	case 'n':
		return '\n', i + 2
	case 'r':
		return '\r', i + 2
	case 't':
		return '\t', i + 2
	case 'u':
		r, _ := hex4(b, i+2)
		if utf16.IsSurrogate(r) {
			r2, _ := hex4(b, i+8)
			return utf16.DecodeRune(r, r2), i + 12
		}
		return r, i + 6
	}
	return rune(b[i+1]), i + 2 // '"', '\\' or '/'
}

// appendUnescaped appends the decoded content of a scanned string.
func appendUnescaped(dst, content []byte) []byte {
	for i := 0; i < len(content); {
		var r rune
		r, i = nextRune(content, i)
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// unescape decodes the content of a scanned string.
func unescape(content []byte, escaped bool) string {
	if !escaped {
		return string(content)
	}
	return string(appendUnescaped(make([]byte, 0, len(content)), content))
}

// contentEquals reports whether the content of a scanned string decodes to s.
func contentEquals(content []byte, escaped bool, s string) bool {
	if !escaped {
		return string(content) == s
	}
	i, j := 0, 0
	for i < len(content) && j < len(s) {
		var r rune
		r, i = nextRune(content, i)
		r2, size := utf8.DecodeRuneInString(s[j:])
		if r != r2 {
			return false
		}
		j += size
	}
	return i == len(content) && j == len(s)
}

// contentsEqual reports whether two scanned strings decode to the same text.
func contentsEqual(a []byte, aEsc bool, b []byte, bEsc bool) bool {
	if !aEsc && !bEsc {
		return string(a) == string(b)
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		var r1, r2 rune
		r1, i = nextRune(a, i)
		r2, j = nextRune(b, j)
		if r1 != r2 {
			return false
		}
	}
	return i == len(a) && j == len(b)
}

func hasBackslash(b []byte) bool { return bytes.IndexByte(b, '\\') >= 0 }
