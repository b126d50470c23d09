package jwtauth

import (
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"net/http"
	"net/url"
	"slices"
	"strings"
)

// token answers a token request (RFC 6749 §3.2): the authorization_code,
// refresh_token and client_credentials grants, for the client the request
// authenticates as.
func (d *DevIssuer) token(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		badRequestMethod(w)
		return
	}
	r.Body = http.MaxBytesReader(w, r.Body, devMaxBody)
	if err := r.ParseForm(); err != nil || !strings.HasPrefix(r.Header.Get("Content-Type"), "application/x-www-form-urlencoded") {
		badRequest("invalid_request", "the body must be application/x-www-form-urlencoded").write(w)
		return
	}
	f := r.PostForm
	c, ref := d.authenticate(r, f)
	if ref != nil {
		if _, _, basic := r.BasicAuth(); basic && ref.status == http.StatusUnauthorized {
			// RFC 6749 §5.2: the scheme the client authenticated with.
			w.Header().Set("WWW-Authenticate", `Basic realm="mcpwire-dev"`)
		}
		ref.write(w)
		return
	}
	var g *devGrant
	var rt string // the refresh token issued with it, if any
	grant := f.Get("grant_type")
	switch {
	case grant == "" || !slices.Contains([]string{"authorization_code", "refresh_token", "client_credentials"}, grant):
		ref = badRequest("unsupported_grant_type", "grant_type must be authorization_code, refresh_token or client_credentials")
	case !slices.Contains(c.grantTypes, grant):
		ref = badRequest("unauthorized_client", "the client did not register the "+grant+" grant")
	case grant == "authorization_code":
		g, rt, ref = d.redeemCode(c, f)
	case grant == "refresh_token":
		g, rt, ref = d.redeemRefresh(c, f)
	default:
		g, rt, ref = d.clientGrant(c, f)
	}
	if ref != nil {
		ref.write(w)
		return
	}
	resp, ref := d.issue(g, rt)
	if ref != nil {
		ref.write(w)
		return
	}
	devJSON(w, http.StatusOK, resp)
}

// authenticate finds the client of a token request and checks that it
// authenticated as it registered to (RFC 6749 §2.3): with HTTP Basic
// (client_secret_basic), client_secret in the body (client_secret_post),
// or only its client_id (none). More than one method is refused.
func (d *DevIssuer) authenticate(r *http.Request, f url.Values) (*devClient, *oauthError) {
	id, secret, basic := r.BasicAuth()
	method := "none"
	switch {
	case basic && (f.Has("client_secret") || (f.Get("client_id") != "" && f.Get("client_id") != unescapeForm(id))):
		return nil, badRequest("invalid_request", "more than one client authentication method")
	case basic:
		// RFC 6749 §2.3.1: both are form-encoded before Basic encoding.
		id, secret, method = unescapeForm(id), unescapeForm(secret), "client_secret_basic"
	case f.Has("client_secret"):
		id, secret, method = f.Get("client_id"), f.Get("client_secret"), "client_secret_post"
	default:
		id = f.Get("client_id")
	}
	as := d.state()
	as.mu.Lock()
	c := as.clients[id]
	as.mu.Unlock()
	fail := &oauthError{http.StatusUnauthorized, "invalid_client", "client authentication failed"}
	if c == nil || c.authMethod != method ||
		(method != "none" && subtle.ConstantTimeCompare([]byte(secret), []byte(c.secret)) != 1) {
		return nil, fail
	}
	return c, nil
}

// unescapeForm undoes application/x-www-form-urlencoded encoding, leaving
// a malformed string as it is.
func unescapeForm(s string) string {
	if u, err := url.QueryUnescape(s); err == nil {
		return u
	}
	return s
}

// redeemCode redeems an authorization code for client c (RFC 6749 §4.1.3,
// RFC 7636 §4.6). A code is good once: a second try fails and revokes the
// refresh token the first one gave.
func (d *DevIssuer) redeemCode(c *devClient, f url.Values) (*devGrant, string, *oauthError) {
	invalid := badRequest("invalid_grant", "the code is invalid, expired, used, or was issued for another client or redirect_uri")
	as := d.state()
	as.mu.Lock()
	defer as.mu.Unlock()
	code, ok := as.codes[f.Get("code")]
	switch {
	case !ok || f.Get("code") == "":
		return nil, "", invalid
	case code.used:
		delete(as.refresh, code.refresh)
		return nil, "", invalid
	}
	code.used = true // whatever follows, this code is spent
	verifier := f.Get("code_verifier")
	sum := sha256.Sum256([]byte(verifier))
	switch {
	case as.now().After(code.expires), code.clientID != c.id, f.Get("redirect_uri") != code.redirectURI:
		return nil, "", invalid
	case len(verifier) < 43 || len(verifier) > 128 || !unreserved(verifier):
		return nil, "", badRequest("invalid_grant", "code_verifier is missing or malformed")
	case subtle.ConstantTimeCompare([]byte(base64.RawURLEncoding.EncodeToString(sum[:])), []byte(code.challenge)) != 1:
		return nil, "", badRequest("invalid_grant", "code_verifier does not match the code_challenge")
	}
	g := code.devGrant
	if ref := narrowResource(&g, f); ref != nil {
		return nil, "", ref
	}
	if slices.Contains(c.grantTypes, "refresh_token") {
		code.refresh = as.addRefresh(g)
	}
	return &g, code.refresh, nil
}

