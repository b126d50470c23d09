package jwtauth

import (
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"fmt"
	"strings"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// DevToken describes a token for DevIssuer.Mint (for development and
// tests only).
type DevToken struct {
	// Subject is "sub".
	Subject string
	// Scopes become "scope", joined by spaces; none omits it.
	Scopes []string
	// Audience is "aud", the resource the token is for: the canonical URI
	// of the MCP endpoint.
	Audience string
	// IssuedAt is "iat"; zero means now.
	IssuedAt time.Time
	// Expiry is "exp"; zero means an hour after IssuedAt.
	Expiry time.Time
	// NotBefore is "nbf"; zero omits it.
	NotBefore time.Time
	// Claims are added last and may replace any of the above (or "iss",
	// "jti", "client_id"); a nil value removes the claim.
	Claims map[string]any
}

// Mint returns a token signed by the current signing key, with "typ"
// at+jwt, "iss" the issuer, "client_id" "mcpwire-dev", a random "jti" and
// the claims t describes.
func (d *DevIssuer) Mint(t DevToken) (string, error) {
	iat := t.IssuedAt
	if iat.IsZero() {
		iat = time.Now()
	}
	exp := t.Expiry
	if exp.IsZero() {
		exp = iat.Add(time.Hour)
	}
	jti := make([]byte, 16)
	rand.Read(jti)
	c := map[string]any{
		"iss": d.issuer, "sub": t.Subject, "aud": t.Audience,
		"iat": iat.Unix(), "exp": exp.Unix(),
		"jti": hex.EncodeToString(jti), "client_id": "mcpwire-dev",
	}
	if len(t.Scopes) > 0 {
		c["scope"] = strings.Join(t.Scopes, " ")
	}
	if !t.NotBefore.IsZero() {
		c["nbf"] = t.NotBefore.Unix()
	}
	for k, v := range t.Claims {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return d.Sign(c)
}

// Sign returns a token with exactly claims, signed by the current signing
// key with "typ" at+jwt: for tests that need a token Mint would not make.
func (d *DevIssuer) Sign(claims map[string]any) (string, error) {
	d.mu.Lock()
	k := d.keys[len(d.keys)-1]
	d.mu.Unlock()
	return sign(k, claims, map[jose.HeaderKey]any{"typ": "at+jwt"})
}

// sign signs claims with k, putting its key id and extra in the header; a
// nil value in extra removes that header.
func sign(k jose.JSONWebKey, claims map[string]any, extra map[jose.HeaderKey]any) (string, error) {
	opts := &jose.SignerOptions{ExtraHeaders: map[jose.HeaderKey]any{"kid": k.KeyID}}
	for name, v := range extra {
		if v == nil {
			delete(opts.ExtraHeaders, name)
		} else {
			opts.ExtraHeaders[name] = v
		}
	}
	s, err := jose.NewSigner(jose.SigningKey{Algorithm: jose.SignatureAlgorithm(k.Algorithm), Key: k.Key}, opts)
	if err != nil {
		return "", fmt.Errorf("jwtauth: %w", err)
	}
	payload, err := json.Marshal(claims)
	if err != nil {
		return "", fmt.Errorf("jwtauth: %w", err)
	}
	jws, err := s.Sign(payload)
	if err != nil {
		return "", fmt.Errorf("jwtauth: %w", err)
	}
	return jws.CompactSerialize()
}
