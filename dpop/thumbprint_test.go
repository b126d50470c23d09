package dpop

import (
	"encoding/json"
	"testing"
)

// The thumbprint of RFC 7638 §3.1's example key, computed from the JWK
// as a proof carries it.
func TestThumbprintRFC7638(t *testing.T) {
	jwk := object{
		"kty": json.RawMessage(`"RSA"`),
		"n": json.RawMessage(`"0vx7agoebGcQSuuPiLJXZptN9nndrQmbXEps2aiAFbWhM78LhWx4cbbfAAtVT86zwu1RK7aPFFxuhDR1L6tSoc_BJECPebWKRXjBZCiFV4n3oknjhMstn6` +
			`4tZ_2W-5JsGY4Hc5n9yBXArwl93lqt7_RN5w6Cf0h4QyQ5v-65YGjQR0_FDW2QvzqY368QQMicAtaSqzs8KJZgnYb9c7d0zgdAZHzu6qMQvRL5hajrn1n91CbOpbI` +
			`SD08qNLyrdkt-bFTWhAI4vMQFh6WeZu0fM4lFd2NcRwr3XPksINHaQ-G_xBniIqbw0Ls1jF44-csFCur-kEgU8awapJzKnqDKgw"`),
		"e":   json.RawMessage(`"AQAB"`),
		"alg": json.RawMessage(`"RS256"`),
		"kid": json.RawMessage(`"2011-04-29"`),
	}
	_, canonical, err := publicKey("RS256", jwk)
	if err != nil {
		t.Fatal(err)
	}
	if got, want := thumbprint(canonical), "NzbLsXh8uDCcd-6MNwXF4W_7noWXFZAfHkxZsRGC9Xs"; got != want {
		t.Errorf("thumbprint %s, want %s", got, want)
	}
}
