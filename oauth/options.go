package oauth

import (
	"errors"
	"fmt"
	"log/slog"
	"net/url"
	"slices"
	"strings"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/dpop"
)

// Options configure a ResourceServer: what its Protected Resource Metadata
// document says and which scopes every request needs.
type Options struct {
	// Resource is the canonical URI of the protected MCP endpoint, as
	// clients name it in their token requests (RFC 8707) and as a token's
	// audience must name it, such as "https://mcp.example.com/mcp".
	// Required: an absolute http or https URL (https outside development
	// on loopback) without query or fragment. Its scheme and host are
	// lower-cased; a trailing slash is kept, so write it without one
	// unless it matters.
	Resource string
	// AuthorizationServers are the issuer identifiers of the authorization
	// servers whose tokens this resource accepts (authorization_servers):
	// at least one, each an absolute http or https URL.
	AuthorizationServers []string
	// ScopesSupported are the scopes a client may ask for to use this
	// resource (scopes_supported): by the MCP authorization spec, the
	// minimal set for basic use, more being asked for when a request
	// needs them (step-up). A client that got no scope in a challenge
	// asks for all of them.
	ScopesSupported []string
	// RequiredScopes are the scopes every request to the endpoint needs:
	// a token lacking one gets 403 insufficient_scope naming them. They
	// are also the scope of a 401 challenge (ScopesSupported when there
	// are none), and they are part of every step-up challenge, since each
	// operation needs them too.
	RequiredScopes []string
	// ResourceName is a human-readable name of the resource, for display
	// (resource_name).
	ResourceName string
	// ResourceDocumentation, ResourcePolicyURI and ResourceTOSURI are
	// optional URLs of the resource's documentation, data policy and terms
	// of service (resource_documentation, resource_policy_uri,
	// resource_tos_uri).
	ResourceDocumentation, ResourcePolicyURI, ResourceTOSURI string
	// MetadataMaxAge is how long clients and shared caches may reuse the
	// metadata document (Cache-Control max-age; default one hour).
	MetadataMaxAge time.Duration
	// DPoP, when set, makes the resource server accept DPoP-bound access
	// tokens (RFC 9449): Authorization: DPoP with the token and a DPoP
	// header holding a proof that this checker verifies against the
	// request, the token and the token's key (see ResourceServer.Protect).
	// Whether proofs need a server nonce, and the replay cache the
	// instances share, are the checker's options (dpop.Options).
	DPoP *dpop.Checker
	// DPoPRequired refuses Bearer tokens: every request needs a DPoP-bound
	// token and its proof, and the metadata document says so
	// (dpop_bound_access_tokens_required). It needs DPoP.
	DPoPRequired bool
	// Logger receives the refusals: a request without a token at debug
	// level (every client's first request is one), a refused token at
	// info, a verifier failure at error. Tokens are never logged. Default
	// slog.Default().
	Logger *slog.Logger
}

// WellKnownPath is where the Protected Resource Metadata document of a
// host is served (RFC 9728 §3); the document of a resource with a path is
// also served at that path appended to it.
const WellKnownPath = "/.well-known/oauth-protected-resource"

// Metadata is the Protected Resource Metadata document (RFC 9728 §2), as
// the ResourceServer serves it.
type Metadata struct {
	Resource               string   `json:"resource"`
	AuthorizationServers   []string `json:"authorization_servers,omitempty"`
	ScopesSupported        []string `json:"scopes_supported,omitempty"`
	BearerMethodsSupported []string `json:"bearer_methods_supported"`
	// DPoPSigningAlgValuesSupported are the algorithms of the DPoP proofs
	// the resource accepts (RFC 9728 §2), listed when Options.DPoP is set.
	DPoPSigningAlgValuesSupported []string `json:"dpop_signing_alg_values_supported,omitempty"`
	// DPoPBoundAccessTokensRequired says the resource accepts DPoP-bound
	// tokens only (RFC 9728 §2, Options.DPoPRequired).
	DPoPBoundAccessTokensRequired bool   `json:"dpop_bound_access_tokens_required,omitempty"`
	ResourceName                  string `json:"resource_name,omitempty"`
	ResourceDocumentation         string `json:"resource_documentation,omitempty"`
	ResourcePolicyURI             string `json:"resource_policy_uri,omitempty"`
	ResourceTOSURI                string `json:"resource_tos_uri,omitempty"`
}

// ErrInvalidOptions is wrapped by every problem NewResourceServer finds in
// its options.
var ErrInvalidOptions = errors.New("oauth: invalid options")

// checked is what NewResourceServer derives from valid options.
type checked struct {
	resource     string  // canonical
	endpointPath string  // the resource's path, "/" for none
	metadataPath string  // WellKnownPath with the resource's path appended
	metadataURL  string  // the resource_metadata of every challenge
	origin       url.URL // the resource's scheme and host
	doc          []byte  // the metadata document, encoded once
	maxAge       time.Duration
}

