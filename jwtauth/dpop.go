package jwtauth

import (
	"encoding/base64"
	"fmt"
)

// checkConfirmation checks the "cnf" claim of a DPoP-bound token (RFC
// 9449 §6.1), when there is one: a JSON object whose "jkt", when present,
// is a JWK SHA-256 thumbprint (43 characters of base64url). The claim
// reaches the principal as every other claim does, Claims["cnf"] a
// map[string]any, where package oauth reads "jkt" to check the request's
// DPoP proof against it; checking its shape here makes a malformed one
// a refused token rather than a token that cannot be used.
func checkConfirmation(c claims) error {
	raw, ok := c["cnf"]
	if !ok {
		return nil
	}
	cnf, ok := raw.(map[string]any)
	if !ok {
		return fmt.Errorf(`%w: "cnf" is not an object`, ErrMalformed)
	}
	raw, ok = cnf["jkt"]
	if !ok {
		return nil // another confirmation method (RFC 7800), not ours to check
	}
	jkt, ok := raw.(string)
	if b, err := base64.RawURLEncoding.DecodeString(jkt); !ok || err != nil || len(b) != 32 {
		return fmt.Errorf(`%w: "cnf" "jkt" is not a SHA-256 JWK thumbprint in base64url`, ErrMalformed)
	}
	return nil
}
