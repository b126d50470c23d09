package dpop

import (
	"crypto/rand"
	"crypto/sha256"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/jws"
)

// proofType is the "typ" of every DPoP proof (RFC 9449 §4.2).
const proofType = "dpop+jwt"

// Proof returns a DPoP proof (RFC 9449 §4.2) for one request: a compact
// JWS whose header holds typ "dpop+jwt", the key's alg and its public JWK,
// and whose claims are a fresh random jti (128 bits), htm (method), htu
// (target without its query and fragment), iat (now), ath (the base64url
// SHA-256 of accessToken, when there is one) and nonce
// (when the server gave one, RFC 9449 §8 and §9). Every request needs a
// proof of its own.
func (k *Key) Proof(method, target, accessToken, nonce string) (string, error) {
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", fmt.Errorf("dpop: Proof: %w", err)
	}
	header := map[string]any{"typ": proofType, "jwk": json.RawMessage(k.jwk)}
	claims := struct {
		JTI   string `json:"jti"`
		HTM   string `json:"htm"`
		HTU   string `json:"htu"`
		IAT   int64  `json:"iat"`
		ATH   string `json:"ath,omitempty"`
		Nonce string `json:"nonce,omitempty"`
	}{b64.EncodeToString(jti), method, stripURL(target), time.Now().Unix(), tokenHash(accessToken), nonce}
	proof, err := jws.Sign(k.signer, header, claims) // adds "alg", k.alg
	if err != nil {
		return "", fmt.Errorf("dpop: Proof: %w", err)
	}
	return proof, nil
}

// tokenHash returns ath for accessToken, "" for none (RFC 9449 §4.2).
func tokenHash(accessToken string) string {
	if accessToken == "" {
		return ""
	}
	sum := sha256.Sum256([]byte(accessToken))
	return b64.EncodeToString(sum[:])
}

// stripURL returns u without its fragment and query (RFC 9449 §4.2, htu).
func stripURL(u string) string {
	u, _, _ = strings.Cut(u, "#")
	u, _, _ = strings.Cut(u, "?")
	return u
}
