package jwtauth

import (
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/mcpwire/mcpwire/oauth"
)

// claimCases change the claims or header of a valid token; want is nil
// for a token that must verify.
var claimCases = []struct {
	name string
	mod  map[string]any
	hdr  map[jose.HeaderKey]any
	want error
}{
	{name: "valid"},
	{name: "audience array", mod: map[string]any{"aud": []string{"https://other.example", testResource}}},
	{name: "audience array without us", mod: map[string]any{"aud": []string{"https://other.example", testResource + "/"}}, want: ErrWrongAudience},
	{name: "other audience", mod: map[string]any{"aud": "https://other.example/mcp"}, want: ErrWrongAudience},
	{name: "empty audience array", mod: map[string]any{"aud": []string{}}, want: ErrWrongAudience},
	{name: "no audience", mod: map[string]any{"aud": nil}, want: ErrWrongAudience},
	{name: "audience number", mod: map[string]any{"aud": 7}, want: ErrMalformed},
	{name: "expired", mod: map[string]any{"exp": t0.Add(-time.Hour).Unix()}, want: ErrExpired},
	{name: "no exp", mod: map[string]any{"exp": nil}, want: ErrExpired},
	{name: "exp a string", mod: map[string]any{"exp": "tomorrow"}, want: ErrMalformed},
	{name: "exp huge", mod: map[string]any{"exp": 1e300}},
	{name: "exp within leeway", mod: map[string]any{"exp": t0.Add(-DefaultLeeway + time.Second).Unix()}},
	{name: "exp at leeway", mod: map[string]any{"exp": t0.Add(-DefaultLeeway).Unix()}, want: ErrExpired},
	{name: "exp fractional within leeway", mod: map[string]any{"exp": float64(t0.Unix()) - DefaultLeeway.Seconds() + 0.5}},
	{name: "nbf past", mod: map[string]any{"nbf": t0.Add(-time.Minute).Unix()}},
	{name: "nbf future", mod: map[string]any{"nbf": t0.Add(10 * time.Minute).Unix()}, want: ErrNotYetValid},
	{name: "nbf at leeway", mod: map[string]any{"nbf": t0.Add(DefaultLeeway).Unix()}},
	{name: "nbf past leeway", mod: map[string]any{"nbf": t0.Add(DefaultLeeway + time.Second).Unix()}, want: ErrNotYetValid},
	{name: "iat future", mod: map[string]any{"iat": t0.Add(10 * time.Minute).Unix()}, want: ErrNotYetValid},
	{name: "iat at leeway", mod: map[string]any{"iat": t0.Add(DefaultLeeway).Unix()}},
	{name: "no iat", mod: map[string]any{"iat": nil}},
	{name: "wrong issuer", mod: map[string]any{"iss": "https://evil.example"}, want: ErrWrongIssuer},
	{name: "issuer with slash", mod: map[string]any{"iss": "ISSUER/"}, want: ErrWrongIssuer},
	{name: "no issuer", mod: map[string]any{"iss": nil}, want: ErrWrongIssuer},
	{name: "no sub", mod: map[string]any{"sub": nil}, want: ErrMissingSubject},
	{name: "empty sub", mod: map[string]any{"sub": ""}, want: ErrMissingSubject},
	{name: "sub a number", mod: map[string]any{"sub": 42}, want: ErrMissingSubject},
	{name: "scope a number", mod: map[string]any{"scope": 1}, want: ErrMalformed},
	{name: "scp array", mod: map[string]any{"scope": nil, "scp": []string{"a", "b"}}},
	{name: "scp bad", mod: map[string]any{"scope": nil, "scp": []any{"a", 2}}, want: ErrMalformed},
	{name: "typ JWT", hdr: map[jose.HeaderKey]any{"typ": "JWT"}},
	{name: "typ media type", hdr: map[jose.HeaderKey]any{"typ": "application/at+JWT"}},
	{name: "no typ", hdr: map[jose.HeaderKey]any{"typ": nil}},
	{name: "typ dpop", hdr: map[jose.HeaderKey]any{"typ": "dpop+jwt"}, want: ErrTokenType},
	{name: "typ number", hdr: map[jose.HeaderKey]any{"typ": 1}, want: ErrMalformed},
	{name: "crit header", hdr: map[jose.HeaderKey]any{"crit": []string{"exp"}, "exp": 1}, want: ErrMalformed},
	{name: "cty header", hdr: map[jose.HeaderKey]any{"cty": "JWT"}, want: ErrMalformed},
	{name: "embedded jwk ignored", hdr: map[jose.HeaderKey]any{"jku": "https://evil.example/jwks"}},
}