// redeemRefresh redeems a refresh token of client c (RFC 6749 §6); it is
// rotated: the old one is revoked as the new one is issued.
func (d *DevIssuer) redeemRefresh(c *devClient, f url.Values) (*devGrant, string, *oauthError) {
	as := d.state()
	as.mu.Lock()
	defer as.mu.Unlock()
	old, ok := as.refresh[f.Get("refresh_token")]
	if !ok || old.clientID != c.id || as.now().After(old.expires) {
		return nil, "", badRequest("invalid_grant", "the refresh token is invalid, expired, or was issued for another client")
	}
	g := *old
	if s := f.Get("scope"); s != "" {
		g.scopes = scopeList(s)
		for _, sc := range g.scopes {
			if !slices.Contains(old.scopes, sc) {
				return nil, "", badRequest("invalid_scope", "a refresh may only narrow the scope")
			}
		}
	}
	if ref := narrowResource(&g, f); ref != nil {
		return nil, "", ref
	}
	delete(as.refresh, f.Get("refresh_token"))
	return &g, as.addRefresh(g), nil
}

// clientGrant is the client_credentials grant (RFC 6749 §4.4): the client
// acts for itself.
func (d *DevIssuer) clientGrant(c *devClient, f url.Values) (*devGrant, string, *oauthError) {
	scopes := scopeList(f.Get("scope"))
	if !f.Has("scope") {
		scopes = scopeList(c.scope)
	}
	g := &devGrant{clientID: c.id, subject: c.id, scopes: scopes}
	if ref := narrowResource(g, f); ref != nil {
		return nil, "", ref
	}
	as := d.state()
	as.mu.Lock()
	defer as.mu.Unlock()
	if ref := as.checkScopes(scopes); ref != nil {
		return nil, "", ref
	}
	return g, "", nil
}

// narrowResource applies the token request's resource (RFC 8707 §2.2): it
// may name the grant's resource again, or one when the grant has none.
func narrowResource(g *devGrant, f url.Values) *oauthError {
	res := f.Get("resource")
	switch {
	case res == "":
		return nil
	case len(f["resource"]) > 1, g.resource != "" && res != g.resource:
		return badRequest("invalid_target", "resource is not the one authorized")
	}
	if ref := checkResource(res); ref != nil {
		return ref
	}
	g.resource = res
	return nil
}

// issue mints the access token of g and answers with it and the refresh
// token rt, if any (RFC 6749 §5.1).
func (d *DevIssuer) issue(g *devGrant, rt string) (map[string]any, *oauthError) {
	t := DevToken{Subject: g.subject, Scopes: g.scopes, Audience: g.resource, Claims: map[string]any{"client_id": g.clientID}}
	t.IssuedAt = d.state().now()
	t.Expiry = t.IssuedAt.Add(devTokenTTL)
	if g.resource == "" {
		t.Claims["aud"] = nil
	}
	at, err := d.Mint(t)
	if err != nil {
		return nil, &oauthError{http.StatusInternalServerError, "server_error", "the token could not be signed"}
	}
	resp := map[string]any{"access_token": at, "token_type": "Bearer", "expires_in": int(devTokenTTL.Seconds())}
	if len(g.scopes) > 0 {
		resp["scope"] = strings.Join(g.scopes, " ")
	}
	if rt != "" {
		resp["refresh_token"] = rt
	}
	return resp, nil
}

// addRefresh records a refresh token for g and returns it, or returns ""
// when too many are live (a refresh token is optional, RFC 6749 §5.1);
// as.mu is held.
func (as *devAS) addRefresh(g devGrant) string {
	now := as.now()
	if len(as.refresh) >= as.maxRefresh {
		for k, v := range as.refresh {
			if now.After(v.expires) {
				delete(as.refresh, k)
			}
		}
	}
	if len(as.refresh) >= as.maxRefresh {
		return ""
	}
	rt := randomToken()
	g.expires = now.Add(devRefreshTTL)
	as.refresh[rt] = &g
	return rt
}
