package jwtauth

import (
	"context"
	"errors"
	"slices"
	"strings"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/mcpwire/mcpwire/oauth"
)

// fuzzVerifier returns a verifier whose key set is fixed (no HTTP) and
// two tokens it accepts, signed with Ed25519 and RSA: signature schemes
// that Go verifies without malleability, so that no other spelling of
// either token may verify. (ECDSA signatures are malleable: (r, n-s)
// verifies too. That is a property of ECDSA, not a mutation this package
// could detect, so ES256 is left out here.)
func fuzzVerifier(f *testing.F) (*Verifier, []string) {
	f.Helper()
	dev, err := NewDevIssuer("https://issuer.example")
	if err != nil {
		f.Fatal(err)
	}
	var toks []string
	for _, alg := range []string{"EdDSA", "RS256"} {
		if _, err := dev.Rotate(alg); err != nil {
			f.Fatal(err)
		}
		tok, err := dev.Mint(DevToken{
			Subject: "alice", Scopes: []string{"a", "b"}, Audience: testResource,
			IssuedAt: t0, Claims: map[string]any{"aud": []string{"x", testResource}},
		})
		if err != nil {
			f.Fatal(err)
		}
		toks = append(toks, tok)
	}
	keys := usable(dev.publicKeys().Keys)
	cfg := Config{Issuer: dev.Issuer(), Now: func() time.Time { return t0 }}
	v, err := New(cfg)
	if err != nil {
		f.Fatal(err)
	}
	v.keys = newKeyCache(v.cfg, func(context.Context) ([]jose.JSONWebKey, time.Duration, error) {
		return keys, -1, nil
	})
	for _, tok := range toks {
		if _, err := v.Verify(f.Context(), tok, testResource); err != nil {
			f.Fatalf("seed token refused: %v", err)
		}
	}
	return v, toks
}

// FuzzVerify feeds the verifier arbitrary strings and single-byte
// mutations of valid tokens: it must never panic, must accept only the
// original tokens, and must refuse everything else with an error wrapping
// oauth.ErrInvalidToken that shows no part of a mutated token.
func FuzzVerify(f *testing.F) {
	v, valid := fuzzVerifier(f)
	for i, tok := range valid {
		parts := strings.Split(tok, ".")
		f.Add(tok, uint16(i), byte('A'))
		f.Add(parts[0]+"."+parts[1]+".", uint16(len(parts[0])), byte('.'))
		f.Add(parts[0]+"."+parts[1], uint16(len(tok)-1), byte('_'))
		f.Add(tok+"=", uint16(len(tok)-2), byte('x'))
		f.Add("\n"+tok, uint16(len(parts[0])+3), byte('\r'))
	}
	for _, s := range []string{"", ".", "..", "e30.e30.", "eyJhbGciOiJub25lIn0.e30.", "a.b.c.d.e", "\x00\xff"} {
		f.Add(s, uint16(0), byte(0))
	}
	f.Fuzz(func(t *testing.T, tok string, pos uint16, b byte) {
		check := func(tok string, mutated bool) {
			p, err := v.Verify(context.Background(), tok, testResource)
			if err == nil {
				if !slices.Contains(valid, tok) {
					t.Fatalf("accepted a token that was never issued: %q", tok)
				}
				if p.Subject != "alice" {
					t.Fatalf("principal %+v", p)
				}
				return
			}
			if !errors.Is(err, oauth.ErrInvalidToken) {
				t.Fatalf("error %v does not wrap oauth.ErrInvalidToken", err)
			}
			if mutated {
				checkNoToken(t, err, tok)
			}
		}
		check(tok, false)
		orig := []byte(valid[int(pos)%len(valid)])
		i := int(pos) % len(orig)
		if orig[i] == b {
			return
		}
		mutated := slices.Clone(orig)
		mutated[i] = b
		check(string(mutated), true)
		check(string(slices.Delete(slices.Clone(orig), i, i+1)), true)
		check(string(slices.Insert(slices.Clone(orig), i, b)), true)
	})
}
