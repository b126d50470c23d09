package jws

import "encoding/asn1"

// asn1Unmarshal is encoding/asn1's Unmarshal, refusing trailing bytes.
func asn1Unmarshal(b []byte, v any) ([]byte, error) {
	rest, err := asn1.Unmarshal(b, v)
	if err == nil && len(rest) > 0 {
		return rest, asn1.SyntaxError{Msg: "trailing data"}
	}
	return rest, err
}
