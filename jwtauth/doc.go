// Package jwtauth verifies JWT access tokens for an MCP server acting as
// an OAuth 2.1 resource server. Its Verifier implements oauth.Verifier. It
// lives in a module of its own so that servers that do not take JWTs do not
// link a JOSE library (it uses github.com/go-jose/go-jose/v4).
//
// # What is checked, and why
//
// A token is accepted only when every one of these holds, checked in this
// order. Each refusal wraps oauth.ErrInvalidToken and one of the Err
// sentinels below, and no error ever contains the token.
//
//   - Form: a JWS in compact serialization (three base64url parts, strictly
//     encoded and with no other character, not even a newline, so that no
//     two spellings of one token exist), at most MaxTokenBytes long, with no
//     "crit", "cty", "b64", "zip" or "enc" header: nested, encrypted and
//     extended tokens are not access tokens this package understands
//     (ErrMalformed).
//   - "alg" is one of Config.Algorithms. "none" can never be listed, and
//     the HMAC algorithms only with a Config.SharedKey, so that a public key
//     can never be used as an HMAC secret (ErrAlgorithm).
//   - "typ", when present, is "at+jwt" (RFC 9068) or "JWT"; many issuers
//     still send "JWT", while other kinds of JWT ("dpop+jwt", "logout+jwt",
//     ...) must not pass for access tokens. Config.RequireATJWT demands
//     "at+jwt" (ErrTokenType).
//   - The key: the JWK of the token's "kid" in the issuer's key set (or,
//     without a "kid", any key fitting "alg"), whose kty, curve and own
//     "alg" fit the token's "alg". Keys named in the token itself ("jwk",
//     "jku", "x5u", "x5c") are never used. An unknown "kid" makes the
//     verifier fetch the key set again, at most once per
//     Config.MinRefreshInterval, so that a stream of random key ids cannot
//     make it hammer the issuer (ErrUnknownKey, ErrAlgorithm).
//   - The signature (ErrSignature).
//   - "iss" equals Config.Issuer exactly (ErrWrongIssuer).
//   - "aud", a string or an array of strings, contains the audience:
//     Config.Audience, or else the resource argument of Verify, the
//     canonical URI of the MCP endpoint. A token minted for another
//     resource is refused: passing tokens through to other services is
//     what the MCP authorization specification forbids (ErrWrongAudience).
//   - "exp" is present and not past, "nbf" and "iat" (when present) are
//     not in the future, each with Config.Leeway of tolerance for clock
//     skew (ErrExpired, ErrNotYetValid).
//   - "sub" is a non-empty string (ErrMissingSubject).
//   - "cnf", when present, is an object, and its "jkt", when present, a
//     JWK SHA-256 thumbprint (ErrMalformed): the key a DPoP-bound token
//     is bound to (RFC 9449 §6.1), which package oauth checks the
//     request's DPoP proof against.
//
// The principal's Subject is "sub"; its Scopes come from "scope" (a
// space-separated string, RFC 9068 and RFC 8693) or else "scp" (an array
// of strings or a space-separated string, as some issuers send); its
// Claims are every other claim, as encoding/json decodes them into
// map[string]any (numbers are float64).
//
// # Keys
//
// The key set is fetched from Config.JWKSURI or, when that is empty, from
// the "jwks_uri" of the issuer's metadata (RFC 8414
// /.well-known/oauth-authorization-server, then OpenID Connect
// /.well-known/openid-configuration), whose "issuer" must equal
// Config.Issuer. The set is cached for the response's Cache-Control max-age
// bounded by Config.MinRefreshInterval and Config.MaxRefreshInterval. One
// fetch runs at a time; a failed refresh is logged and the previous keys
// stay in use.
//
// DevIssuer is a miniature authorization server for development and tests
// only: a local signing key, its metadata and key set over HTTP, tokens
// minted on demand, and dynamic registration, an authorization endpoint
// that approves every request with PKCE (there is no user), and a token
// endpoint, so that an MCP client can sign in end to end.
package jwtauth
