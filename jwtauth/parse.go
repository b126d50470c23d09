package jwtauth

import (
	"encoding/base64"
	"encoding/json"
	"fmt"
	"strings"
)

// parsed is a compact JWS split and decoded, its signature not yet checked.
type parsed struct {
	raw    string // the token, for go-jose
	header header
}

// header holds the protected header parameters Verify looks at.
type header struct {
	alg, kid, typ string
	hasTyp        bool
}

// b64 decodes base64url without padding, strictly: a token has exactly one
// spelling, so flipping the unused bits of a last character is refused.
// (It still skips CR and LF, which parse refuses beforehand.)
var b64 = base64.RawURLEncoding.Strict()

// compactByte reports whether c may appear in a compact JWS: the base64url
// alphabet and the dot.
func compactByte(c byte) bool {
	return 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '_' || c == '.'
}

// parse splits token into its three parts and decodes its header. The
// header and payload are decoded here (and again by go-jose) so that the
// refusals can be specific and so that only strictly encoded tokens reach
// go-jose.
func parse(token string) (*parsed, error) {
	if token == "" {
		return nil, fmt.Errorf("%w: empty", ErrMalformed)
	}
	if len(token) > MaxTokenBytes {
		return nil, fmt.Errorf("%w: longer than %d bytes", ErrMalformed, MaxTokenBytes)
	}
	for i := range len(token) {
		if !compactByte(token[i]) {
			return nil, fmt.Errorf("%w: a character outside base64url", ErrMalformed)
		}
	}
	parts := strings.Split(token, ".")
	if len(parts) == 5 {
		return nil, fmt.Errorf("%w: encrypted tokens (JWE) are not supported", ErrMalformed)
	}
	if len(parts) != 3 {
		return nil, fmt.Errorf("%w: not three dot-separated parts", ErrMalformed)
	}
	rawHeader, err := b64.DecodeString(parts[0])
	if err != nil {
		return nil, fmt.Errorf("%w: header is not base64url", ErrMalformed)
	}
	if _, err := b64.DecodeString(parts[1]); err != nil {
		return nil, fmt.Errorf("%w: payload is not base64url", ErrMalformed)
	}
	if _, err := b64.DecodeString(parts[2]); err != nil {
		return nil, fmt.Errorf("%w: signature is not base64url", ErrMalformed)
	}
	h, err := decodeHeader(rawHeader)
	if err != nil {
		return nil, err
	}
	return &parsed{raw: token, header: h}, nil
}

// decodeHeader decodes a JOSE header and refuses the parameters this
// package does not support.
func decodeHeader(data []byte) (header, error) {
	var m map[string]json.RawMessage
	if err := json.Unmarshal(data, &m); err != nil || m == nil {
		return header{}, fmt.Errorf("%w: header is not a JSON object", ErrMalformed)
	}
	for _, name := range []string{"crit", "cty", "b64", "zip", "enc"} {
		if _, ok := m[name]; ok {
			return header{}, fmt.Errorf("%w: unsupported header %q", ErrMalformed, name)
		}
	}
	var h header
	var err error
	if h.alg, _, err = headerString(m, "alg"); err != nil {
		return h, err
	}
	if h.alg == "" {
		return h, fmt.Errorf(`%w: no "alg" header`, ErrMalformed)
	}
	if h.kid, _, err = headerString(m, "kid"); err != nil {
		return h, err
	}
	h.typ, h.hasTyp, err = headerString(m, "typ")
	return h, err
}

// headerString returns the string parameter name of m and whether it is
// present; a parameter of another type is malformed.
func headerString(m map[string]json.RawMessage, name string) (string, bool, error) {
	raw, ok := m[name]
	if !ok {
		return "", false, nil
	}
	var s string
	if err := json.Unmarshal(raw, &s); err != nil {
		return "", true, fmt.Errorf("%w: header %q is not a string", ErrMalformed, name)
	}
	return s, true, nil
}
