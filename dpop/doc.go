// Package dpop implements both sides of RFC 9449, OAuth 2.0 Demonstrating
// Proof of Possession (DPoP): a client's key and the proofs it sends with
// every request (Key), and the resource server's check of those proofs
// (Checker).
//
// A DPoP proof is a JWT the client signs with its own key for one request
// (RFC 9449 §4): its header carries the public key, its claims the
// request's method and URL, the time, a unique identifier and, when an
// access token goes with it, the token's hash. An access token bound to
// the key (its cnf.jkt claim, RFC 9449 §6.1) is useless to whoever steals
// it without the key.
//
//	key, _ := dpop.GenerateKey()
//	proof, _ := key.Proof("POST", "https://mcp.example.com/mcp", accessToken, "")
//	req.Header.Set("Authorization", "DPoP "+accessToken)
//	req.Header.Set("DPoP", proof)
//
// A server checks the proof with a Checker (package oauth does so for a
// ResourceServer with DPoP turned on):
//
//	c, _ := dpop.NewChecker(dpop.Options{})
//	thumbprint, err := c.Check(ctx, proof, r.Method, "https://mcp.example.com/mcp", accessToken, jkt)
//
// # Standard library only
//
// The package uses the standard library's crypto and no JOSE library: it
// signs and verifies two algorithms, ES256 (ECDSA P-256, the signature as
// the 64-byte R||S of RFC 7518 §3.4) and RS256 (RSASSA-PKCS1-v1_5 with
// SHA-256, keys of 2048 bits or more), and reads one small, fixed shape
// of compact JWS (signing is internal/jws's, which the client's
// assertions share). That is little enough code to write and review here,
// and it keeps the main module free of a JOSE dependency (package jwtauth,
// a module of its own, uses one to verify access tokens). Every other
// algorithm, "none" and the HMAC ones above all, is refused (RFC 9449
// §4.3: a proof is signed with an asymmetric key).
//
// # Replays and nonces
//
// A Checker remembers every proof's jti until the proof could no longer
// pass its time check (ReplayCache), so each proof is accepted once
// (RFC 9449 §11.1). The default cache lives in the process: instances of
// a server behind a load balancer share one (package redisbroker has a
// Redis one) or a proof refused by one may be replayed to another.
//
// A server may also require a nonce it issued (RFC 9449 §9): Check then
// fails with ErrUseNonce until the proof carries a current one, and the
// server answers with error "use_dpop_nonce" and a DPoP-Nonce header
// holding Checker.Nonce. Nonces are sealed with a key (Options.NonceKey)
// rather than stored, so instances sharing the key accept each other's.
package dpop
