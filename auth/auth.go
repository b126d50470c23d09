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

// HasScopes reports whether p holds every one of scopes; any principal,
// even nil, holds all of none.
func (p *Principal) HasScopes(scopes ...string) bool {
	for _, s := range scopes {
		if !p.HasScope(s) {
			return false
		}
	}
	return true
}

// ValidScope reports whether s is a scope token as OAuth 2.0 defines it
// (RFC 6749 §3.3): one or more printable ASCII characters other than
// space, '"' and '\', so that it can stand in a space-separated scope list
// and inside a quoted WWW-Authenticate parameter.
func ValidScope(s string) bool {
	if s == "" {
		return false
	}
	for i := 0; i < len(s); i++ {
		if c := s[i]; c < 0x21 || c > 0x7e || c == '"' || c == '\\' {
			return false
		}
	}
	return true
}

// challengeKey is the context key of WithScopeChallenge.
type challengeKey struct{}

// WithScopeChallenge returns a copy of ctx that carries challenge, for a
// transport that can ask the client to get a token with more scopes (HTTP
// 403 with error="insufficient_scope": package oauth installs one). A
// server calls it, through ChallengeScopes, when it refuses a request
// because the caller lacks scopes an item needs; the transport then
// answers the request with its challenge.
//
// challenge may be called from any goroutine, more than once for one
// request (a batch); it must not block, and must not keep or modify the
// slice it is given.
func WithScopeChallenge(ctx context.Context, challenge func(scopes []string)) context.Context {
	return context.WithValue(ctx, challengeKey{}, challenge)
}

// ChallengeScopes tells the transport of ctx's request that the request
// needs scopes (all of them, not only those the caller lacks) and reports
// whether one was listening (see WithScopeChallenge). Without one (stdio,
// or HTTP authenticated some other way) it reports false, and the server
// refuses as it would for an item that does not exist.
func ChallengeScopes(ctx context.Context, scopes []string) bool {
	f, _ := ctx.Value(challengeKey{}).(func([]string))
	if f == nil {
		return false
	}
	f(scopes)
	return true
}

// remoteAddrKey is the context key of WithRemoteAddr.
type remoteAddrKey struct{}

// WithRemoteAddr returns a copy of ctx that names the network address the
// request came from: the client's IP address, without a port. An HTTP
// transport sets it for every request (behind trusted proxies, the
// address they forwarded); a server counts the requests of a caller
// without a principal against that address for its per-caller limits,
// and handlers may read it (RemoteAddrFrom) to log who called.
func WithRemoteAddr(ctx context.Context, addr string) context.Context {
	return context.WithValue(ctx, remoteAddrKey{}, addr)
}

// RemoteAddrFrom returns the address WithRemoteAddr put in ctx, or "" (on
// stdio, say).
func RemoteAddrFrom(ctx context.Context) string {
	a, _ := ctx.Value(remoteAddrKey{}).(string)
	return a
}
