package jwtauth

import (
	"crypto"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"crypto/rsa"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"net"
	"net/http"
	"net/url"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// DevIssuer is a miniature authorization server FOR DEVELOPMENT AND TESTS
// ONLY: it holds signing keys generated in memory, serves its metadata
// (RFC 8414) and key set over HTTP, mints whatever token it is asked for
// (Mint, Sign), and runs a small OAuth 2.1 authorization server so that an
// MCP client can sign in end to end.
//
// IT AUTHENTICATES NO USER: its authorization endpoint approves every
// well-formed request at once, with no login and no consent, for the one
// subject "mcpwire-dev-user". Anyone who can reach it gets tokens. Never
// trust it, or expose it, in production.
//
// Its handler answers
//
//	GET  /.well-known/oauth-authorization-server{path}  metadata (RFC 8414)
//	GET  {path}/jwks.json                               the public keys
//	POST {path}/register    dynamic client registration (RFC 7591)
//	GET  {path}/authorize   authorization code with PKCE S256 (RFC 7636)
//	POST {path}/token       authorization_code, refresh_token, client_credentials
//
// where {path} is the issuer URL's path (usually empty).
//
// Registration takes redirect_uris that are https, or http on a loopback
// host (127.0.0.1, [::1], localhost); token_endpoint_auth_method is none,
// client_secret_basic (the default, RFC 7591 §2) or client_secret_post,
// and a secret is returned for the last two. The authorization endpoint
// requires response_type=code, a registered client_id, a redirect_uri
// equal to a registered one (for a loopback one, any port: RFC 8252 §7.3,
// native apps listen on an ephemeral port) and a code_challenge with
// code_challenge_method=S256 (plain and none are refused); it records the
// optional resource (RFC 8707), which becomes the token's "aud", and
// redirects with code, state and iss (RFC 9207). A bad client_id or
// redirect_uri is shown as a 400 page, never redirected (RFC 6749
// §4.1.2.1). Codes are single-use and live a minute; redeeming one twice
// also revokes the refresh token it gave. Refresh tokens rotate on every
// use. client_credentials is for confidential clients that registered
// that grant type, and acts as the client itself ("sub" is its
// client_id). Access tokens are JWTs signed like Mint's, with "iss",
// "sub", "aud" (the resource; absent when none was asked for, which a
// Verifier refuses), "exp" (an hour), "iat", "scope" and "client_id".
// SetScopes limits the scopes granted. Everything is kept in memory and
// bounded (1000 clients, 1000 outstanding codes, 10000 refresh tokens).
//
// A DevIssuer is safe for concurrent use.
type DevIssuer struct {
	issuer       string
	metadataPath string
	jwksPath     string
	srv          *http.Server // set by StartDevIssuer

	mu   sync.Mutex
	keys []jose.JSONWebKey // private keys; the last one signs

	asOnce sync.Once
	as     *devAS // the authorization server's state (devas.go)
}

// NewDevIssuer returns a development issuer whose identifier is issuer,
// with one ES256 signing key. Serve it (it is an http.Handler) at the
// issuer's URL; StartDevIssuer does both.
func NewDevIssuer(issuer string) (*DevIssuer, error) {
	if err := checkIssuer(issuer); err != nil {
		return nil, err
	}
	u, _ := url.Parse(issuer)
	path := strings.TrimSuffix(u.Path, "/")
	d := &DevIssuer{
		issuer:       issuer,
		metadataPath: "/.well-known/oauth-authorization-server" + path,
		jwksPath:     path + "/jwks.json",
	}
	if _, err := d.Rotate("ES256"); err != nil {
		return nil, err
	}
	return d, nil
}

// StartDevIssuer starts a development issuer on a loopback port, with one
// ES256 signing key. Close stops it.
func StartDevIssuer() (*DevIssuer, error) {
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		return nil, fmt.Errorf("jwtauth: %w", err)
	}
	d, err := NewDevIssuer("http://" + ln.Addr().String())
	if err != nil {
		ln.Close()
		return nil, err
	}
	d.srv = &http.Server{Handler: d, ReadHeaderTimeout: 10 * time.Second}
	go d.srv.Serve(ln)
	return d, nil
}