// check validates o and derives what the ResourceServer serves.
func (o *Options) check() (*checked, error) {
	bad := func(format string, args ...any) error {
		return fmt.Errorf("%w: %s", ErrInvalidOptions, fmt.Sprintf(format, args...))
	}
	u, err := parseHTTPURL(o.Resource)
	if err != nil {
		return nil, bad("Resource: %v", err)
	}
	if u.RawQuery != "" || u.ForceQuery {
		return nil, bad("Resource %q has a query: a resource identifier names the endpoint alone", o.Resource)
	}
	if strings.ContainsAny(u.Path, "{}") {
		return nil, bad("Resource %q: a path with '{' or '}' cannot be mounted on an http.ServeMux", o.Resource)
	}
	if len(o.AuthorizationServers) == 0 {
		return nil, bad("AuthorizationServers is empty: the metadata must name at least one authorization server")
	}
	for _, as := range o.AuthorizationServers {
		if _, err := parseHTTPURL(as); err != nil {
			return nil, bad("AuthorizationServers: %v", err)
		}
	}
	for _, doc := range []struct{ name, v string }{
		{"ResourceDocumentation", o.ResourceDocumentation}, {"ResourcePolicyURI", o.ResourcePolicyURI}, {"ResourceTOSURI", o.ResourceTOSURI},
	} {
		if doc.v == "" {
			continue
		}
		if _, err := parseHTTPURL(doc.v); err != nil {
			return nil, bad("%s: %v", doc.name, err)
		}
	}
	if o.DPoPRequired && o.DPoP == nil {
		return nil, bad("DPoPRequired needs DPoP, a proof checker")
	}
	if err := checkScopeList("ScopesSupported", o.ScopesSupported); err != nil {
		return nil, bad("%v", err)
	}
	if err := checkScopeList("RequiredScopes", o.RequiredScopes); err != nil {
		return nil, bad("%v", err)
	}
	c := &checked{maxAge: o.MetadataMaxAge}
	if c.maxAge <= 0 {
		c.maxAge = time.Hour
	}
	u.Scheme, u.Host = strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	c.resource = u.String()
	c.origin = url.URL{Scheme: u.Scheme, Host: u.Host}
	c.endpointPath = u.Path
	suffix := u.Path
	if suffix == "/" || suffix == "" {
		// RFC 9728 §3.1: the slash after the host goes before the
		// well-known path is inserted.
		c.endpointPath, suffix = "/", ""
	}
	c.metadataPath = WellKnownPath + suffix
	c.metadataURL = (&url.URL{Scheme: u.Scheme, Host: u.Host, Path: c.metadataPath}).String()
	var algs []string
	if o.DPoP != nil {
		algs = dpop.Algorithms()
	}
	c.doc, err = json.Marshal(Metadata{
		Resource:                      c.resource,
		AuthorizationServers:          o.AuthorizationServers,
		ScopesSupported:               o.ScopesSupported,
		BearerMethodsSupported:        []string{"header"},
		DPoPSigningAlgValuesSupported: algs,
		DPoPBoundAccessTokensRequired: o.DPoPRequired,
		ResourceName:                  o.ResourceName,
		ResourceDocumentation:         o.ResourceDocumentation,
		ResourcePolicyURI:             o.ResourcePolicyURI,
		ResourceTOSURI:                o.ResourceTOSURI,
	})
	if err != nil {
		return nil, bad("encoding the metadata: %v", err)
	}
	return c, nil
}

// parseHTTPURL parses an absolute http or https URL with a host and no
// fragment.
func parseHTTPURL(s string) (*url.URL, error) {
	u, err := url.Parse(s)
	switch {
	case err != nil:
		return nil, fmt.Errorf("%q is not a URL", s)
	case u.Scheme != "https" && u.Scheme != "http" && u.Scheme != "HTTPS" && u.Scheme != "HTTP":
		return nil, fmt.Errorf("%q is not an absolute http or https URL", s)
	case u.Host == "" || u.User != nil:
		return nil, fmt.Errorf("%q needs a host (and no user information)", s)
	case u.Fragment != "" || strings.Contains(s, "#"):
		return nil, fmt.Errorf("%q has a fragment", s)
	}
	return u, nil
}

// checkScopeList refuses a scope that is not an OAuth scope token, one
// listed twice, and offline_access, which the MCP authorization spec keeps
// out of a resource's scopes (refresh tokens are the client's business).
func checkScopeList(field string, scopes []string) error {
	for i, s := range scopes {
		switch {
		case !auth.ValidScope(s):
			return fmt.Errorf("%s: %q is not an OAuth scope token (printable ASCII, no space, '\"' or '\\')", field, s)
		case slices.Contains(scopes[:i], s):
			return fmt.Errorf("%s: %q is listed twice", field, s)
		case s == "offline_access":
			return fmt.Errorf("%s: offline_access is not a resource's scope (the MCP authorization spec): leave it to the client", field)
		}
	}
	return nil
}
