package uritemplate

import (
	"strings"
	"unicode/utf8"
)

// reservedChars are RFC 3986's gen-delims and sub-delims.
const reservedChars = ":/?#[]@!$&'()*+,;="

// isUnreserved reports whether c is an RFC 3986 unreserved character:
// ALPHA, DIGIT, "-", ".", "_" or "~".
func isUnreserved(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' ||
		c == '-' || c == '.' || c == '_' || c == '~'
}

// isReserved reports whether c is an RFC 3986 reserved character.
func isReserved(c byte) bool {
	return c != 0 && strings.IndexByte(reservedChars, c) >= 0
}

// isLiteralASCII reports whether the ASCII byte c may stand for itself in
// a template literal (RFC 6570 section 2.1); "%" is not one, it must start
// a percent-encoded triplet.
func isLiteralASCII(c byte) bool {
	if c <= ' ' || c >= 0x7f {
		return false
	}
	return strings.IndexByte("\"'%<>\\^`{|}", c) < 0
}

// isVarchar reports whether c is an ASCII varchar of a variable name
// (ALPHA, DIGIT or "_"; pct-encoded triplets are handled by the caller).
func isVarchar(c byte) bool {
	return 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z' || '0' <= c && c <= '9' || c == '_'
}

// isHex reports whether c is a hexadecimal digit, in either case.
func isHex(c byte) bool {
	return '0' <= c && c <= '9' || 'a' <= c && c <= 'f' || 'A' <= c && c <= 'F'
}

// unhex returns the value of the hexadecimal digit c.
func unhex(c byte) byte {
	switch {
	case c <= '9':
		return c - '0'
	case c >= 'a':
		return c - 'a' + 10
	}
	return c - 'A' + 10
}

// ucsRanges are the non-ASCII characters a template literal may hold and
// a uri may carry unencoded: RFC 3987's ucschar and iprivate.
var ucsRanges = [...]struct{ lo, hi rune }{
	{0xA0, 0xD7FF}, {0xE000, 0xF8FF}, {0xF900, 0xFDCF}, {0xFDF0, 0xFFEF},
	{0x10000, 0x1FFFD}, {0x20000, 0x2FFFD}, {0x30000, 0x3FFFD},
	{0x40000, 0x4FFFD}, {0x50000, 0x5FFFD}, {0x60000, 0x6FFFD},
	{0x70000, 0x7FFFD}, {0x80000, 0x8FFFD}, {0x90000, 0x9FFFD},
	{0xA0000, 0xAFFFD}, {0xB0000, 0xBFFFD}, {0xC0000, 0xCFFFD},
	{0xD0000, 0xDFFFD}, {0xE1000, 0xEFFFD}, {0xF0000, 0xFFFFD},
	{0x100000, 0x10FFFD},
}

// isUcs reports whether r is in ucsRanges.
func isUcs(r rune) bool {
	for _, u := range ucsRanges {
		if u.lo <= r && r <= u.hi {
			return true
		}
	}
	return false
}

// uriChars reports whether every non-ASCII character of uri is in
// ucsRanges, which also rules out invalid UTF-8 (read as U+FFFD). No
// literal holds another one (Parse refuses it) and no value does (a value
// is written with ucsRanges), so the pattern can take any non-ASCII
// character once uriChars has held.
func uriChars(uri string) bool {
	for i := 0; i < len(uri); i++ {
		if uri[i] < utf8.RuneSelf {
			continue
		}
		r, n := utf8.DecodeRuneInString(uri[i:])
		if !isUcs(r) {
			return false
		}
		i += n - 1
	}
	return true
}
