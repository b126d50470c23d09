package jwtauth

import (
	"errors"

	"github.com/mcpwire/mcpwire/oauth"
)

// refusal is a reason to refuse a token. Every refusal unwraps to
// oauth.ErrInvalidToken, so errors.Is matches both the refusal and
// oauth.ErrInvalidToken.
type refusal struct{ msg string }

func (e *refusal) Error() string { return "jwtauth: " + e.msg }

func (e *refusal) Unwrap() error { return oauth.ErrInvalidToken }

// The refusals of Verify. Each wraps oauth.ErrInvalidToken; Verify adds
// detail (times, the expected issuer or audience) but never the token.
var (
	// ErrMalformed: not a compact JWS, badly encoded, a claim of the wrong
	// type, or a header this package does not support ("crit", "cty").
	ErrMalformed error = &refusal{"malformed token"}
	// ErrAlgorithm: "alg" is not allowed, or does not fit the key.
	ErrAlgorithm error = &refusal{"algorithm not allowed"}
	// ErrTokenType: "typ" names something other than an access token.
	ErrTokenType error = &refusal{"wrong token type"}
	// ErrUnknownKey: no key of the issuer's set has the token's "kid" (or,
	// without a "kid", fits its "alg"), after fetching the set again or
	// when it was fetched too recently to be fetched again.
	ErrUnknownKey error = &refusal{"unknown key id"}
	// ErrSignature: the signature does not verify.
	ErrSignature error = &refusal{"bad signature"}
	// ErrWrongIssuer: "iss" is missing or is not Config.Issuer.
	ErrWrongIssuer error = &refusal{"wrong issuer"}
	// ErrWrongAudience: "aud" is missing or does not contain the audience.
	ErrWrongAudience error = &refusal{"wrong audience"}
	// ErrExpired: "exp" is missing or past (beyond the leeway).
	ErrExpired error = &refusal{"token expired"}
	// ErrNotYetValid: "nbf" or "iat" is in the future (beyond the leeway).
	ErrNotYetValid error = &refusal{"token not yet valid"}
	// ErrMissingSubject: "sub" is missing or empty.
	ErrMissingSubject error = &refusal{"missing subject"}
)

// ErrKeysUnavailable means the issuer's keys could not be had (the metadata
// or the key set could not be fetched, or the metadata names another
// issuer) and none were cached: the token could not be checked at all. It
// does not wrap oauth.ErrInvalidToken.
var ErrKeysUnavailable = errors.New("jwtauth: issuer keys unavailable")
