// Package oauth makes an MCP HTTP endpoint an OAuth 2.1 resource server,
// as the MCP authorization specification (2025-06-18 onward) asks: every
// request carries a bearer token, a Verifier checks it and names the
// caller (an auth.Principal, which reaches every handler), and a client
// without a usable token is told where to get one through the Protected
// Resource Metadata document (RFC 9728).
//
//	rs, err := oauth.NewResourceServer(verifier, oauth.Options{
//		Resource:             "https://mcp.example.com/mcp",
//		AuthorizationServers: []string{"https://auth.example.com"},
//		ScopesSupported:      []string{"files:read", "files:write"},
//		RequiredScopes:       []string{"files:read"},
//	})
//	mux := http.NewServeMux()
//	rs.Mount(mux, mcphttp.NewHandler(srv, nil))
//
// # Tokens and refusals
//
// A token is read from the Authorization header alone (RFC 6750 §2.1; the
// scheme "Bearer" in any case), never from the URL query or the body.
// ResourceServer.Protect documents each refusal: 401 without a token or
// with one the Verifier refuses (ErrInvalidToken), 400 for a malformed
// request, 403 for a token lacking Options.RequiredScopes, 503 when the
// Verifier cannot check the token at all. Every challenge names the
// metadata document as resource_metadata and, as the spec says servers
// SHOULD, the scope to ask for. 503 and not 500 for a verifier failure: it
// is transient (an issuer's key set that could not be fetched), the
// token may be good, and a client told 401 would throw its token away
// and send its user through authorization again; the failure is logged
// and the client gets only "try again later".
//
// The Verifier owns what a token means: its audience (it must refuse a
// token issued for another resource), its lifetime, and scope hierarchies
// (a verifier whose authorization server lets "files" imply "files:read"
// puts both in Principal.Scopes; every check here and in package mcp is a
// plain membership test). StaticTokens is a Verifier for development and
// tests only; package jwtauth, a module of its own, verifies JWTs.
//
// # The metadata document
//
// MetadataHandler serves it; Mount puts it at the well-known URI built
// from the resource's path (/.well-known/oauth-protected-resource/mcp for
// https://mcp.example.com/mcp, RFC 9728 §3.1), the URL every challenge
// names and the one clients try first, and at the bare well-known path,
// which clients try next. It is public, cacheable and readable from any
// origin.
//
// # DPoP-bound tokens
//
// With Options.DPoP, a dpop.Checker, the resource also accepts access
// tokens bound to a client's key (RFC 9449): Authorization: DPoP with the
// token, and a DPoP header holding a proof signed by that key for this
// very request. The Verifier names the key: the principal of a bound
// token carries its confirmation claim as Principal.Claims["cnf"], a map
// holding "jkt", the key's JWK thumbprint (RFC 9449 §6.1), which is where
// package jwtauth leaves a JWT's "cnf" claim. A bound token sent as a
// Bearer one is refused (RFC 9449 §7.2); Options.DPoPRequired refuses
// Bearer tokens altogether. Challenges add a DPoP one, and the metadata
// document lists dpop_signing_alg_values_supported (and
// dpop_bound_access_tokens_required when DPoP is required). Nonces and
// the replay cache are the checker's (dpop.Options): instances behind a
// load balancer share a ReplayCache and a NonceKey.
//
// # Step-up: per-item scopes
//
// Tools, prompts, resources and templates may need scopes of their own
// (tool.WithScopes, and the Scopes fields of mcp.Prompt, mcp.Resource and
// mcp.ResourceTemplate).
// Package mcp leaves an item out of the lists of a caller without its
// scopes and refuses its use; it knows nothing of HTTP. The seam is
// auth.WithScopeChallenge: Protect puts a challenge in every request's
// context, and the server calls it (auth.ChallengeScopes) with the scopes
// of the item it refused before it answers, its answer then saying so
// (-32603, data.reason "insufficient_scope"). Protect's ResponseWriter
// turns the response into 403 with WWW-Authenticate: Bearer
// error="insufficient_scope", scope="…", resource_metadata="…" at the
// moment its status is written, the body, the server's one JSON-RPC
// answer, going out unchanged. The scope lists what the operation needs:
// Options.RequiredScopes and the item's own, not the scopes the client
// already holds (the 2026 draft leaves accumulating them to the client).
// Without such a challenge (stdio, or HTTP authenticated some other way)
// the server answers as for an item that does not exist.
//
// The writer keeps http.Flusher and http.ResponseController working
// (Flush, Unwrap). A refusal is decided before anything of its item runs,
// so its response is never under way when the challenge comes; a
// response that is (a legacy 2025-03-26 batch whose other calls streamed
// first) keeps its status, and its JSON-RPC error says the same. A batch
// with a refused call is 403 as a whole, its body holding every answer.
//
// Every request, legacy session requests included, is authenticated on
// its own and acts for its own token's principal: a client that stepped
// up goes on in its session with the new token.
package oauth
