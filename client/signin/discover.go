package signin

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxMetadata bounds a metadata document or token response.
const maxMetadata = 1 << 20

// resourceMeta is a Protected Resource Metadata document (RFC 9728 §2).
type resourceMeta struct {
	Resource             string   `json:"resource"`
	AuthorizationServers []string `json:"authorization_servers"`
	ScopesSupported      []string `json:"scopes_supported"`
}

// serverMeta is an authorization server's metadata (RFC 8414 §2), or the
// endpoints the 2025-03-26 revision had clients assume without it.
type serverMeta struct {
	Issuer                            string   `json:"issuer"`
	AuthorizationEndpoint             string   `json:"authorization_endpoint"`
	TokenEndpoint                     string   `json:"token_endpoint"`
	RegistrationEndpoint              string   `json:"registration_endpoint"`
	ScopesSupported                   []string `json:"scopes_supported"`
	GrantTypesSupported               []string `json:"grant_types_supported"`
	CodeChallengeMethodsSupported     []string `json:"code_challenge_methods_supported"`
	TokenEndpointAuthMethodsSupported []string `json:"token_endpoint_auth_methods_supported"`
	ClientIDMetadataDocumentSupported bool     `json:"client_id_metadata_document_supported"`
	ISSParameterSupported             bool     `json:"authorization_response_iss_parameter_supported"`
	DPoPSigningAlgValuesSupported     []string `json:"dpop_signing_alg_values_supported"`

	// assumed: no metadata exists; the endpoints are the 2025-03-26
	// defaults at the server's root.
	assumed bool
}

// discovery is what a 401 led to: the resource to ask a token for, the
// authorization server and the scope to ask.
type discovery struct {
	resource string // the resource indicator (RFC 8707)
	prm      *resourceMeta
	as       *serverMeta
	scope    string // from the challenge, else scopes_supported, else ""
}

// discover follows a 401's challenges from the endpoint target to an
// authorization server (Authorization Server Discovery): the protected
// resource's metadata at the challenge's resource_metadata URL, else at
// the path-inserted and then the root well-known URL; then the
// authorization server's metadata. A server with no resource metadata at
// all is taken for a 2025-03-26 server, whose authorization server is at
// its own origin.
func (f *Flow) discover(ctx context.Context, target *url.URL, cs []challenge) (*discovery, error) {
	d := &discovery{scope: param(cs, "scope")}
	var candidates []string
	if rm := param(cs, "resource_metadata"); rm != "" {
		if _, err := checkURL("resource_metadata", rm); err != nil {
			return nil, err
		}
		candidates = append(candidates, rm)
	}
	if p := strings.TrimSuffix(target.EscapedPath(), "/"); p != "" {
		candidates = append(candidates, wellKnown(target, "oauth-protected-resource"))
	}
	candidates = append(candidates, origin(target)+"/.well-known/oauth-protected-resource")
	for _, c := range candidates {
		var prm resourceMeta
		found, err := f.getJSON(ctx, c, &prm)
		if err != nil {
			return nil, err
		}
		if found {
			d.prm = &prm
			break
		}
	}
	if d.prm == nil {
		as, err := f.legacyServer(ctx, target)
		if err != nil {
			return nil, err
		}
		d.as, d.resource = as, canonical(target)
		return d, nil
	}
	res, err := url.Parse(d.prm.Resource)
	if err != nil || d.prm.Resource == "" || !res.IsAbs() || !covers(res, target) {
		return nil, fmt.Errorf("%w: the protected resource metadata names %q, not the endpoint %s", ErrResourceMismatch, d.prm.Resource, canonical(target))
	}
	d.resource = d.prm.Resource
	if len(d.prm.AuthorizationServers) == 0 {
		return nil, errors.New("signin: the protected resource metadata names no authorization server")
	}
	if d.scope == "" {
		d.scope = strings.Join(d.prm.ScopesSupported, " ")
	}
	if d.as, err = f.serverMetadata(ctx, d.prm.AuthorizationServers[0]); err != nil {
		return nil, err
	}
	return d, nil
}

