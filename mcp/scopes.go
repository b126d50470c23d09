package mcp

import (
	"context"
	"fmt"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Per-item scopes (tool.Tool.Scopes, Prompt.Scopes,
// Resource.Scopes, ResourceTemplate.Scopes) gate what a caller
// sees and uses: an item whose scopes the caller does not all hold is
// left out of its list, and using it is refused. The lists are computed
// for the caller first, then paged, so a page counts only what the caller
// sees; a list some item is gated in varies by caller, and its 2026-07-28
// cacheScope is "private" whatever Options.CacheHints says.
//
// How a use is refused depends on the transport, never on the era: where
// the request's context carries a scope challenge (auth.WithScopeChallenge:
// HTTP behind package oauth), the transport is told which scopes the
// operation needs and the request is answered with an error naming them,
// which the transport sends as 403 insufficient_scope; elsewhere (stdio)
// the item does not exist, and the error is the one an absent item gets.
// Package mcp knows nothing of HTTP: the challenge is the whole seam.

// checkScopes refuses a scope that is not an OAuth scope token (it could
// not be put in a WWW-Authenticate challenge) and returns the scopes
// without duplicates, in a copy of their own.
func checkScopes(what string, scopes []string) ([]string, error) {
	var out []string
	for _, s := range scopes {
		if !auth.ValidScope(s) {
			return nil, fmt.Errorf("%s: scope %q is not an OAuth scope token (printable ASCII, no space, '\"' or '\\')", what, s)
		}
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return out, nil
}

// visibleList returns the entries of list that sees admits (list itself
// when it admits all, else a filtered copy, so that pages are counted in
// what the caller sees), and whether any entry is gated at all, which
// makes the list's cache scope private.
func visibleList[E any](list []E, gated, sees func(E) bool) (out []E, varies bool) {
	out = list
	filtered := false
	for i, e := range list {
		hidden := false
		if gated(e) {
			varies = true
			hidden = !sees(e)
		}
		switch {
		case hidden && !filtered:
			out, filtered = append(make([]E, 0, len(list)-1), list[:i]...), true
		case !hidden && filtered:
			out = append(out, e)
		}
	}
	return out, varies
}

// privateCache gives a modern result the method's cache hint with the
// scope forced to "private", for a result that depends on who asks.
func (s *Server) privateCache(res interface {
	ResultCacheHints() *protocol.CacheHints
}, r *request) {
	if !r.modern() {
		return
	}
	h := res.ResultCacheHints()
	if h.TTLMs == nil {
		*h = s.cacheHints(r.method)
	}
	h.CacheScope = protocol.CacheScopePrivate
}

// scopeRefusal answers a request for an item (what names it) whose scopes
// the caller lacks. Where the request's transport can challenge (see
// auth.ChallengeScopes) it is told that the operation needs scopes, and
// the answer says so, with data.reason "insufficient_scope" and
// data.scopes; elsewhere the answer is unknown, the error the item's
// absence gets, so that a caller cannot tell a hidden item from none.
func scopeRefusal(ctx context.Context, what string, scopes []string, unknown *jsonrpc.Error) *jsonrpc.Error {
	if !auth.ChallengeScopes(ctx, scopes) {
		return unknown
	}
	return jsonrpc.NewError(jsonrpc.CodeInternalError, "insufficient scope: %s needs the scopes %q, which the caller's token does not all grant",
		what, strings.Join(scopes, " ")).
		WithData(map[string]any{"reason": "insufficient_scope", "scopes": scopes})
}
