// Package jws signs JSON Web Signatures in compact serialization (RFC 7515)
// with the two algorithms mcpwire's OAuth code needs, ES256 and RS256, using
// only the standard library: client assertions (RFC 7523), DPoP proofs
// (RFC 9449) and the development tokens of tests.
package jws

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
)

// Algorithm names the JWS algorithm a signer's key signs with: "ES256"
// for an ECDSA key on P-256, "RS256" for an RSA key of 2048 bits or more.
// Any other key is refused.
func Algorithm(s crypto.Signer) (string, error) {
	switch k := s.Public().(type) {
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return "", errors.New("jws: an ECDSA key must be on P-256 (ES256)")
		}
		return "ES256", nil
	case *rsa.PublicKey:
		if k.N.BitLen() < 2048 {
			return "", fmt.Errorf("jws: an RSA key of %d bits is too small (at least 2048)", k.N.BitLen())
		}
		return "RS256", nil
	default:
		return "", fmt.Errorf("jws: a %T key cannot sign ES256 or RS256", k)
	}
}

// Sign returns the compact serialization of claims signed by s, with the
// header members given plus "alg". Claims and header are encoded with
// encoding/json.
func Sign(s crypto.Signer, header map[string]any, claims any) (string, error) {
	alg, err := Algorithm(s)
	if err != nil {
		return "", err
	}
	h := make(map[string]any, len(header)+1)
	for k, v := range header {
		h[k] = v
	}
	h["alg"] = alg
	hb, err := json.Marshal(h)
	if err != nil {
		return "", fmt.Errorf("jws: header: %w", err)
	}
	cb, err := json.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("jws: claims: %w", err)
	}
	input := b64(hb) + "." + b64(cb)
	digest := sha256.Sum256([]byte(input))
	sig, err := s.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("jws: sign: %w", err)
	}
	if alg == "ES256" {
		if sig, err = rawECDSA(sig); err != nil {
			return "", err
		}
	}
	return input + "." + b64(sig), nil
}

// PublicJWK returns the public JWK of s's key with only its required
// members (RFC 7638 §3.2), the form a thumbprint is computed over.
func PublicJWK(s crypto.Signer) (map[string]string, error) {
	switch k := s.Public().(type) {
	case *ecdsa.PublicKey:
		if k.Curve != elliptic.P256() {
			return nil, errors.New("jws: an ECDSA key must be on P-256")
		}
		b, err := k.Bytes() // 0x04 || X || Y
		if err != nil {
			return nil, fmt.Errorf("jws: %w", err)
		}
		return map[string]string{"kty": "EC", "crv": "P-256", "x": b64(b[1:33]), "y": b64(b[33:])}, nil
	case *rsa.PublicKey:
		return map[string]string{"kty": "RSA", "n": b64(k.N.Bytes()), "e": b64(big.NewInt(int64(k.E)).Bytes())}, nil
	default:
		return nil, fmt.Errorf("jws: a %T key has no JWK here", k)
	}
}

// Thumbprint is the RFC 7638 SHA-256 thumbprint of a JWK of required
// members, base64url without padding.
func Thumbprint(jwk map[string]string) string {
	var canon []byte
	switch jwk["kty"] {
	case "EC":
		canon = fmt.Appendf(nil, `{"crv":%q,"kty":"EC","x":%q,"y":%q}`, jwk["crv"], jwk["x"], jwk["y"])
	default:
		canon = fmt.Appendf(nil, `{"e":%q,"kty":"RSA","n":%q}`, jwk["e"], jwk["n"])
	}
	sum := sha256.Sum256(canon)
	return b64(sum[:])
}

// rawECDSA turns an ASN.1 ECDSA signature into JWS's R || S of 32 bytes
// each (RFC 7518 §3.4).
func rawECDSA(der []byte) ([]byte, error) {
	var sig struct{ R, S *big.Int }
	if _, err := asn1Unmarshal(der, &sig); err != nil {
		return nil, fmt.Errorf("jws: ECDSA signature: %w", err)
	}
	out := make([]byte, 64)
	sig.R.FillBytes(out[:32])
	sig.S.FillBytes(out[32:])
	return out, nil
}

// b64 is base64url without padding.
func b64(b []byte) string { return base64.RawURLEncoding.EncodeToString(b) }
