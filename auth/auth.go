// Package auth names the caller of a request: the principal a server
// checks before it shows a client something only some callers may see
// (completion values, resource URIs in a tool's result). On stdio the
// caller is the identity the server was started with (mcp.Options.Caller);
// over HTTP it comes from the request's authentication.
package auth

import "slices"

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
