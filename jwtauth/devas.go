package jwtauth

import (
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// The development authorization server's endpoints, under the issuer's
// path, and its bounds. Everything lives in memory: the bounds keep a
// client that registers or authorizes in a loop from growing it without
// end.
const (
	devAuthorizePath = "/authorize"
	devTokenPath     = "/token"
	devRegisterPath  = "/register"

	devMaxClients  = 1000               // registered clients
	devMaxCodes    = 1000               // outstanding authorization codes
	devMaxRefresh  = 10000              // live refresh tokens
	devCodeTTL     = time.Minute        // an authorization code's lifetime
	devTokenTTL    = time.Hour          // an access token's lifetime
	devRefreshTTL  = 24 * time.Hour     // a refresh token's lifetime
	devMaxBody     = 64 << 10           // a registration or token request
	devUserSubject = "mcpwire-dev-user" // "sub" of every user-delegated token
)

// devAS is the state of a DevIssuer's authorization server: registered
// clients, outstanding codes and refresh tokens, guarded by mu. Secrets,
// codes and tokens are never logged (nothing here logs at all).
type devAS struct {
	mu      sync.Mutex
	scopes  []string // scopes_supported; empty: any scope is granted
	clients map[string]*devClient
	codes   map[string]*devCode  // by the code itself
	refresh map[string]*devGrant // by the refresh token itself
	// limits, the dev* constants unless a test lowers them
	maxClients, maxCodes, maxRefresh int
	now                              func() time.Time
}

// devClient is a registered client (RFC 7591).
type devClient struct {
	id, secret   string
	authMethod   string // none, client_secret_basic or client_secret_post
	redirectURIs []string
	grantTypes   []string
	scope        string // the registered "scope", granted when none is asked
	name         string
}

// devGrant is what a code or refresh token stands for.
type devGrant struct {
	clientID string
	subject  string
	scopes   []string
	resource string // RFC 8707; the access token's "aud"
	expires  time.Time
}

// devCode is an authorization code (RFC 6749 §4.1.2) and what was asked
// with it.
type devCode struct {
	devGrant
	redirectURI string
	challenge   string // S256 code_challenge (RFC 7636 §4.2)
	// used is set when the code is redeemed; a second try revokes the
	// refresh token it gave (RFC 6749 §4.1.2) and fails.
	used    bool
	refresh string
}

// state returns the issuer's authorization server state, made on first use.
func (d *DevIssuer) state() *devAS {
	d.asOnce.Do(func() {
		d.as = &devAS{
			clients: map[string]*devClient{}, codes: map[string]*devCode{}, refresh: map[string]*devGrant{},
			maxClients: devMaxClients, maxCodes: devMaxCodes, maxRefresh: devMaxRefresh, now: time.Now,
		}
	})
	return d.as
}

// SetScopes sets the scopes the development authorization server
// advertises (scopes_supported) and grants: once set, a request for any
// other scope is refused with invalid_scope. Until then scopes_supported
// is left out of the metadata and any scope asked for is granted.
func (d *DevIssuer) SetScopes(scopes ...string) {
	as := d.state()
	as.mu.Lock()
	as.scopes = slices.Clone(scopes)
	as.mu.Unlock()
}

// basePath is the issuer URL's path, without a trailing slash.
func (d *DevIssuer) basePath() string { return strings.TrimSuffix(d.jwksPath, "/jwks.json") }

// endpointURL returns the absolute URL of the endpoint at path (under the
// issuer's path).
func (d *DevIssuer) endpointURL(path string) string {
	u, _ := url.Parse(d.issuer)
	u.Path, u.RawPath = d.basePath()+path, ""
	return u.String()
}

// metadata returns the authorization server metadata (RFC 8414 §2).
func (d *DevIssuer) metadata() map[string]any {
	m := map[string]any{
		"issuer":                                         d.issuer,
		"jwks_uri":                                       d.JWKSURI(),
		"authorization_endpoint":                         d.endpointURL(devAuthorizePath),
		"token_endpoint":                                 d.endpointURL(devTokenPath),
		"registration_endpoint":                          d.endpointURL(devRegisterPath),
		"response_types_supported":                       []string{"code"},
		"grant_types_supported":                          []string{"authorization_code", "refresh_token", "client_credentials"},
		"code_challenge_methods_supported":               []string{"S256"},
		"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic", "client_secret_post"},
		"authorization_response_iss_parameter_supported": true,
	}
	as := d.state()
	as.mu.Lock()
	if len(as.scopes) > 0 {
		m["scopes_supported"] = slices.Clone(as.scopes)
	}
	as.mu.Unlock()
	return m
}

// serveAS answers the authorization server's own endpoints and reports
// whether r was for one of them.
func (d *DevIssuer) serveAS(w http.ResponseWriter, r *http.Request) bool {
	switch r.URL.Path {
	case d.basePath() + devRegisterPath:
		d.register(w, r)
	case d.basePath() + devAuthorizePath:
		d.authorize(w, r)
	case d.basePath() + devTokenPath:
		d.token(w, r)
	default:
		return false
	}
	return true
}

// randomToken returns 32 random bytes, base64url-encoded: client ids and
// secrets, codes and refresh tokens.
func randomToken() string {
	b := make([]byte, 32)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}

// devJSON answers with status and v as JSON, never to be cached (RFC
// 6749 §5.1).
func devJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.Header().Set("Cache-Control", "no-store")
	w.Header().Set("Pragma", "no-cache")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// oauthError is an error response (RFC 6749 §5.2, RFC 7591 §3.2.2).
type oauthError struct {
	status int
	code   string
	desc   string
}

// write answers with e as JSON.
func (e *oauthError) write(w http.ResponseWriter) {
	devJSON(w, e.status, map[string]string{"error": e.code, "error_description": e.desc})
}

// refusal constructors for the common statuses.
func badRequest(code, desc string) *oauthError { return &oauthError{http.StatusBadRequest, code, desc} }

// scopeList splits a space-separated scope parameter (RFC 6749 §3.3).
func scopeList(s string) []string { return strings.Fields(s) }

// checkScopes refuses scopes beyond as.scopes, when set; as.mu is held.
func (as *devAS) checkScopes(scopes []string) *oauthError {
	if len(as.scopes) == 0 {
		return nil
	}
	for _, s := range scopes {
		if !slices.Contains(as.scopes, s) {
			return badRequest("invalid_scope", "scope "+quoteSafe(s)+" is not supported")
		}
	}
	return nil
}

// quoteSafe quotes s for an error description, cut short and with
// anything but printable ASCII replaced (RFC 6749 §5.2 allows no more).
func quoteSafe(s string) string {
	if len(s) > 64 {
		s = s[:64] + "..."
	}
	b := []byte(s)
	for i, c := range b {
		if c < 0x20 || c > 0x7e || c == '"' || c == '\\' {
			b[i] = '?'
		}
	}
	return "'" + string(b) + "'"
}
