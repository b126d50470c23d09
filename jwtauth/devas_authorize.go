package jwtauth

import (
	"net/http"
	"net/url"
	"slices"
)

// authorize answers an authorization request (RFC 6749 §4.1.1 with RFC
// 7636 §4.3). THERE IS NO USER: a well-formed request is approved at once
// for devUserSubject. A bad client_id or redirect_uri is shown (400), never
// redirected (RFC 6749 §4.1.2.1); every other error is redirected.
func (d *DevIssuer) authorize(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodGet {
		w.Header().Set("Allow", http.MethodGet)
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	}
	q := r.URL.Query()
	as := d.state()
	as.mu.Lock()
	c := as.clients[q.Get("client_id")]
	as.mu.Unlock()
	redirect := q.Get("redirect_uri")
	switch {
	case c == nil:
		http.Error(w, "invalid_request: unknown client_id", http.StatusBadRequest)
		return
	case !slices.ContainsFunc(c.redirectURIs, func(reg string) bool { return redirectMatches(reg, redirect) }):
		http.Error(w, "invalid_request: redirect_uri is missing or not one the client registered", http.StatusBadRequest)
		return
	}
	code, ref := d.newCode(c, q)
	back, _ := url.Parse(redirect)
	params := back.Query()
	if ref != nil {
		params.Set("error", ref.code)
		params.Set("error_description", ref.desc)
	} else {
		params.Set("code", code)
	}
	if s := q.Get("state"); s != "" {
		params.Set("state", s)
	}
	params.Set("iss", d.issuer) // RFC 9207 §2
	back.RawQuery = params.Encode()
	w.Header().Set("Cache-Control", "no-store")
	http.Redirect(w, r, back.String(), http.StatusFound)
}

// newCode checks the rest of the authorization request q of client c and
// records a new code for it.
func (d *DevIssuer) newCode(c *devClient, q url.Values) (string, *oauthError) {
	challenge, method := q.Get("code_challenge"), q.Get("code_challenge_method")
	scopes := scopeList(q.Get("scope"))
	if q.Get("scope") == "" {
		scopes = scopeList(c.scope)
	}
	switch {
	case q.Get("response_type") != "code":
		return "", badRequest("unsupported_response_type", "response_type must be code")
	case !slices.Contains(c.grantTypes, "authorization_code"):
		return "", badRequest("unauthorized_client", "the client did not register the authorization_code grant")
	case challenge == "":
		return "", badRequest("invalid_request", "code_challenge is required (PKCE, RFC 7636)")
	case method != "S256":
		return "", badRequest("invalid_request", "code_challenge_method must be S256")
	case len(challenge) != 43 || !unreserved(challenge):
		return "", badRequest("invalid_request", "code_challenge is not a base64url SHA-256 hash")
	case len(q["resource"]) > 1:
		return "", badRequest("invalid_target", "one resource at most")
	}
	resource := q.Get("resource")
	if ref := checkResource(resource); ref != nil {
		return "", ref
	}
	as := d.state()
	as.mu.Lock()
	defer as.mu.Unlock()
	if ref := as.checkScopes(scopes); ref != nil {
		return "", ref
	}
	now := as.now()
	if len(as.codes) >= as.maxCodes {
		for k, v := range as.codes {
			if now.After(v.expires) {
				delete(as.codes, k)
			}
		}
	}
	if len(as.codes) >= as.maxCodes {
		return "", badRequest("temporarily_unavailable", "too many outstanding authorization codes")
	}
	code := randomToken()
	as.codes[code] = &devCode{
		devGrant:    devGrant{clientID: c.id, subject: devUserSubject, scopes: scopes, resource: resource, expires: now.Add(devCodeTTL)},
		redirectURI: q.Get("redirect_uri"), challenge: challenge,
	}
	return code, nil
}

// redirectMatches reports whether the redirect URI given matches the one
// registered: exactly, or, for http on a loopback IP or localhost, in all
// but the port (RFC 8252 §7.3: a native app listens on whatever port it
// gets).
func redirectMatches(registered, given string) bool {
	if given == registered {
		return true
	}
	r, err1 := url.Parse(registered)
	g, err2 := url.Parse(given)
	if err1 != nil || err2 != nil || r.Scheme != "http" || g.Scheme != "http" || !loopbackHost(r.Hostname()) {
		return false
	}
	return g.Hostname() == r.Hostname() && g.User == nil && g.EscapedPath() == r.EscapedPath() &&
		g.RawQuery == r.RawQuery && g.Fragment == "" && g.Opaque == ""
}

// checkResource refuses a resource indicator that is not an absolute URI
// without a fragment (RFC 8707 §2); the empty string is no indicator.
func checkResource(resource string) *oauthError {
	if resource == "" {
		return nil
	}
	u, err := url.Parse(resource)
	if err != nil || !u.IsAbs() || u.Fragment != "" {
		return badRequest("invalid_target", "resource must be an absolute URI without a fragment")
	}
	return nil
}

// unreserved reports whether s has only the characters of a code verifier
// or S256 challenge (RFC 7636 §4.1: ALPHA / DIGIT / "-" / "." / "_" / "~").
func unreserved(s string) bool {
	for _, c := range []byte(s) {
		ok := 'A' <= c && c <= 'Z' || 'a' <= c && c <= 'z' || '0' <= c && c <= '9' || c == '-' || c == '.' || c == '_' || c == '~'
		if !ok {
			return false
		}
	}
	return true
}
