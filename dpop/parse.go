package dpop

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"math/big"
	"strings"
)

// maxProofSize bounds a proof: an RS256 proof with a 4096-bit key is
// under 2 KiB.
const maxProofSize = 8 << 10

// parsed is a proof whose signature verified against its own jwk.
type parsed struct {
	thumbprint string
	claims     proofClaims
}

// proofHeader is the JOSE header of a proof (RFC 9449 §4.2).
type proofHeader struct {
	Typ  *string                    `json:"typ"`
	Alg  string                     `json:"alg"`
	JWK  map[string]json.RawMessage `json:"jwk"`
	Crit json.RawMessage            `json:"crit"`
}

// proofClaims are the claims of a proof; pointers tell absent from empty.
type proofClaims struct {
	JTI   *string  `json:"jti"`
	HTM   *string  `json:"htm"`
	HTU   *string  `json:"htu"`
	IAT   *float64 `json:"iat"`
	ATH   *string  `json:"ath"`
	Nonce *string  `json:"nonce"`
}

// privateMembers are the JWK members of a private key (RFC 7518 §6.2.2,
// §6.3.2) and of a symmetric one (§6.4.1).
var privateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// parse decodes a compact JWS proof and verifies its signature with the
// public key of its own header (RFC 9449 §4.3, checks 2 and 4 to 7). Its errors
// are reasons, which Check wraps in ErrInvalidProof.
func parse(proof string) (*parsed, error) {
	if len(proof) > maxProofSize {
		return nil, errors.New("the proof is too large")
	}
	h64, rest, ok1 := strings.Cut(proof, ".")
	c64, s64, ok2 := strings.Cut(rest, ".")
	if !ok1 || !ok2 || strings.Contains(s64, ".") {
		return nil, errors.New("the proof is not a compact JWS of three parts")
	}
	rawHeader, err1 := b64.DecodeString(h64)
	rawClaims, err2 := b64.DecodeString(c64)
	sig, err3 := b64.DecodeString(s64)
	if err1 != nil || err2 != nil || err3 != nil {
		return nil, errors.New("a part of the proof is not base64url")
	}
	var h proofHeader
	if err := json.Unmarshal(rawHeader, &h); err != nil {
		return nil, errors.New("the proof's header is not a JSON object")
	}
	switch {
	case h.Typ == nil:
		return nil, errors.New(`the proof's header has no "typ"`)
	case *h.Typ != proofType:
		return nil, errors.New(`the proof's "typ" is not dpop+jwt`)
	case h.Alg != "ES256" && h.Alg != "RS256":
		return nil, errors.New(`the proof's "alg" is not ES256 or RS256, the algorithms accepted`)
	case h.Crit != nil:
		return nil, errors.New(`the proof's header has "crit" extensions, which are not understood`)
	case h.JWK == nil:
		return nil, errors.New(`the proof's header has no "jwk" object`)
	}
	for _, m := range privateMembers {
		if _, ok := h.JWK[m]; ok {
			return nil, errors.New(`the proof's "jwk" holds a private or symmetric key`)
		}
	}
	pub, canonical, err := publicKey(h.Alg, h.JWK)
	if err != nil {
		return nil, err
	}
	if !verify(pub, h.Alg, []byte(proof[:len(h64)+1+len(c64)]), sig) {
		return nil, errors.New("the proof's signature does not verify")
	}
	var c proofClaims
	if err := json.Unmarshal(rawClaims, &c); err != nil {
		return nil, errors.New("the proof's claims are not a JSON object of the expected types")
	}
	return &parsed{thumbprint: thumbprint(canonical), claims: c}, nil
}

// publicKey returns the key of a public JWK fit for alg and the JWK in the
// canonical form of its thumbprint (RFC 7638 §3).
func publicKey(alg string, jwk map[string]json.RawMessage) (crypto.PublicKey, []byte, error) {
	member := func(name string) (string, bool) {
		var s string
		if json.Unmarshal(jwk[name], &s) != nil {
			return "", false
		}
		return s, true
	}
	kty, _ := member("kty")
	switch {
	case alg == "ES256" && kty == "EC":
		crv, _ := member("crv")
		x64, okx := member("x")
		y64, oky := member("y")
		x, errx := b64.DecodeString(x64)
		y, erry := b64.DecodeString(y64)
		if crv != "P-256" || !okx || !oky || errx != nil || erry != nil || len(x) != 32 || len(y) != 32 {
			return nil, nil, errors.New(`the proof's "jwk" is not a P-256 public key`)
		}
		pub, err := ecdsa.ParseUncompressedPublicKey(elliptic.P256(), append(append([]byte{4}, x...), y...))
		if err != nil {
			return nil, nil, errors.New(`the proof's "jwk" is not a point on P-256`)
		}
		canonical, err := ecJWK(pub)
		return pub, canonical, err
	case alg == "RS256" && kty == "RSA":
		n64, okn := member("n")
		e64, oke := member("e")
		n, errn := b64.DecodeString(n64)
		e, erre := b64.DecodeString(e64)
		if !okn || !oke || errn != nil || erre != nil || len(e) == 0 || len(e) > 4 || len(n) == 0 || n[0] == 0 || e[0] == 0 {
			return nil, nil, errors.New(`the proof's "jwk" is not an RSA public key`)
		}
		pub := &rsa.PublicKey{N: new(big.Int).SetBytes(n), E: int(new(big.Int).SetBytes(e).Int64())}
		if pub.N.BitLen() < minRSABits || pub.N.BitLen() > 8192 || pub.E < 3 || pub.E%2 == 0 || pub.E > 1<<31-1 {
			return nil, nil, errors.New(`the proof's RSA "jwk" has a modulus out of 2048 to 8192 bits or a bad exponent`)
		}
		return pub, rsaJWK(pub), nil
	}
	return nil, nil, errors.New(`the proof's "jwk" is not a key for its "alg"`)
}

// verify checks a JWS signature over input (RFC 7518 §3.3, §3.4).
func verify(pub crypto.PublicKey, alg string, input, sig []byte) bool {
	digest := sha256.Sum256(input)
	switch alg {
	case "ES256":
		if len(sig) != 64 {
			return false
		}
		r, s := new(big.Int).SetBytes(sig[:32]), new(big.Int).SetBytes(sig[32:])
		return ecdsa.Verify(pub.(*ecdsa.PublicKey), digest[:], r, s)
	case "RS256":
		return rsa.VerifyPKCS1v15(pub.(*rsa.PublicKey), crypto.SHA256, digest[:], sig) == nil
	}
	return false
}
