package schema

import "github.com/mcpwire/mcpwire/internal/jsonx"

// The fast path reads instances with package jsonx's scanner, the one the
// wire uses, in its Pairs mode: RFC 8259 grammar, valid UTF-8, escaped
// surrogates only in valid pairs, no duplicate object names (compared
// after unescaping). That is exactly the JSON the library's decoder
// (go-json-experiment) accepts, with one limit of its own: at most
// jsonx.MaxDepth (1000) nested arrays and objects, where the library
// allows 10000. A deeper instance gets depthViolation, the wire's verdict
// on a message nested that deep, whatever the library would say (see
// fast.go).

// strInfo describes a scanned string (see jsonx.Str).
type strInfo struct {
	start, end int  // the content, without the quotes
	runes      int  // length in code points
	escaped    bool // the content has escape sequences
}

// scanString scans the string starting with the '"' at b[i]. It returns
// the string and the index after its closing quote.
func scanString(b []byte, i int) (s strInfo, next int, ok bool) {
	js, next, ok := jsonx.ScanString(b, i, jsonx.Pairs)
	return strOf(js), next, ok
}

func strOf(s jsonx.Str) strInfo { return strInfo{s.Start, s.End, s.Runes, s.Escaped} }

func skipSpace(b []byte, i int) int { return jsonx.SkipSpace(b, i) }

// unescape decodes the content of a scanned string.
func unescape(content []byte, escaped bool) string { return jsonx.Unescape(content, escaped) }

func hasBackslash(b []byte) bool { return jsonx.HasEscape(b) }
