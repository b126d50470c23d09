package jsonx

import (
	"bytes"
	"unicode"
	"unicode/utf16"
	"unicode/utf8"
)

// NextRune decodes the character at content[i] of a string's content and
// returns the index after it. An escaped surrogate pair decodes to one
// character, and an escaped lone surrogate to U+FFFD, as encoding/json
// decodes them. It never panics: a malformed escape or byte, in content
// the scanner did not accept, decodes to U+FFFD.
func NextRune(content []byte, i int) (rune, int) {
	c := content[i]
	if c >= utf8.RuneSelf {
		r, size := utf8.DecodeRune(content[i:])
		return r, i + size
	}
	if c != '\\' {
		return rune(c), i + 1
	}
	if i+1 >= len(content) {
		return utf8.RuneError, i + 1
	}
	switch content[i+1] {
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
	case '"', '\\', '/':
		return rune(content[i+1]), i + 2
	case 'u':
		r, ok := hex4(content, i+2)
		switch {
		case !ok:
			return utf8.RuneError, i + 2
		case !utf16.IsSurrogate(r):
			return r, i + 6
		case pairAt(content, i+6, r):
			lo, _ := hex4(content, i+8)
			return utf16.DecodeRune(r, lo), i + 12
		}
		return utf8.RuneError, i + 6
	}
	return utf8.RuneError, i + 2
}

// AppendUnescaped appends the decoded text of a string's content.
func AppendUnescaped(dst, content []byte) []byte {
	for i := 0; i < len(content); {
		var r rune
		r, i = NextRune(content, i)
		dst = utf8.AppendRune(dst, r)
	}
	return dst
}

// Unescape returns the decoded text of a string's content; escaped says
// whether the content holds escapes (without, it is copied as it is).
func Unescape(content []byte, escaped bool) string {
	if !escaped {
		return string(content)
	}
	return string(AppendUnescaped(make([]byte, 0, len(content)), content))
}

// HasEscape reports whether a string's content holds an escape.
func HasEscape(content []byte) bool { return bytes.IndexByte(content, '\\') >= 0 }

// EqualText reports whether a string's content decodes to s, without
// decoding it into a new string.
func EqualText(content []byte, escaped bool, s string) bool {
	if !escaped {
		return string(content) == s
	}
	i, j := 0, 0
	for i < len(content) && j < len(s) {
		var r rune
		r, i = NextRune(content, i)
		r2, size := utf8.DecodeRuneInString(s[j:])
		if r != r2 {
			return false
		}
		j += size
	}
	return i == len(content) && j == len(s)
}

// Equal reports whether the contents of two strings decode to the same
// text.
func Equal(a []byte, aEscaped bool, b []byte, bEscaped bool) bool {
	if !aEscaped && !bEscaped {
		return string(a) == string(b)
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		var r1, r2 rune
		r1, i = NextRune(a, i)
		r2, j = NextRune(b, j)
		if r1 != r2 {
			return false
		}
	}
	return i == len(a) && j == len(b)
}

// EqualFold reports whether the contents of two strings decode to texts
// that are equal under simple Unicode case folding, as strings.EqualFold
// decides: "name", "Name" and "N\u0041ME" are all equal.
func EqualFold(a []byte, aEscaped bool, b []byte, bEscaped bool) bool {
	if !aEscaped && !bEscaped {
		if len(a) > 0 && len(b) > 0 && a[0] < utf8.RuneSelf && b[0] < utf8.RuneSelf && asciiLower(a[0]) != asciiLower(b[0]) {
			return false // two ASCII first characters fold only to each other
		}
		return bytes.EqualFold(a, b)
	}
	i, j := 0, 0
	for i < len(a) && j < len(b) {
		var r1, r2 rune
		r1, i = NextRune(a, i)
		r2, j = NextRune(b, j)
		if !foldEqual(r1, r2) {
			return false
		}
	}
	return i == len(a) && j == len(b)
}

// asciiLower returns the ASCII letter c in lower case, any other byte as
// it is.
func asciiLower(c byte) byte {
	if 'A' <= c && c <= 'Z' {
		return c + 'a' - 'A'
	}
	return c
}

// foldEqual reports whether two runes are equal under simple folding, as
// strings.EqualFold compares them.
func foldEqual(r1, r2 rune) bool {
	if r1 == r2 {
		return true
	}
	if r2 < r1 {
		r1, r2 = r2, r1
	}
	if r2 < utf8.RuneSelf {
		return 'A' <= r1 && r1 <= 'Z' && r2 == r1+'a'-'A'
	}
	r := unicode.SimpleFold(r1)
	for r != r1 && r < r2 {
		r = unicode.SimpleFold(r)
	}
	return r == r2
}

// foldRune maps r to the smallest rune of its case-folding orbit, so that
// two texts are equal under EqualFold exactly when their runes, so
// mapped, are equal.
func foldRune(r rune) rune {
	for {
		f := unicode.SimpleFold(r)
		if f <= r {
			return f
		}
		r = f
	}
}
