package oauth

import (
	"context"
	"crypto/sha256"
	"fmt"
	"maps"
	"slices"

	"github.com/mcpwire/mcpwire/auth"
)

// StaticTokens returns a Verifier that accepts exactly the tokens of the
// map, each standing for its principal (nil for an anonymous one), and
// refuses every other with ErrInvalidToken.
//
// It is for development and tests only, never for production: its tokens
// never expire, are bound to no audience (any resource accepts them, so a
// token leaked from one server works on every server that lists it), and
// cannot be revoked but by restarting the process. A production server
// verifies signed, expiring tokens issued for its own resource by its
// authorization server (package jwtauth).
//
// The map is copied; tokens are kept as their SHA-256 digests, so that a
// lookup takes no time that depends on how much of a guess was right.
// Every Verify returns a copy of the principal, which the caller may keep.
func StaticTokens(tokens map[string]*auth.Principal) Verifier {
	m := make(map[[sha256.Size]byte]*auth.Principal, len(tokens))
	for tok, p := range tokens {
		m[sha256.Sum256([]byte(tok))] = p
	}
	return VerifierFunc(func(_ context.Context, token, _ string) (*auth.Principal, error) {
		p, ok := m[sha256.Sum256([]byte(token))]
		if !ok {
			return nil, fmt.Errorf("%w: not a token this server knows", ErrInvalidToken)
		}
		if p == nil {
			return &auth.Principal{}, nil
		}
		return &auth.Principal{Subject: p.Subject, Scopes: slices.Clone(p.Scopes), Claims: maps.Clone(p.Claims)}, nil
	})
}
