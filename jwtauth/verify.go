package jwtauth

import (
	"context"
	"errors"
	"fmt"
	"slices"
	"strings"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/oauth"
)

// Verifier checks JWT access tokens against one issuer. It is safe for
// concurrent use; its key set is shared by all calls.
type Verifier struct {
	cfg  Config
	keys *keyCache // nil when only the SharedKey is used
}

var _ oauth.Verifier = (*Verifier)(nil)

// New returns a Verifier for cfg. It fetches nothing: the issuer's keys
// are fetched on the first Verify (or Refresh).
func New(cfg Config) (*Verifier, error) {
	cfg, err := cfg.normalize()
	if err != nil {
		return nil, err
	}
	v := &Verifier{cfg: cfg}
	if cfg.SharedKey == nil || cfg.JWKSURI != "" {
		v.keys = newKeyCache(cfg, newFetcher(cfg).keys)
	}
	return v, nil
}

// Verify checks token as the package doc describes and returns the
// principal it names. resource is the canonical URI of the protected MCP
// endpoint, the audience required when Config.Audience is empty.
//
// A refused token gives an error wrapping oauth.ErrInvalidToken and one of
// the Err sentinels of this package. An error wrapping ErrKeysUnavailable
// means the issuer's keys could not be fetched and the token could not be
// checked. No error contains the token.
func (v *Verifier) Verify(ctx context.Context, token, resource string) (*auth.Principal, error) {
	aud := v.cfg.Audience
	if aud == "" {
		aud = resource
	}
	if aud == "" {
		return nil, errors.New("jwtauth: no audience: Config.Audience and the resource are both empty")
	}
	tok, err := parse(token)
	if err != nil {
		return nil, err
	}
	if err := v.checkHeader(tok.header); err != nil {
		return nil, err
	}
	payload, err := v.verifySignature(ctx, tok)
	if err != nil {
		return nil, err
	}
	c, err := decodeClaims(payload)
	if err != nil {
		return nil, err
	}
	if err := v.checkClaims(c, aud); err != nil {
		return nil, err
	}
	return c.principal(), nil
}

// Refresh fetches the issuer's key set now (or waits for the fetch under
// way), whatever the refresh interval; a server may call it at start to
// fail early when the issuer cannot be reached. It returns nil when only a
// SharedKey is configured.
func (v *Verifier) Refresh(ctx context.Context) error {
	if v.keys == nil {
		return nil
	}
	return v.keys.refresh(ctx)
}

// checkHeader applies the algorithm and type rules to h.
func (v *Verifier) checkHeader(h header) error {
	if !slices.Contains(v.cfg.Algorithms, h.alg) {
		return fmt.Errorf("%w: %s", ErrAlgorithm, safeName(h.alg))
	}
	// A media type, compared without case and its "application/" prefix
	// (RFC 7515 section 4.1.9).
	typ := strings.TrimPrefix(strings.ToLower(h.typ), "application/")
	switch {
	case v.cfg.RequireATJWT && typ != "at+jwt":
		return fmt.Errorf(`%w: "typ" must be "at+jwt"`, ErrTokenType)
	case h.hasTyp && typ != "at+jwt" && typ != "jwt":
		return fmt.Errorf(`%w: "typ" must be "at+jwt" or "JWT"`, ErrTokenType)
	}
	return nil
}

// verifySignature finds the keys that may have signed tok and returns its
// payload when one of them verifies the signature.
func (v *Verifier) verifySignature(ctx context.Context, tok *parsed) ([]byte, error) {
	keys, err := v.candidates(ctx, tok.header)
	if err != nil {
		return nil, err
	}
	jws, err := jose.ParseSignedCompact(tok.raw, []jose.SignatureAlgorithm{jose.SignatureAlgorithm(tok.header.alg)})
	if err != nil {
		return nil, fmt.Errorf("%w: not a valid JWS", ErrMalformed)
	}
	for _, k := range keys {
		if payload, err := jws.Verify(k); err == nil {
			return payload, nil
		}
	}
	return nil, ErrSignature
}

// candidates returns the keys that may verify a token with header h.
func (v *Verifier) candidates(ctx context.Context, h header) ([]any, error) {
	if slices.Contains(hmacAlgs, h.alg) {
		return []any{v.cfg.SharedKey}, nil
	}
	if v.keys == nil {
		return nil, fmt.Errorf("%w: %s: no key set is configured", ErrAlgorithm, h.alg)
	}
	jwks, err := v.keys.lookup(ctx, h.kid, h.alg)
	if err != nil {
		return nil, err
	}
	var keys []any
	for _, k := range jwks {
		if fits(k, h.alg) {
			keys = append(keys, k.Key)
		}
	}
	if len(keys) == 0 {
		return nil, fmt.Errorf("%w: %s does not fit the key", ErrAlgorithm, h.alg)
	}
	return keys, nil
}

// safeName returns s when it is a short run of printable ASCII, as an
// algorithm name is, and a placeholder otherwise, so that an error never
// carries more than a name from the token.
func safeName(s string) string {
	if len(s) > 16 {
		return "(unrecognised)"
	}
	for _, r := range s {
		if r <= ' ' || r > '~' {
			return "(unrecognised)"
		}
	}
	return fmt.Sprintf("%q", s)
}