// serverMetadata fetches the metadata of the authorization server whose
// issuer identifier is issuer, trying the well-known URLs in the order
// Authorization Server Metadata Discovery gives, and refuses a document
// whose issuer is not exactly issuer (RFC 8414 §3.3).
func (f *Flow) serverMetadata(ctx context.Context, issuer string) (*serverMeta, error) {
	iu, err := checkURL("authorization server", issuer)
	if err != nil {
		return nil, err
	}
	if iu.RawQuery != "" {
		return nil, fmt.Errorf("%w: issuer %q has a query", ErrInsecure, issuer)
	}
	var candidates []string
	if p := strings.TrimSuffix(iu.EscapedPath(), "/"); p != "" {
		candidates = []string{
			wellKnown(iu, "oauth-authorization-server"),
			wellKnown(iu, "openid-configuration"),
			origin(iu) + p + "/.well-known/openid-configuration",
		}
	} else {
		candidates = []string{
			origin(iu) + "/.well-known/oauth-authorization-server",
			origin(iu) + "/.well-known/openid-configuration",
		}
	}
	for _, c := range candidates {
		var m serverMeta
		found, err := f.getJSON(ctx, c, &m)
		if err != nil {
			return nil, err
		}
		if !found {
			continue
		}
		if m.Issuer != issuer {
			return nil, fmt.Errorf("%w: the metadata at %s names issuer %q, not %q", ErrIssuerMismatch, c, m.Issuer, issuer)
		}
		if err := m.check(); err != nil {
			return nil, err
		}
		return &m, nil
	}
	return nil, fmt.Errorf("signin: no authorization server metadata for %s (tried %s)", issuer, strings.Join(candidates, ", "))
}

// legacyServer is the authorization server of a 2025-03-26 server: its
// metadata at the root of the MCP server's origin, or, when there is
// none, /authorize, /token and /register there (that revision's Fallbacks
// for Servers without Metadata Discovery).
func (f *Flow) legacyServer(ctx context.Context, target *url.URL) (*serverMeta, error) {
	base := origin(target)
	if _, err := checkURL("authorization server", base); err != nil {
		return nil, err
	}
	var m serverMeta
	found, err := f.getJSON(ctx, base+"/.well-known/oauth-authorization-server", &m)
	if err != nil {
		return nil, err
	}
	if found {
		// That revision predates the issuer check of RFC 8414 §3.3 in MCP,
		// and servers of its time name an issuer below their root; an
		// issuer on another origin is still refused.
		if iu, err := url.Parse(m.Issuer); err != nil || !sameOrigin(iu, target) {
			return nil, fmt.Errorf("%w: the metadata at %s names issuer %q, of another origin", ErrIssuerMismatch, base, m.Issuer)
		}
		if err := m.check(); err != nil {
			return nil, err
		}
		return &m, nil
	}
	return &serverMeta{
		Issuer:                base,
		AuthorizationEndpoint: base + "/authorize",
		TokenEndpoint:         base + "/token",
		RegistrationEndpoint:  base + "/register",
		assumed:               true,
	}, nil
}

// check refuses metadata whose endpoints are not HTTPS (or loopback).
func (m *serverMeta) check() error {
	for _, e := range []struct{ what, url string }{
		{"authorization_endpoint", m.AuthorizationEndpoint},
		{"token_endpoint", m.TokenEndpoint},
		{"registration_endpoint", m.RegistrationEndpoint},
	} {
		if e.url == "" {
			continue
		}
		if _, err := checkURL(e.what, e.url); err != nil {
			return err
		}
	}
	if m.TokenEndpoint == "" {
		return errors.New("signin: the authorization server metadata has no token_endpoint")
	}
	return nil
}

// getJSON GETs raw and decodes a JSON object into v. It reports false
// and no error for a 4xx answer (the document is not there), and an
// error for anything else that is not 200 with a JSON object.
func (f *Flow) getJSON(ctx context.Context, raw string, v any) (bool, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, raw, nil)
	if err != nil {
		return false, fmt.Errorf("signin: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.http.Do(req)
	if err != nil {
		return false, fmt.Errorf("signin: GET %s: %w", raw, err)
	}
	defer resp.Body.Close()
	if resp.StatusCode >= 400 && resp.StatusCode < 500 {
		io.Copy(io.Discard, io.LimitReader(resp.Body, maxMetadata))
		return false, nil
	}
	if resp.StatusCode != http.StatusOK {
		return false, fmt.Errorf("signin: GET %s: HTTP %d", raw, resp.StatusCode)
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata+1))
	if err != nil {
		return false, fmt.Errorf("signin: GET %s: %w", raw, err)
	}
	if len(body) > maxMetadata {
		return false, fmt.Errorf("signin: GET %s: the document is over %d bytes", raw, maxMetadata)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return false, fmt.Errorf("signin: GET %s: not a metadata document: %w", raw, err)
	}
	return true, nil
}
