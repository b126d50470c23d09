// Package clip is the one rule for quoting client input in a message: a
// value longer than Max bytes is cut, at a character boundary, to its first
// Max bytes, followed by an ellipsis and the original length. Every error or
// log text that repeats what a client sent goes through it, so that a
// 10 MiB tool name, path or key never comes back as a 10 MiB error.
package clip

import (
	"strconv"
	"unicode/utf8"
)

// Max is the number of bytes of a quoted value kept in a message.
const Max = 64

// String returns s unchanged when it is at most Max bytes long; otherwise
// its first Max bytes (fewer, to end on a whole character), an ellipsis and
// the original length:
//
//	aaaaaaaa… (10485760 bytes)
func String(s string) string {
	if len(s) <= Max {
		return s
	}
	return prefix(s) + "… (" + strconv.Itoa(len(s)) + " bytes)"
}

// Quote is String for a value shown as a quoted string, as %q shows it:
// the kept part is quoted with the ellipsis inside the quotes and the
// original length after them:
//
//	"aaaaaaaa…" (10485760 bytes)
func Quote(s string) string {
	if len(s) <= Max {
		return strconv.Quote(s)
	}
	return strconv.Quote(prefix(s)+"…") + " (" + strconv.Itoa(len(s)) + " bytes)"
}

// Bytes is String for raw bytes, such as a JSON value as it was sent. It
// copies at most Max bytes of b.
func Bytes(b []byte) string {
	if len(b) <= Max {
		return string(b)
	}
	return prefix(string(b[:Max+1])) + "… (" + strconv.Itoa(len(b)) + " bytes)"
}

// prefix returns the first Max bytes of s, shortened to end on a whole
// character.
func prefix(s string) string {
	cut := Max
	for cut > 0 && cut < len(s) && !utf8.RuneStart(s[cut]) {
		cut--
	}
	return s[:cut]
}
