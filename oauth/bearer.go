package oauth

import (
	"net/http"
	"strings"
)

// refusal is why a request's credentials were refused before any verifier
// saw them, or by it: the status, the RFC 6750 error code ("" when the
// request carried no credentials of a scheme this resource accepts), a
// description for the client and the scheme of the request's credentials
// ("" when there was none), whose challenge carries the error code.
type refusal struct {
	status int
	code   string
	why    string
	scheme string
}

// The authorization schemes: RFC 6750 §2.1 and RFC 9449 §7.1.
const (
	schemeBearer = "Bearer"
	schemeDPoP   = "DPoP"
)

// credentials are an access token and the scheme it came with, and the
// DPoP proof of a DPoP one.
type credentials struct {
	scheme, token, proof string
}

// The RFC 6750 §3.1 error codes.
const (
	codeInvalidRequest    = "invalid_request"
	codeInvalidToken      = "invalid_token"
	codeInsufficientScope = "insufficient_scope"
	codeInvalidDPoPProof  = "invalid_dpop_proof" // RFC 9449 §7.1
	codeUseDPoPNonce      = "use_dpop_nonce"     // RFC 9449 §9
)

// credentialsOf returns the access token of r's Authorization header
// (RFC 6750 §2.1: the scheme "Bearer", matched case-insensitively, one or
// more spaces, a b64token; with DPoP on, RFC 9449 §7.1: the scheme "DPoP"
// likewise, and the request's one DPoP header). A token is never taken
// from anywhere else: a URL query holding access_token is refused (the
// MCP authorization spec forbids tokens in query strings), and so are two
// Authorization headers. Without credentials of a scheme the resource
// accepts the refusal has no error code, as RFC 6750 §3.1 asks.
func (rs *ResourceServer) credentialsOf(r *http.Request) (credentials, *refusal) {
	if strings.Contains(r.URL.RawQuery, "access_token") && r.URL.Query().Has("access_token") {
		return credentials{}, &refusal{http.StatusBadRequest, codeInvalidRequest,
			"access tokens are not accepted in the URL query; send them in the Authorization header", ""}
	}
	values := r.Header.Values("Authorization")
	switch len(values) {
	case 0:
		return credentials{}, &refusal{http.StatusUnauthorized, "", rs.needs(), ""}
	case 1:
	default:
		return credentials{}, &refusal{http.StatusBadRequest, codeInvalidRequest, "more than one Authorization header", ""}
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	var c credentials
	switch {
	case strings.EqualFold(scheme, schemeBearer) && !rs.dpopRequired:
		c.scheme = schemeBearer
	case strings.EqualFold(scheme, schemeDPoP) && rs.dpop != nil:
		c.scheme = schemeDPoP
	default:
		return credentials{}, &refusal{http.StatusUnauthorized, "", "the Authorization header does not use " + rs.schemes() + ", the one this resource accepts", ""}
	}
	what := "the bearer token"
	if c.scheme == schemeDPoP {
		what = "the DPoP-bound token"
	}
	c.token = strings.TrimLeft(token, " ")
	switch {
	case c.token == "":
		return credentials{}, &refusal{http.StatusUnauthorized, codeInvalidToken, what + " is empty", c.scheme}
	case !isB64Token(c.token):
		return credentials{}, &refusal{http.StatusUnauthorized, codeInvalidToken, what + " is malformed", c.scheme}
	}
	if c.scheme == schemeDPoP {
		proofs := r.Header.Values("DPoP")
		switch len(proofs) {
		case 0:
			return credentials{}, &refusal{http.StatusUnauthorized, codeInvalidDPoPProof, "a DPoP-bound token needs a DPoP proof in the DPoP header", c.scheme}
		case 1:
			c.proof = proofs[0]
		default:
			return credentials{}, &refusal{http.StatusBadRequest, codeInvalidRequest, "more than one DPoP header", c.scheme}
		}
	}
	return c, nil
}

// needs says what a request without credentials lacks.
func (rs *ResourceServer) needs() string {
	switch {
	case rs.dpopRequired:
		return "this resource needs a DPoP-bound OAuth access token, sent as Authorization: DPoP followed by the token, with a DPoP proof"
	case rs.dpop != nil:
		return "this resource needs an OAuth access token, sent as Authorization: Bearer (or DPoP, with a DPoP proof) followed by the token"
	}
	return "this resource needs an OAuth access token, sent as Authorization: Bearer followed by the token"
}

// schemes names the schemes the resource accepts.
func (rs *ResourceServer) schemes() string {
	switch {
	case rs.dpopRequired:
		return "the DPoP scheme"
	case rs.dpop != nil:
		return "the Bearer or DPoP scheme"
	}
	return "the Bearer scheme"
}

// isB64Token reports whether s is a b64token (RFC 6750 §2.1): one or more
// of ALPHA, DIGIT, "-", ".", "_", "~", "+", "/", then any number of "=".
func isB64Token(s string) bool {
	body := strings.TrimRight(s, "=")
	if body == "" {
		return false
	}
	for i := 0; i < len(body); i++ {
		c := body[i]
		switch {
		case 'a' <= c && c <= 'z', 'A' <= c && c <= 'Z', '0' <= c && c <= '9':
		case c == '-', c == '.', c == '_', c == '~', c == '+', c == '/':
		default:
			return false
		}
	}
	return true
}
