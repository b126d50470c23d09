package oauth

import (
	"net/http"
	"strings"
)

// refusal is why a request's credentials were refused before any verifier
// saw them, or by it: the status, the RFC 6750 error code ("" when the
// request carried no bearer credentials at all) and a description for the
// client.
type refusal struct {
	status int
	code   string
	why    string
}

// The RFC 6750 §3.1 error codes.
const (
	codeInvalidRequest    = "invalid_request"
	codeInvalidToken      = "invalid_token"
	codeInsufficientScope = "insufficient_scope"
)

// bearerToken returns the access token of r's Authorization header (RFC
// 6750 §2.1: the scheme "Bearer", matched case-insensitively, one or more
// spaces, a b64token). A token is never taken from anywhere else: a URL
// query holding access_token is refused (the MCP authorization spec
// forbids tokens in query strings), and so are two Authorization headers.
// Without bearer credentials the refusal has no error code, as RFC 6750
// §3.1 asks.
func bearerToken(r *http.Request) (string, *refusal) {
	if strings.Contains(r.URL.RawQuery, "access_token") && r.URL.Query().Has("access_token") {
		return "", &refusal{http.StatusBadRequest, codeInvalidRequest,
			"access tokens are not accepted in the URL query; send them in the Authorization header"}
	}
	values := r.Header.Values("Authorization")
	switch len(values) {
	case 0:
		return "", &refusal{http.StatusUnauthorized, "", "this resource needs an OAuth access token, sent as Authorization: Bearer followed by the token"}
	case 1:
	default:
		return "", &refusal{http.StatusBadRequest, codeInvalidRequest, "more than one Authorization header"}
	}
	scheme, token, _ := strings.Cut(strings.TrimSpace(values[0]), " ")
	if !strings.EqualFold(scheme, "Bearer") {
		return "", &refusal{http.StatusUnauthorized, "", "the Authorization header does not use the Bearer scheme, the one this resource accepts"}
	}
	token = strings.TrimLeft(token, " ")
	switch {
	case token == "":
		return "", &refusal{http.StatusUnauthorized, codeInvalidToken, "the bearer token is empty"}
	case !isB64Token(token):
		return "", &refusal{http.StatusUnauthorized, codeInvalidToken, "the bearer token is malformed"}
	}
	return token, nil
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
