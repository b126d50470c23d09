package jsonrpc

import (
	"strconv"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// ID is a JSON-RPC request id: an integer or a string, kept exactly as the
// peer wrote it, so that an id such as 9007199254740993 (beyond float64
// precision) goes back byte-identical. The zero ID means "no id".
type ID struct {
	raw string // the JSON token, e.g. `42` or `"abc"`; "" when absent
}

// Int64ID returns an integer id.
func Int64ID(n int64) ID { return ID{raw: strconv.FormatInt(n, 10)} }

// StringID returns a string id.
func StringID(s string) ID { return ID{raw: string(jsonx.AppendString(nil, s))} }

// IsValid reports whether the id is present.
func (id ID) IsValid() bool { return id.raw != "" }

// IsString reports whether the id is a JSON string.
func (id ID) IsString() bool { return id.raw != "" && id.raw[0] == '"' }

// Raw returns the id's JSON token exactly as received ("" when absent).
func (id ID) Raw() string { return id.raw }

// String returns a readable form of the id for logs and error messages.
func (id ID) String() string {
	if id.raw == "" {
		return "<none>"
	}
	return id.raw
}

// Key returns a canonical form for use as a map key: two ids that denote the
// same value ("a" and "\u0061") have the same key, and an integer never
// collides with a string.
func (id ID) Key() string {
	if !id.IsString() {
		return id.raw
	}
	for i := 0; i < len(id.raw); i++ {
		if id.raw[i] == '\\' {
			var s string
			if json.Unmarshal([]byte(id.raw), &s) == nil {
				return string(jsonx.AppendString(nil, s))
			}
			break
		}
	}
	return id.raw
}

// MarshalJSON writes the id token as received.
func (id ID) MarshalJSON() ([]byte, error) {
	if id.raw == "" {
		return []byte("null"), nil
	}
	return []byte(id.raw), nil
}

// UnmarshalJSON accepts an integer or a string token and refuses anything
// else (null, booleans, fractions, exponents, objects, arrays).
func (id *ID) UnmarshalJSON(b []byte) error {
	parsed, ok := parseID(b)
	if !ok {
		return &Error{Code: CodeInvalidRequest, Message: "id must be a string or an integer"}
	}
	*id = parsed
	return nil
}

// parseID validates one raw JSON token as an id.
func parseID(tok []byte) (ID, bool) {
	if len(tok) == 0 {
		return ID{}, false
	}
	if tok[0] == '"' {
		if len(tok) < 2 || tok[len(tok)-1] != '"' {
			return ID{}, false
		}
		return ID{raw: string(tok)}, true
	}
	i := 0
	if tok[0] == '-' {
		i = 1
	}
	if i == len(tok) {
		return ID{}, false
	}
	for ; i < len(tok); i++ {
		if tok[i] < '0' || tok[i] > '9' {
			return ID{}, false
		}
	}
	return ID{raw: string(tok)}, true
}
