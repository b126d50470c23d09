// Package dpop is a temporary stand-in (replaced by the real package).
package dpop

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"net/url"
	"time"

	"github.com/mcpwire/mcpwire/internal/jws"
)

// Key is a client's DPoP key pair.
type Key struct {
	s   crypto.Signer
	jwk map[string]string
}

// GenerateKey makes a P-256 key.
func GenerateKey() (*Key, error) {
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		return nil, err
	}
	return NewKey(k)
}

// NewKey wraps s.
func NewKey(s crypto.Signer) (*Key, error) {
	jwk, err := jws.PublicJWK(s)
	if err != nil {
		return nil, err
	}
	return &Key{s: s, jwk: jwk}, nil
}

// Thumbprint is the key's thumbprint.
func (k *Key) Thumbprint() string { return jws.Thumbprint(k.jwk) }

// Proof signs a proof.
func (k *Key) Proof(method, target, accessToken, nonce string) (string, error) {
	u, err := url.Parse(target)
	if err != nil {
		return "", err
	}
	u.RawQuery, u.Fragment, u.RawFragment = "", "", ""
	jti := make([]byte, 16)
	rand.Read(jti)
	claims := map[string]any{"jti": base64.RawURLEncoding.EncodeToString(jti), "htm": method, "htu": u.String(), "iat": time.Now().Unix()}
	if accessToken != "" {
		sum := sha256.Sum256([]byte(accessToken))
		claims["ath"] = base64.RawURLEncoding.EncodeToString(sum[:])
	}
	if nonce != "" {
		claims["nonce"] = nonce
	}
	return jws.Sign(k.s, map[string]any{"typ": "dpop+jwt", "jwk": k.jwk}, claims)
}
