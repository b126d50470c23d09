package jwtauth

import (
	"errors"
	"net/http"
	"net/http/httptest"
	"slices"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/oauth"
)

// TestDiscoveryIssuerMismatch refuses metadata that names another issuer:
// its keys are never fetched and no token is accepted.
func TestDiscoveryIssuerMismatch(t *testing.T) {
	e := newEnv(t, "ES256", Config{}, func(e *env) {
		e.metadata = map[string]string{"issuer": "https://evil.example", "jwks_uri": "$jwks"}
	})
	_, err := e.verify(e.token(nil))
	if !errors.Is(err, ErrKeysUnavailable) || errors.Is(err, oauth.ErrInvalidToken) {
		t.Fatalf("got %v, want ErrKeysUnavailable only", err)
	}
	if !strings.Contains(err.Error(), "another issuer") {
		t.Errorf("error %q does not name the mismatch", err)
	}
	e.wantFetches(0)

	// The same metadata with the right issuer works.
	e = newEnv(t, "ES256", Config{}, func(e *env) {
		e.metadata = map[string]string{"issuer": "$issuer", "jwks_uri": "$jwks"}
	})
	e.mustVerify(e.token(nil))
}

// TestDiscoveryOrder finds OpenID Connect metadata appended to an issuer
// with a path, after trying the RFC 8414 and path-inserted forms.
func TestDiscoveryOrder(t *testing.T) {
	var (
		mu    sync.Mutex
		paths []string
		dev   *DevIssuer
	)
	srv := httptest.NewUnstartedServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		paths = append(paths, r.URL.Path)
		d := dev
		mu.Unlock()
		switch r.URL.Path {
		case "/tenant/.well-known/openid-configuration":
			writeJSON(w, map[string]any{"issuer": d.Issuer(), "jwks_uri": d.JWKSURI()})
		case "/tenant/jwks.json":
			d.ServeHTTP(w, r)
		default:
			http.NotFound(w, r)
		}
	}))
	srv.Start()
	defer srv.Close()
	d, err := NewDevIssuer(srv.URL + "/tenant")
	if err != nil {
		t.Fatal(err)
	}
	mu.Lock()
	dev = d
	mu.Unlock()
	v, err := New(Config{Issuer: d.Issuer()})
	if err != nil {
		t.Fatal(err)
	}
	tok, err := d.Mint(DevToken{Subject: "alice", Audience: testResource})
	if err != nil {
		t.Fatal(err)
	}
	if _, err := v.Verify(t.Context(), tok, testResource); err != nil {
		t.Fatal(err)
	}
	want := []string{
		"/.well-known/oauth-authorization-server/tenant",
		"/.well-known/openid-configuration/tenant",
		"/tenant/.well-known/openid-configuration",
		"/tenant/jwks.json",
	}
	mu.Lock()
	defer mu.Unlock()
	if !slices.Equal(paths, want) {
		t.Errorf("requests %q, want %q", paths, want)
	}
}

// TestMetadataURLs lists the well-known URLs of issuers with and without
// a path.
func TestMetadataURLs(t *testing.T) {
	for issuer, want := range map[string][]string{
		"https://as.example": {
			"https://as.example/.well-known/oauth-authorization-server",
			"https://as.example/.well-known/openid-configuration",
		},
		"https://as.example/": {
			"https://as.example/.well-known/oauth-authorization-server",
			"https://as.example/.well-known/openid-configuration",
		},
		"https://as.example:8443/realms/mcp": {
			"https://as.example:8443/.well-known/oauth-authorization-server/realms/mcp",
			"https://as.example:8443/.well-known/openid-configuration/realms/mcp",
			"https://as.example:8443/realms/mcp/.well-known/openid-configuration",
		},
	} {
		if got := metadataURLs(issuer); !slices.Equal(got, want) {
			t.Errorf("metadataURLs(%q) = %q, want %q", issuer, got, want)
		}
	}
}

// TestNoMetadata reports unavailable keys when no metadata answers or it
// has no jwks_uri.
func TestNoMetadata(t *testing.T) {
	srv := httptest.NewServer(http.NotFoundHandler())
	defer srv.Close()
	v, err := New(Config{Issuer: srv.URL})
	if err != nil {
		t.Fatal(err)
	}
	_, err = v.Verify(t.Context(), "e30.e30.", testResource)
	if !errors.Is(err, ErrMalformed) {
		t.Errorf("a malformed token is refused before any fetch: got %v", err)
	}
	d, _ := NewDevIssuer(srv.URL)
	tok, _ := d.Mint(DevToken{Subject: "a", Audience: testResource})
	_, err = v.Verify(t.Context(), tok, testResource)
	if !errors.Is(err, ErrKeysUnavailable) || !strings.Contains(err.Error(), "no authorization server metadata") {
		t.Errorf("got %v, want no metadata", err)
	}

	e := newEnv(t, "ES256", Config{}, func(e *env) { e.metadata = map[string]string{"issuer": "$issuer"} })
	_, err = e.verify(e.token(nil))
	if !errors.Is(err, ErrKeysUnavailable) || !strings.Contains(err.Error(), "no jwks_uri") {
		t.Errorf("got %v, want no jwks_uri", err)
	}
}
