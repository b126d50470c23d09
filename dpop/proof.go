package dpop

import (
	"crypto"
	"crypto/rand"
	"crypto/sha256"
	"encoding/asn1"
	"encoding/json"
	"errors"
	"fmt"
	"math/big"
	"strings"
	"time"
)

// proofType is the "typ" of every DPoP proof (RFC 9449 §4.2).
const proofType = "dpop+jwt"

// Proof returns a DPoP proof (RFC 9449 §4.2) for one request: a compact
// JWS whose header holds typ "dpop+jwt", the key's alg and its public JWK,
// and whose claims are a fresh random jti (128 bits), htm (method), htu
// (target without its query and fragment), iat (now), ath (the base64url
// SHA-256 of accessToken, when there is one, RFC 9449 §4.1) and nonce
// (when the server gave one, RFC 9449 §8 and §9). Every request needs a
// proof of its own.
func (k *Key) Proof(method, target, accessToken, nonce string) (string, error) {
	jti := make([]byte, 16)
	if _, err := rand.Read(jti); err != nil {
		return "", fmt.Errorf("dpop: Proof: %w", err)
	}
	header, err := json.Marshal(struct {
		Typ string          `json:"typ"`
		Alg string          `json:"alg"`
		JWK json.RawMessage `json:"jwk"`
	}{proofType, k.alg, k.jwk})
	if err != nil {
		return "", fmt.Errorf("dpop: Proof: %w", err)
	}
	claims, err := json.Marshal(struct {
		JTI   string `json:"jti"`
		HTM   string `json:"htm"`
		HTU   string `json:"htu"`
		IAT   int64  `json:"iat"`
		ATH   string `json:"ath,omitempty"`
		Nonce string `json:"nonce,omitempty"`
	}{b64.EncodeToString(jti), method, stripURL(target), time.Now().Unix(), tokenHash(accessToken), nonce})
	if err != nil {
		return "", fmt.Errorf("dpop: Proof: %w", err)
	}
	input := b64.EncodeToString(header) + "." + b64.EncodeToString(claims)
	sig, err := k.sign([]byte(input))
	if err != nil {
		return "", fmt.Errorf("dpop: Proof: signing: %w", err)
	}
	return input + "." + b64.EncodeToString(sig), nil
}

// sign signs the JWS signing input with SHA-256: PKCS #1 v1.5 for RS256,
// R||S of 32 bytes each for ES256 (RFC 7518 §3.4).
func (k *Key) sign(input []byte) ([]byte, error) {
	digest := sha256.Sum256(input)
	der, err := k.signer.Sign(rand.Reader, digest[:], crypto.SHA256)
	if err != nil || k.alg == "RS256" {
		return der, err
	}
	var rs struct{ R, S *big.Int }
	if rest, err := asn1.Unmarshal(der, &rs); err != nil || len(rest) > 0 {
		return nil, errors.New("malformed ECDSA signature")
	}
	if rs.R.Sign() <= 0 || rs.S.Sign() <= 0 || rs.R.BitLen() > 256 || rs.S.BitLen() > 256 {
		return nil, errors.New("malformed ECDSA signature")
	}
	sig := make([]byte, 64)
	rs.R.FillBytes(sig[:32])
	rs.S.FillBytes(sig[32:])
	return sig, nil
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
