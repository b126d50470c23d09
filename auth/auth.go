// Package auth names the caller of a request: the principal a server
// checks before it shows a client something only some callers may see
// (completion values, resource URIs in a tool's result). On stdio the
// caller is the identity the server was started with (mcp.Options.Caller);
// over HTTP it comes from the request's authentication.
package auth

import (
	"context"
	"slices"
)

// Principal is who a request acts for.
type Principal struct {
	// Subject identifies the caller, such as a user name or an OAuth
	// "sub"; empty for an anonymous caller.
	Subject string
	// Scopes are the permissions the caller holds.
	Scopes []string
	// Claims are any other facts about the caller the application needs.
	Claims map[string]any
}

// HasScope reports whether p holds scope; a nil principal holds none.
func (p *Principal) HasScope(scope string) bool {
	return p != nil && slices.Contains(p.Scopes, scope)
}

// principalKey is the context key of WithPrincipal.
type principalKey struct{}

// WithPrincipal returns a copy of ctx that carries p as the caller of the
// requests served with it. HTTP authentication middleware calls it with
// the principal a verified token names; the server then gives p to every
// handler, completion provider and visibility check of the request, in
// place of mcp.Options.Caller.
func WithPrincipal(ctx context.Context, p *Principal) context.Context {
	return context.WithValue(ctx, principalKey{}, p)
}

// PrincipalFrom returns the principal WithPrincipal put in ctx, or nil.
func PrincipalFrom(ctx context.Context) *Principal {
	p, _ := ctx.Value(principalKey{}).(*Principal)
	return p
}
