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

// proofClaims are the claims of a proof; pointers tell absent from empty.
type proofClaims struct {
	JTI, HTM, HTU, ATH, Nonce *string
	IAT                       *float64
}

// object is a JSON object whose members are read by their exact names
// (encoding/json would match a struct's fields in any case).
type object map[string]json.RawMessage

// str returns member name, nil when absent; ok is false when it is there
// but not a string.
func (o object) str(name string) (v *string, ok bool) {
	raw, there := o[name]
	if !there {
		return nil, true
	}
	var s string
	if json.Unmarshal(raw, &s) != nil {
		return nil, false
	}
	return &s, true
}

// privateMembers are the JWK members of a private key (RFC 7518 §6.2.2,
// §6.3.2) and of a symmetric one (§6.4.1).
var privateMembers = []string{"d", "p", "q", "dp", "dq", "qi", "oth", "k"}

// parse decodes a compact JWS proof and verifies its signature with the
// public key of its own header (RFC 9449 §4.3, checks 2 and 4 to 7).
// Its errors are reasons, which Check wraps in ErrInvalidProof.
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
	var h, jwk object
	if json.Unmarshal(rawHeader, &h) != nil || h == nil {
		return nil, errors.New("the proof's header is not a JSON object")
	}
	typ, _ := h.str("typ")
	alg, _ := h.str("alg")
	_, crit := h["crit"]
	switch {
	case typ == nil:
		return nil, errors.New(`the proof's header has no "typ"`)
	case *typ != proofType:
		return nil, errors.New(`the proof's "typ" is not dpop+jwt`)
	case alg == nil || *alg != "ES256" && *alg != "RS256":
		return nil, errors.New(`the proof's "alg" is not ES256 or RS256, the algorithms accepted`)
	case crit:
		return nil, errors.New(`the proof's header has "crit" extensions, which are not understood`)
	case json.Unmarshal(h["jwk"], &jwk) != nil || jwk == nil:
		return nil, errors.New(`the proof's header has no "jwk" object`)
	}
	for _, m := range privateMembers {
		if _, ok := jwk[m]; ok {
			return nil, errors.New(`the proof's "jwk" holds a private or symmetric key`)
		}
	}
	pub, canonical, err := publicKey(*alg, jwk)
	if err != nil {
		return nil, err
	}
	if !verify(pub, *alg, []byte(proof[:len(h64)+1+len(c64)]), sig) {
		return nil, errors.New("the proof's signature does not verify")
	}
	c, err := decodeClaims(rawClaims)
	if err != nil {
		return nil, err
	}
	return &parsed{thumbprint: thumbprint(canonical), claims: c}, nil
}

// decodeClaims reads the claims of a proof, each of its type when present.
func decodeClaims(raw []byte) (proofClaims, error) {
	var o object
	var c proofClaims
	if json.Unmarshal(raw, &o) != nil || o == nil {
		return c, errors.New("the proof's claims are not a JSON object")
	}
	ok := true
	for name, dst := range map[string]**string{"jti": &c.JTI, "htm": &c.HTM, "htu": &c.HTU, "ath": &c.ATH, "nonce": &c.Nonce} {
		var good bool
		*dst, good = o.str(name)
		ok = ok && good
	}
	if raw, there := o["iat"]; there {
		var f float64
		ok = ok && json.Unmarshal(raw, &f) == nil
		c.IAT = &f
	}
	if !ok {
		return c, errors.New("the proof's claims are not of the expected types")
	}
	return c, nil
}

// publicKey returns the key of a public JWK fit for alg and the JWK in the
// canonical form of its thumbprint (RFC 7638 §3).
func publicKey(alg string, jwk object) (crypto.PublicKey, []byte, error) {
	member := func(name string) (string, bool) {
		s, ok := jwk.str(name)
		if s == nil || !ok {
			return "", false
		}
		return *s, true
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
