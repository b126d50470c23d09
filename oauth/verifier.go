package oauth

import (
	"context"
	"errors"

	"github.com/mcpwire/mcpwire/auth"
)

// Verifier checks a bearer token presented to this resource server and
// names the caller it stands for. resource is the canonical URI of the
// protected MCP endpoint (Options.Resource): a verifier must refuse a
// token whose audience is anything else, since a token issued for another
// resource and passed through is what the MCP authorization spec forbids.
//
// A token that is malformed, expired, not yet valid, signed by an unknown
// key or meant for another audience is refused with an error wrapping
// ErrInvalidToken; other errors (the issuer's keys could not be fetched,
// say) mean the token could not be checked at all. Errors must never
// contain the token.
type Verifier interface {
	Verify(ctx context.Context, token, resource string) (*auth.Principal, error)
}

// VerifierFunc adapts a function to Verifier.
type VerifierFunc func(ctx context.Context, token, resource string) (*auth.Principal, error)

// Verify calls f.
func (f VerifierFunc) Verify(ctx context.Context, token, resource string) (*auth.Principal, error) {
	return f(ctx, token, resource)
}

// ErrInvalidToken is wrapped by every refusal of a token itself: the
// client gets 401 with error="invalid_token" and may fetch a new one.
var ErrInvalidToken = errors.New("invalid token")
