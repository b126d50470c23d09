package header

import (
	"encoding/base64"
	"errors"
	"fmt"
	"strings"
	"unicode/utf8"
)

// Sentinel markers around a Base64-encoded header value. They are
// lower-case and matched exactly.
const (
	sentinelPrefix = "=?base64?"
	sentinelSuffix = "?="
)

// ErrValue reports a header value that cannot be decoded.
var ErrValue = errors.New("invalid header value")

// EncodeValue returns the header form of an argument string (or of an
// Mcp-Name value). The value is sent as is when every byte is visible ASCII
// (0x21–0x7E) or a space, it neither starts nor ends with a space, and it
// does not itself look like the Base64 sentinel form. Anything else —
// non-ASCII text, control characters including HTAB, leading or trailing
// whitespace, sentinel-looking text — is sent as "=?base64?" + the padded
// standard Base64 of its bytes + "?=". The empty string stays empty.
func EncodeValue(s string) string {
	if isPlain(s) {
		return s
	}
	return sentinelPrefix + base64.StdEncoding.EncodeToString([]byte(s)) + sentinelSuffix
}

// DecodeValue reverses [EncodeValue]. A sentinel-form value must hold strict
// padded standard Base64 of valid UTF-8. A plain value may hold only visible
// ASCII, spaces and horizontal tabs, and must not start or end with
// whitespace. Failures wrap [ErrValue].
func DecodeValue(h string) (string, error) {
	if isSentinel(h) {
		b64 := h[len(sentinelPrefix) : len(h)-len(sentinelSuffix)]
		b, err := base64.StdEncoding.Strict().DecodeString(b64)
		if err != nil {
			return "", fmt.Errorf("%w: bad base64 in %q: %v", ErrValue, h, err)
		}
		if !utf8.Valid(b) {
			return "", fmt.Errorf("%w: base64 in %q does not hold UTF-8 text", ErrValue, h)
		}
		return string(b), nil
	}
	for i := 0; i < len(h); i++ {
		if c := h[i]; c != '\t' && (c < 0x20 || c > 0x7e) {
			return "", fmt.Errorf("%w: byte 0x%02x at offset %d", ErrValue, c, i)
		}
	}
	if h != strings.Trim(h, " \t") {
		return "", fmt.Errorf("%w: leading or trailing whitespace in %q", ErrValue, h)
	}
	return h, nil
}

// isPlain reports whether s may be sent without Base64.
func isPlain(s string) bool {
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x20 || c > 0x7e {
			return false
		}
	}
	if s != "" && (s[0] == ' ' || s[len(s)-1] == ' ') {
		return false
	}
	return !isSentinel(s)
}

// isSentinel reports whether s has the sentinel form =?base64?…?=.
func isSentinel(s string) bool {
	return len(s) >= len(sentinelPrefix)+len(sentinelSuffix) &&
		strings.HasPrefix(s, sentinelPrefix) && strings.HasSuffix(s, sentinelSuffix)
}
