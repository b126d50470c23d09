package jsonx

import (
	"bytes"

	json "github.com/goccy/go-json"
)

// IsSpace reports whether c is JSON white space: a space, a tab, a line
// feed or a carriage return.
func IsSpace(c byte) bool { return c <= ' ' && spaceBits&(1<<c) != 0 }

const spaceBits = 1<<' ' | 1<<'\t' | 1<<'\n' | 1<<'\r'

// SkipSpace returns the index of the first byte at or after b[i] that is
// not white space, or len(b).
func SkipSpace(b []byte, i int) int {
	for i < len(b) && IsSpace(b[i]) {
		i++
	}
	return i
}

// FirstByte returns the first byte of b that is not white space, or 0 when
// there is none: '{' for an object, '[' for an array, and so on.
func FirstByte(b []byte) byte {
	if i := SkipSpace(b, 0); i < len(b) {
		return b[i]
	}
	return 0
}

// TypeName names, as JSON Schema does, the type of the JSON value whose
// first byte is c: "object", "array", "string", "boolean" or "null"; ""
// for any other byte (a number's first byte among them, or FirstByte's 0).
func TypeName(c byte) string {
	switch c {
	case '{':
		return "object"
	case '[':
		return "array"
	case '"':
		return "string"
	case 't', 'f':
		return "boolean"
	case 'n':
		return "null"
	}
	return ""
}

// OneLine returns the JSON text raw as it is unless it spans lines, which
// one line of the stdio transport cannot carry: then compacted (a line
// break in JSON can only be white space between tokens). Compacting fails
// on raw that is not JSON.
func OneLine(raw []byte) ([]byte, error) {
	if bytes.IndexByte(raw, '\n') < 0 && bytes.IndexByte(raw, '\r') < 0 {
		return raw, nil
	}
	var b bytes.Buffer
	if err := json.Compact(&b, raw); err != nil {
		return nil, err
	}
	return b.Bytes(), nil
}
