package jsonx

import (
	"bytes"
	"encoding/binary"
	"unicode/utf16"
	"unicode/utf8"
)

// Mode says which escaped surrogates ("\ud83d") a string may hold. Every
// other rule of strings is the same in both modes: valid UTF-8 only (no
// surrogates or overlong forms encoded in UTF-8), no control characters,
// and only the escapes of RFC 8259.
type Mode uint8

const (
	// Lenient accepts every \uXXXX escape, as the grammar of RFC 8259 and
	// Go's encoding/json do; an escaped surrogate that is not half of a
	// valid pair decodes to U+FFFD. The wire (package jsonrpc) reads
	// messages in this mode, so that what any JSON encoder writes is read.
	Lenient Mode = iota
	// Pairs accepts an escaped surrogate only as half of a valid pair, as
	// the decoder of the schema library (go-json-experiment) does. The
	// schema package's fast path reads instances in this mode, so that it
	// accepts exactly what the library accepts.
	Pairs
)

// Str is a string the scanner accepted, as positions in the scanned data.
type Str struct {
	Start, End int  // the content, without the quotes: data[Start:End]
	Runes      int  // the number of characters the content decodes to
	Escaped    bool // the content holds escape sequences
}

// Content returns the string's content, still escaped, within data.
func (s Str) Content(data []byte) []byte { return data[s.Start:s.End] }

// Text returns the string's decoded text.
func (s Str) Text(data []byte) string { return Unescape(data[s.Start:s.End], s.Escaped) }

// StringValue returns the text of raw when raw is one JSON string (white
// space around it allowed), read in Lenient mode: the bytes between its
// quotes, within raw, when it holds no escape, else its decoded copy. It
// lets a reader compare a string, or look it up in a map, without a copy.
func StringValue(raw []byte) ([]byte, bool) {
	i := SkipSpace(raw, 0)
	if i >= len(raw) || raw[i] != '"' {
		return nil, false
	}
	s, next, ok := ScanString(raw, i, Lenient)
	if !ok || SkipSpace(raw, next) != len(raw) {
		return nil, false
	}
	if !s.Escaped {
		return s.Content(raw), true
	}
	return []byte(s.Text(raw)), true
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

// ScanString scans the string whose opening quote is b[i]. It returns the
// string and the index after its closing quote; when the string is
// malformed or cut short, ok is false and next is the index of the byte
// that made it so (len(b) when cut short).
func ScanString(b []byte, i int, m Mode) (s Str, next int, ok bool) {
	i++
	s.Start = i
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
			s.End, s.Runes = i, n
			return s, i + 1, true
		case escapeByte:
			s.Escaped = true
			if i+1 < len(b) && byteClass[b[i+1]]&simpleEscape != 0 {
				i += 2
			} else if w := escapeLen(b, i, m); w > 0 {
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

// skipTrusted skips the string whose opening quote is b[i] in data known
// to be valid: it finds the closing quote with bytes.IndexByte, looking
// for escapes only before it, and counts no characters. It still stops,
// without reading past the end, on data that breaks the promise.
func skipTrusted(b []byte, i int) (s Str, next int, ok bool) {
	i++
	s.Start = i
	for {
		q := bytes.IndexByte(b[i:], '"')
		if q < 0 {
			return s, len(b), false
		}
		e := bytes.IndexByte(b[i:i+q], '\\')
		if e < 0 {
			s.End = i + q
			return s, i + q + 1, true
		}
		s.Escaped = true
		i += e + 2 // a backslash and the byte it escapes
		if i > len(b) {
			return s, len(b), false
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
// backslash): 2; 6 for \uXXXX; 12 for an escaped surrogate pair, which
// counts as one character. It returns 0 for a malformed escape, and in
// Pairs mode for an escaped surrogate that is not half of a pair.
func escapeLen(b []byte, i int, m Mode) int {
	if i+1 >= len(b) {
		return 0
	}
	switch b[i+1] {
	case '"', '\\', '/', 'b', 'f', 'n', 'r', 't':
		return 2
	case 'u':
		v1, ok := hex4(b, i+2)
		if !ok {
			return 0
		}
		if !utf16.IsSurrogate(v1) {
			return 6
		}
		if pairAt(b, i+6, v1) {
			return 12
		}
		if m == Lenient {
			return 6
		}
	}
	return 0
}

// pairAt reports whether b[i:] starts with the escaped low surrogate that
// completes the high surrogate hi.
func pairAt(b []byte, i int, hi rune) bool {
	if i+6 > len(b) || b[i] != '\\' || b[i+1] != 'u' {
		return false
	}
	lo, ok := hex4(b, i+2)
	return ok && utf16.DecodeRune(hi, lo) != utf8.RuneError
}

// hex4 decodes the four hexadecimal digits at b[i:].
func hex4(b []byte, i int) (rune, bool) {
	if i < 0 || i+4 > len(b) {
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