// Close stops the server StartDevIssuer started; it does nothing for an
// issuer from NewDevIssuer.
func (d *DevIssuer) Close() error {
	if d.srv == nil {
		return nil
	}
	return d.srv.Close()
}

// Issuer returns the issuer identifier, the Config.Issuer of a Verifier
// that accepts its tokens.
func (d *DevIssuer) Issuer() string { return d.issuer }

// JWKSURI returns the URL of the key set.
func (d *DevIssuer) JWKSURI() string {
	u, _ := url.Parse(d.issuer)
	u.Path, u.RawPath = d.jwksPath, ""
	return u.String()
}

// ServeHTTP serves the metadata, the key set and the authorization
// server's endpoints.
func (d *DevIssuer) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if d.serveAS(w, r) {
		return
	}
	var body any
	switch {
	case r.Method != http.MethodGet && r.Method != http.MethodHead:
		http.Error(w, "method not allowed", http.StatusMethodNotAllowed)
		return
	case r.URL.Path == d.metadataPath:
		body = d.metadata()
	case r.URL.Path == d.jwksPath:
		body = d.publicKeys()
		w.Header().Set("Cache-Control", "max-age=300")
	default:
		http.NotFound(w, r)
		return
	}
	w.Header().Set("Content-Type", "application/json")
	json.NewEncoder(w).Encode(body)
}

// publicKeys returns the published key set.
func (d *DevIssuer) publicKeys() jose.JSONWebKeySet {
	d.mu.Lock()
	defer d.mu.Unlock()
	var set jose.JSONWebKeySet
	for _, k := range d.keys {
		set.Keys = append(set.Keys, k.Public())
	}
	return set
}

// Rotate generates a key for alg (RS256, PS256, ES256, ES384, ES512 or
// EdDSA) that signs from now on and returns its key id. The previous keys
// stay in the key set until Retire removes them, as a real issuer keeps
// them while its tokens are outstanding.
func (d *DevIssuer) Rotate(alg string) (kid string, err error) {
	priv, err := generateKey(alg)
	if err != nil {
		return "", err
	}
	k := jose.JSONWebKey{Key: priv, Algorithm: alg, Use: "sig"}
	pub := k.Public()
	thumb, err := pub.Thumbprint(crypto.SHA256)
	if err != nil {
		return "", fmt.Errorf("jwtauth: %w", err)
	}
	k.KeyID = base64.RawURLEncoding.EncodeToString(thumb)
	d.mu.Lock()
	d.keys = append(d.keys, k)
	d.mu.Unlock()
	return k.KeyID, nil
}

// Retire removes the key kid from the key set; the signing key cannot be
// retired.
func (d *DevIssuer) Retire(kid string) error {
	d.mu.Lock()
	defer d.mu.Unlock()
	for i, k := range d.keys {
		if k.KeyID != kid {
			continue
		}
		if i == len(d.keys)-1 {
			return errors.New("jwtauth: the signing key cannot be retired")
		}
		d.keys = append(d.keys[:i], d.keys[i+1:]...)
		return nil
	}
	return fmt.Errorf("jwtauth: no key %q", kid)
}

// generateKey makes a private key for alg.
func generateKey(alg string) (crypto.Signer, error) {
	switch alg {
	case "RS256", "PS256":
		return rsa.GenerateKey(rand.Reader, 2048)
	case "ES256":
		return ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	case "ES384":
		return ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	case "ES512":
		return ecdsa.GenerateKey(elliptic.P521(), rand.Reader)
	case "EdDSA":
		_, priv, err := ed25519.GenerateKey(rand.Reader)
		return priv, err
	}
	return nil, fmt.Errorf("jwtauth: the development issuer has no %q keys", alg)
}