// TestVerifyClaims runs claimCases with keys of every kind the issuer
// can make.
func TestVerifyClaims(t *testing.T) {
	for _, alg := range []string{"RS256", "PS256", "ES256", "ES384", "ES512", "EdDSA"} {
		t.Run(alg, func(t *testing.T) {
			e := newEnv(t, alg, Config{Algorithms: []string{alg}})
			for _, tc := range claimCases {
				t.Run(tc.name, func(t *testing.T) {
					mod := tc.mod
					if iss, ok := mod["iss"].(string); ok && strings.HasPrefix(iss, "ISSUER") {
						mod = map[string]any{"iss": e.dev.Issuer() + strings.TrimPrefix(iss, "ISSUER")}
					}
					tok := e.tokenWith(e.signingKey(), mod, tc.hdr)
					p, err := e.verify(tok)
					if tc.want == nil {
						if err != nil {
							t.Fatalf("Verify: %v", err)
						}
						if p.Subject != "alice" || len(p.Scopes) != 2 {
							t.Errorf("principal %+v", p)
						}
						return
					}
					if !errors.Is(err, tc.want) || !errors.Is(err, oauth.ErrInvalidToken) {
						t.Fatalf("Verify: got %v, want %v wrapping oauth.ErrInvalidToken", err, tc.want)
					}
					checkNoToken(t, err, tok)
				})
			}
		})
	}
	if n := len(claimCases); n < 30 {
		t.Fatalf("only %d cases", n)
	}
}

// checkNoToken fails the test when err shows any part of tok.
func checkNoToken(t *testing.T, err error, tok string) {
	t.Helper()
	for _, part := range strings.Split(tok, ".") {
		if len(part) >= 8 && strings.Contains(err.Error(), part[:8]) {
			t.Fatalf("error %q contains part of the token", err)
		}
	}
}

// TestPrincipal checks what the principal holds.
func TestPrincipal(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	p := e.mustVerify(e.token(map[string]any{"roles": []string{"admin"}}))
	if p.Subject != "alice" || !slices.Equal(p.Scopes, []string{"tools:call", "resources:read"}) {
		t.Errorf("principal %+v", p)
	}
	for _, k := range []string{"iss", "aud", "exp", "iat", "client_id", "roles"} {
		if _, ok := p.Claims[k]; !ok {
			t.Errorf("claim %q missing from %v", k, p.Claims)
		}
	}
	for _, k := range []string{"sub", "scope", "scp"} {
		if _, ok := p.Claims[k]; ok {
			t.Errorf("claim %q in Claims", k)
		}
	}
	p = e.mustVerify(e.token(map[string]any{"scope": nil, "scp": "x y"}))
	if !slices.Equal(p.Scopes, []string{"x", "y"}) {
		t.Errorf("scp string: scopes %v", p.Scopes)
	}
	p = e.mustVerify(e.token(map[string]any{"scope": nil}))
	if len(p.Scopes) != 0 {
		t.Errorf("no scope: scopes %v", p.Scopes)
	}
}

// TestAudience checks Config.Audience and an empty resource.
func TestAudience(t *testing.T) {
	e := newEnv(t, "ES256", Config{Audience: "https://api.example"})
	tok := e.token(map[string]any{"aud": "https://api.example"})
	if _, err := e.v.Verify(t.Context(), tok, testResource); err != nil {
		t.Errorf("Config.Audience: %v", err)
	}
	e.mustRefuse(e.token(nil), ErrWrongAudience)

	e = newEnv(t, "ES256", Config{})
	_, err := e.v.Verify(t.Context(), e.token(nil), "")
	if err == nil || errors.Is(err, oauth.ErrInvalidToken) {
		t.Errorf("no audience at all: got %v, want a configuration error", err)
	}
}

// TestLeeway checks a configured leeway and none.
func TestLeeway(t *testing.T) {
	e := newEnv(t, "ES256", Config{Leeway: 2 * time.Minute})
	e.mustVerify(e.token(map[string]any{"exp": t0.Add(-time.Minute).Unix()}))
	e.mustRefuse(e.token(map[string]any{"exp": t0.Add(-2 * time.Minute).Unix()}), ErrExpired)

	e = newEnv(t, "ES256", Config{Leeway: -1})
	e.mustRefuse(e.token(map[string]any{"exp": t0.Unix()}), ErrExpired)
	e.mustVerify(e.token(map[string]any{"exp": t0.Unix() + 1}))
	e.mustRefuse(e.token(map[string]any{"nbf": t0.Unix() + 1}), ErrNotYetValid)
}

// TestRequireATJWT checks the strict token type.
func TestRequireATJWT(t *testing.T) {
	e := newEnv(t, "ES256", Config{RequireATJWT: true})
	e.mustVerify(e.token(nil))
	e.mustRefuse(e.tokenWith(e.signingKey(), nil, map[jose.HeaderKey]any{"typ": "JWT"}), ErrTokenType)
	e.mustRefuse(e.tokenWith(e.signingKey(), nil, map[jose.HeaderKey]any{"typ": nil}), ErrTokenType)
}
