package signin

import (
	"bytes"
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"slices"
)

// The token endpoint authentication methods (RFC 7591 §2).
const (
	authNone       = "none"
	authBasic      = "client_secret_basic"
	authPost       = "client_secret_post"
	authPrivateJWT = "private_key_jwt"
)

// registration is the client as one authorization server knows it.
type registration struct {
	id, secret string
	method     string // how it authenticates at the token endpoint
}

// preRegistered is the client of Config.ClientID at the server as, or
// nil when there is none for as.
func (f *Flow) preRegistered(as *serverMeta) *registration {
	if f.cfg.ClientID == "" || (f.cfg.Issuer != "" && f.cfg.Issuer != as.Issuer) {
		return nil
	}
	return &registration{id: f.cfg.ClientID, secret: f.cfg.ClientSecret, method: f.authMethod(as, f.cfg.ClientSecret != "")}
}

// authMethod picks how to authenticate at as's token endpoint: with the
// private key when there is one and the server takes it; with the secret
// as HTTP Basic, else in the body; else as a public client. A server that
// lists no methods takes client_secret_basic (RFC 8414 §2).
func (f *Flow) authMethod(as *serverMeta, secret bool) string {
	supported := as.TokenEndpointAuthMethodsSupported
	if len(supported) == 0 {
		supported = []string{authBasic}
	}
	has := func(m string) bool { return slices.Contains(supported, m) }
	switch {
	case f.cfg.PrivateKey != nil && has(authPrivateJWT):
		return authPrivateJWT
	case secret && has(authBasic):
		return authBasic
	case secret && has(authPost):
		return authPost
	case secret:
		return authBasic
	case f.cfg.PrivateKey != nil:
		return authPrivateJWT
	}
	return authNone
}

// client returns how the client is known to the authorization server as,
// in the order Client Registration Approaches gives: pre-registered
// credentials, a Client ID Metadata Document, dynamic registration. A
// dynamic registration is kept per issuer for the life of the Flow and
// never presented to another server.
func (f *Flow) client(ctx context.Context, as *serverMeta) (*registration, error) {
	if r := f.preRegistered(as); r != nil {
		return r, nil
	}
	if f.cfg.ClientMetadataURL != "" && as.ClientIDMetadataDocumentSupported {
		if _, err := checkURL("client metadata document", f.cfg.ClientMetadataURL); err != nil {
			return nil, err
		}
		m := authNone
		if f.cfg.PrivateKey != nil {
			m = authPrivateJWT
		}
		return &registration{id: f.cfg.ClientMetadataURL, method: m}, nil
	}
	f.mu.Lock()
	r := f.regs[as.Issuer]
	f.mu.Unlock()
	if r != nil {
		return r, nil
	}
	if as.RegistrationEndpoint == "" {
		return nil, fmt.Errorf("signin: the authorization server %s takes no dynamic registration, and no ClientID was given for it", as.Issuer)
	}
	r, err := f.register(ctx, as)
	if err != nil {
		return nil, err
	}
	f.mu.Lock()
	f.regs[as.Issuer] = r
	f.mu.Unlock()
	return r, nil
}

// register registers the client dynamically (RFC 7591 §3).
func (f *Flow) register(ctx context.Context, as *serverMeta) (*registration, error) {
	method := f.authMethod(as, false)
	if method == authNone && !slices.Contains(as.TokenEndpointAuthMethodsSupported, authNone) && len(as.TokenEndpointAuthMethodsSupported) > 0 {
		// A server that takes no public clients gets a confidential one.
		method = f.authMethod(as, true)
	}
	appType := "web"
	if u, err := url.Parse(f.cfg.RedirectURL); err == nil && (isLoopback(u.Hostname()) || (u.Scheme != "https" && u.Scheme != "http")) {
		appType = "native"
	}
	meta := map[string]any{
		"client_name":                f.clientName(),
		"redirect_uris":              []string{f.cfg.RedirectURL},
		"grant_types":                []string{"authorization_code", "refresh_token"},
		"response_types":             []string{"code"},
		"token_endpoint_auth_method": method,
		"application_type":           appType,
	}
	body, _ := json.Marshal(meta)
	req, err := http.NewRequestWithContext(ctx, http.MethodPost, as.RegistrationEndpoint, bytes.NewReader(body))
	if err != nil {
		return nil, fmt.Errorf("signin: register: %w", err)
	}
	req.Header.Set("Content-Type", "application/json")
	req.Header.Set("Accept", "application/json")
	resp, err := f.http.Do(req)
	if err != nil {
		return nil, fmt.Errorf("signin: register at %s: %w", as.RegistrationEndpoint, err)
	}
	defer resp.Body.Close()
	raw, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
	if err != nil {
		return nil, fmt.Errorf("signin: register at %s: %w", as.RegistrationEndpoint, err)
	}
	if resp.StatusCode != http.StatusCreated && resp.StatusCode != http.StatusOK {
		return nil, fmt.Errorf("%w: registration at %s: %s", ErrDenied, as.RegistrationEndpoint, oauthError(resp.StatusCode, raw))
	}
	var got struct {
		ClientID     string `json:"client_id"`
		ClientSecret string `json:"client_secret"`
		Method       string `json:"token_endpoint_auth_method"`
	}
	if err := json.Unmarshal(raw, &got); err != nil || got.ClientID == "" {
		return nil, fmt.Errorf("signin: registration at %s gave no client_id", as.RegistrationEndpoint)
	}
	r := &registration{id: got.ClientID, secret: got.ClientSecret, method: got.Method}
	if r.method == "" {
		r.method = method
		if r.secret != "" && method == authNone {
			r.method = f.authMethod(as, true)
		}
	}
	f.log.Info("signin: registered", "issuer", as.Issuer, "method", r.method)
	return r, nil
}

func (f *Flow) clientName() string {
	if f.cfg.ClientName != "" {
		return f.cfg.ClientName
	}
	return "mcpwire"
}
