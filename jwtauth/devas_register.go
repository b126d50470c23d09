package jwtauth

import (
	"encoding/json"
	"net"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// registration is the client metadata a registration request may carry
// (RFC 7591 §2); other fields are ignored.
type registration struct {
	RedirectURIs            []string `json:"redirect_uris"`
	TokenEndpointAuthMethod string   `json:"token_endpoint_auth_method"`
	GrantTypes              []string `json:"grant_types"`
	ResponseTypes           []string `json:"response_types"`
	ClientName              string   `json:"client_name"`
	Scope                   string   `json:"scope"`
}

// register answers a dynamic client registration request (RFC 7591 §3):
// 201 with the client's metadata, client_id and, for a confidential
// client, client_secret.
func (d *DevIssuer) register(w http.ResponseWriter, r *http.Request) {
	if r.Method != http.MethodPost {
		w.Header().Set("Allow", http.MethodPost)
		badRequestMethod(w)
		return
	}
	var reg registration
	dec := json.NewDecoder(http.MaxBytesReader(w, r.Body, devMaxBody))
	if err := dec.Decode(&reg); err != nil {
		badRequest("invalid_client_metadata", "the body is not a JSON object of client metadata").write(w)
		return
	}
	c, ref := newClient(reg)
	if ref == nil {
		as := d.state()
		as.mu.Lock()
		ref = as.checkScopes(scopeList(c.scope))
		if ref != nil {
			ref.code = "invalid_client_metadata"
		} else if len(as.clients) >= as.maxClients {
			ref = &oauthError{http.StatusServiceUnavailable, "temporarily_unavailable", "too many clients are registered"}
		} else {
			as.clients[c.id] = c
		}
		as.mu.Unlock()
	}
	if ref != nil {
		ref.write(w)
		return
	}
	resp := map[string]any{
		"client_id":                  c.id,
		"client_id_issued_at":        time.Now().Unix(),
		"redirect_uris":              c.redirectURIs,
		"token_endpoint_auth_method": c.authMethod,
		"grant_types":                c.grantTypes,
		"response_types":             []string{"code"},
	}
	if c.secret != "" {
		resp["client_secret"] = c.secret
		resp["client_secret_expires_at"] = 0
	}
	if c.name != "" {
		resp["client_name"] = c.name
	}
	if c.scope != "" {
		resp["scope"] = c.scope
	}
	devJSON(w, http.StatusCreated, resp)
}

// newClient checks reg and makes the client it describes.
func newClient(reg registration) (*devClient, *oauthError) {
	c := &devClient{
		id: randomToken(), authMethod: reg.TokenEndpointAuthMethod, grantTypes: reg.GrantTypes,
		redirectURIs: reg.RedirectURIs, name: reg.ClientName, scope: reg.Scope,
	}
	if c.authMethod == "" {
		c.authMethod = "client_secret_basic" // RFC 7591 §2
	}
	switch c.authMethod {
	case "none":
	case "client_secret_basic", "client_secret_post":
		c.secret = randomToken()
	default:
		return nil, badRequest("invalid_client_metadata", "token_endpoint_auth_method "+quoteSafe(c.authMethod)+" is not supported")
	}
	if len(c.grantTypes) == 0 {
		c.grantTypes = []string{"authorization_code", "refresh_token"}
	}
	for _, g := range c.grantTypes {
		switch {
		case g != "authorization_code" && g != "refresh_token" && g != "client_credentials":
			return nil, badRequest("invalid_client_metadata", "grant type "+quoteSafe(g)+" is not supported")
		case g == "client_credentials" && c.secret == "":
			return nil, badRequest("invalid_client_metadata", "client_credentials needs a confidential client")
		}
	}
	for _, rt := range reg.ResponseTypes {
		if rt != "code" {
			return nil, badRequest("invalid_client_metadata", "response type "+quoteSafe(rt)+" is not supported")
		}
	}
	if slices.Contains(c.grantTypes, "authorization_code") && len(c.redirectURIs) == 0 {
		return nil, badRequest("invalid_redirect_uri", "redirect_uris is required")
	}
	for _, u := range c.redirectURIs {
		if !validRedirect(u) {
			return nil, badRequest("invalid_redirect_uri", "redirect URI "+quoteSafe(u)+" is neither https nor http on a loopback host")
		}
	}
	return c, nil
}

// validRedirect reports whether u may be registered: an absolute https
// URL, or http on a loopback host, without a fragment (RFC 6749 §3.1.2).
func validRedirect(u string) bool {
	p, err := url.Parse(u)
	if err != nil || p.Host == "" || p.Fragment != "" || strings.Contains(u, "#") || p.User != nil {
		return false
	}
	return p.Scheme == "https" || (p.Scheme == "http" && loopbackHost(p.Hostname()))
}

// loopbackHost reports whether host names the loopback interface.
func loopbackHost(host string) bool {
	if host == "localhost" {
		return true
	}
	ip := net.ParseIP(host)
	return ip != nil && ip.IsLoopback()
}

// badRequestMethod answers a request with the wrong method.
func badRequestMethod(w http.ResponseWriter) {
	devJSON(w, http.StatusMethodNotAllowed, map[string]string{"error": "invalid_request", "error_description": "method not allowed"})
}
