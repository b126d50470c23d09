package dpop

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/base64"
	"errors"
	"fmt"
	"math/big"
)

// Key is a client's DPoP key pair. Its methods are safe for concurrent
// use.
type Key struct {
	signer     crypto.Signer
	alg        string // "ES256" or "RS256"
	jwk        []byte // the public JWK, required members only, in lexical order
	thumbprint string
}

// minRSABits is the smallest RSA modulus accepted, for signing and for
// verifying.
const minRSABits = 2048

// GenerateKey returns a new ECDSA P-256 key, which signs ES256.
func GenerateKey() (*Key, error) {
	pk, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, fmt.Errorf("dpop: generating a key: %w", err)
	}
	return NewKey(pk)
}

// NewKey returns the Key of s, which must be an *ecdsa.PrivateKey on P-256
// (signing ES256) or an *rsa.PrivateKey of 2048 bits or more (signing
// RS256); anything else is refused.
func NewKey(s crypto.Signer) (*Key, error) {
	var (
		alg string
		jwk []byte
		err error
	)
	switch pk := s.(type) {
	case *ecdsa.PrivateKey:
		if pk == nil || pk.Curve != elliptic.P256() {
			return nil, errors.New("dpop: NewKey: an ECDSA key must be on P-256")
		}
		alg = "ES256"
		jwk, err = ecJWK(&pk.PublicKey)
	case *rsa.PrivateKey:
		if pk == nil || pk.N == nil || pk.N.BitLen() < minRSABits {
			return nil, fmt.Errorf("dpop: NewKey: an RSA key needs at least %d bits", minRSABits)
		}
		alg = "RS256"
		jwk = rsaJWK(&pk.PublicKey)
	default:
		return nil, fmt.Errorf("dpop: NewKey: %T is neither an ECDSA P-256 nor an RSA private key", s)
	}
	if err != nil {
		return nil, fmt.Errorf("dpop: NewKey: %w", err)
	}
	return &Key{signer: s, alg: alg, jwk: jwk, thumbprint: thumbprint(jwk)}, nil
}

// Thumbprint returns the RFC 7638 JWK SHA-256 thumbprint of the key's
// public part, base64url without padding: the value an access token bound
// to the key carries as cnf.jkt (RFC 9449 §6.1).
func (k *Key) Thumbprint() string { return k.thumbprint }

// b64 is base64url without padding (RFC 7515 §2).
var b64 = base64.RawURLEncoding

// ecJWK returns the public JWK of a P-256 key: crv, kty, x, y, which are
// its required members (RFC 7518 §6.2.1), in the lexical order RFC 7638
// §3.2 hashes them in.
func ecJWK(pub *ecdsa.PublicKey) ([]byte, error) {
	raw, err := pub.Bytes() // 0x04 || X || Y
	if err != nil || len(raw) != 65 {
		return nil, errors.New("invalid P-256 public key")
	}
	return fmt.Appendf(nil, `{"crv":"P-256","kty":"EC","x":"%s","y":"%s"}`, b64.EncodeToString(raw[1:33]), b64.EncodeToString(raw[33:])), nil
}

// rsaJWK returns the public JWK of an RSA key: e, kty, n (RFC 7518
// §6.3.1), in lexical order.
func rsaJWK(pub *rsa.PublicKey) []byte {
	e := big.NewInt(int64(pub.E)).Bytes()
	return fmt.Appendf(nil, `{"e":"%s","kty":"RSA","n":"%s"}`, b64.EncodeToString(e), b64.EncodeToString(pub.N.Bytes()))
}

// thumbprint hashes a JWK already in RFC 7638 §3 form.
func thumbprint(canonicalJWK []byte) string {
	sum := sha256.Sum256(canonicalJWK)
	return b64.EncodeToString(sum[:])
}
