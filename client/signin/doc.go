// Package signin signs an MCP client in to a server that is protected as
// the specification's Authorization section describes (OAuth 2.1): the
// client side of it, from the server's 401 to the token on every request.
// It plugs into the client as one field, client.HTTP's SignIn; the rest of
// the client does not change.
//
//	flow, err := signin.New(signin.Config{
//		RedirectURL: lb.RedirectURL(), // a Loopback for a program on the user's machine
//		Authorize:   lb.Authorize,
//	})
//	c, err := client.Connect(ctx, client.HTTP{URL: "https://mcp.example.com/mcp", SignIn: flow}, nil)
//
// # What a sign-in does
//
// A request answered 401 starts it; one sign-in runs per endpoint however
// many requests were refused at once, and the others wait for its token.
//
//   - Discovery (Authorization Server Discovery): the protected resource's
//     metadata (RFC 9728) at the challenge's resource_metadata, else at the
//     path-inserted, then the root well-known URL; then the authorization
//     server's (RFC 8414, then OpenID Connect discovery, in the order the
//     specification gives for an issuer with and without a path). A
//     metadata document whose issuer is not exactly the one it was fetched
//     for is refused (ErrIssuerMismatch), as is resource metadata naming a
//     resource other than the endpoint or one above it on its origin
//     (ErrResourceMismatch). A server with no resource metadata is taken
//     for a 2025-03-26 server: its authorization server's metadata at its
//     origin's root, else /authorize, /token and /register there.
//   - Registration, in the specification's order: Config.ClientID
//     (pre-registered; Config.Issuer keeps it to one authorization server);
//     Config.ClientMetadataURL as the client_id where the server advertises
//     Client ID Metadata Documents; else dynamic registration (RFC 7591),
//     kept per issuer and never shown to another server.
//   - The grant. By default the authorization code flow with PKCE (S256;
//     a server whose metadata does not list it is refused, ErrNoPKCE), the
//     resource indicator (RFC 8707) on both requests, and the response
//     checked: its state (ErrStateMismatch) and its iss (RFC 9207), which
//     must equal the issuer exactly, with no normalization, whenever it is
//     present, and must be present where the server advertises it
//     (ErrIssuerMismatch). Config.Grant picks another: ClientCredentials,
//     JWTBearer (workload identity federation) or EnterpriseManaged (the
//     ID-JAG token exchange at the user's identity provider).
//   - Token endpoint authentication: none, client_secret_basic,
//     client_secret_post or private_key_jwt (Config.PrivateKey), as the
//     registration and the server's metadata allow.
//   - Scopes: the challenge's scope, else the resource's scopes_supported,
//     else none asked; offline_access added where the authorization server
//     lists it. A 403 insufficient_scope asks again for the union of what
//     was asked and what is challenged, at most twice per request, and not
//     at all when the challenge asks for nothing new.
//   - Refresh tokens renew an expired or refused token before any new
//     sign-in. Config.Store keeps tokens, keyed by resource, issuer and
//     client id (Key); the default keeps them in memory.
//   - DPoP (RFC 9449) with Config.DPoP: a proof on every token request and
//     every request to the server, bound to the token, and the nonce either
//     server asks for followed once per request.
//
// # Security
//
// Metadata, authorization-server and identity-provider URLs must be HTTPS,
// except on loopback (ErrInsecure). A token goes only to the origin of the
// endpoint it was obtained for: Wrap's transport sends requests to any
// other origin without one. Tokens, codes, the PKCE verifier, state and
// secrets are never logged, nor put in an error; Token's String hides them.
// The redirect_uri is Config.RedirectURL exactly, as registered; a
// Loopback's is its IP literal and port (RFC 8252 §7.3).
//
// A sign-in that fails is the error of the request that needed it, and
// the connection stays up: another request may need no more than the
// token there is.
//
// # Cryptography
//
// PKCE, client assertions (ES256, RS256) and DPoP proofs use the standard
// library's crypto only, through internal/jws and package dpop: the
// signatures are few and fixed, and a JOSE library in the main module
// would be a dependency every user of the SDK links. A server that
// verifies JWTs uses package jwtauth, a module of its own, for that.
package signin
