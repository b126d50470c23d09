package jwtauth

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"testing"
)

// devFlow drives a DevIssuer's endpoints over HTTP, as a client would.
type devFlow struct {
	t      *testing.T
	d      *DevIssuer
	client *http.Client // follows no redirects
	meta   map[string]any
}

// startDevFlow starts a DevIssuer and reads its metadata.
func startDevFlow(t *testing.T) *devFlow {
	t.Helper()
	d, err := StartDevIssuer()
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { d.Close() })
	f := &devFlow{t: t, d: d, client: &http.Client{
		CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse },
	}}
	resp, err := f.client.Get(d.Issuer() + "/.well-known/oauth-authorization-server")
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if err := json.NewDecoder(resp.Body).Decode(&f.meta); err != nil {
		t.Fatal(err)
	}
	return f
}

// endpoint returns the metadata's URL of name.
func (f *devFlow) endpoint(name string) string {
	s, _ := f.meta[name].(string)
	if s == "" {
		f.t.Fatalf("the metadata has no %s", name)
	}
	return s
}

// register registers a client with metadata md and returns the response.
func (f *devFlow) register(md string) (int, map[string]any) {
	f.t.Helper()
	resp, err := f.client.Post(f.endpoint("registration_endpoint"), "application/json", strings.NewReader(md))
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// mustRegister registers a client and returns its id and secret.
func (f *devFlow) mustRegister(md string) (id, secret string) {
	f.t.Helper()
	status, body := f.register(md)
	if status != http.StatusCreated {
		f.t.Fatalf("register %s: %d %v", md, status, body)
	}
	secret, _ = body["client_secret"].(string)
	return body["client_id"].(string), secret
}

// authorize sends an authorization request and returns the response
// status, its Location parsed (nil when there is none) and its body.
func (f *devFlow) authorize(q url.Values) (int, *url.URL) {
	f.t.Helper()
	resp, err := f.client.Get(f.endpoint("authorization_endpoint") + "?" + q.Encode())
	if err != nil {
		f.t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusFound {
		return resp.StatusCode, nil
	}
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil {
		f.t.Fatal(err)
	}
	return resp.StatusCode, loc
}

// tokenRequest posts form to the token endpoint, with Basic credentials
// when user is set, and returns the status and the JSON body.
func (f *devFlow) tokenRequest(form url.Values, user, pass string) (int, map[string]any) {
	f.t.Helper()
	req, _ := http.NewRequest(http.MethodPost, f.endpoint("token_endpoint"), strings.NewReader(form.Encode()))
	req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
	if user != "" {
		req.SetBasicAuth(url.QueryEscape(user), url.QueryEscape(pass))
	}
	resp, err := f.client.Do(req)
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	var body map[string]any
	json.NewDecoder(resp.Body).Decode(&body)
	return resp.StatusCode, body
}

// pkce returns a verifier and its S256 challenge.
func pkce(seed string) (verifier, challenge string) {
	verifier = strings.Repeat(seed, 43/len(seed)+1)[:43] + "-._~"
	sum := sha256.Sum256([]byte(verifier))
	return verifier, base64.RawURLEncoding.EncodeToString(sum[:])
}

// testRedirect is the redirect URI the tests' clients register.
const testRedirect = "http://127.0.0.1:4711/callback"

// authorizeQuery is a good authorization request for client id.
func authorizeQuery(id, challenge string) url.Values {
	return url.Values{
		"response_type": {"code"}, "client_id": {id}, "redirect_uri": {testRedirect},
		"code_challenge": {challenge}, "code_challenge_method": {"S256"},
		"state": {"xyz"}, "resource": {testResource}, "scope": {"files:read"},
	}
}

// TestDevASFlow drives the whole flow: metadata, registration of a public
// client, authorization with PKCE, the code for tokens, the access token
// verified by a Verifier with the resource as audience, a refresh that
// rotates.
func TestDevASFlow(t *testing.T) {
	f := startDevFlow(t)
	f.d.SetScopes("files:read", "files:write")
	for name, want := range map[string]any{
		"response_types_supported":                       []any{"code"},
		"code_challenge_methods_supported":               []any{"S256"},
		"grant_types_supported":                          []any{"authorization_code", "refresh_token", "client_credentials"},
		"token_endpoint_auth_methods_supported":          []any{"none", "client_secret_basic", "client_secret_post"},
		"authorization_response_iss_parameter_supported": true,
		"issuer":   f.d.Issuer(),
		"jwks_uri": f.d.JWKSURI(),
	} {
		if got, _ := json.Marshal(f.meta[name]); string(got) != string(mustJSON(want)) {
			t.Errorf("metadata %s = %s, want %s", name, got, mustJSON(want))
		}
	}
	f = startDevFlowMeta(f) // scopes_supported now that SetScopes ran
	if got := mustJSON(f.meta["scopes_supported"]); string(got) != `["files:read","files:write"]` {
		t.Errorf("scopes_supported = %s", got)
	}

	id, secret := f.mustRegister(`{"redirect_uris":["` + testRedirect + `"],"token_endpoint_auth_method":"none","client_name":"test"}`)
	if secret != "" {
		t.Errorf("a public client got a secret")
	}
	verifier, challenge := pkce("abc")
	q := authorizeQuery(id, challenge)
	q.Set("redirect_uri", "http://127.0.0.1:5000/callback") // another port: RFC 8252 §7.3
	status, loc := f.authorize(q)
	if status != http.StatusFound || loc.Query().Get("code") == "" || loc.Query().Get("state") != "xyz" ||
		loc.Query().Get("iss") != f.d.Issuer() || loc.Host != "127.0.0.1:5000" || loc.Path != "/callback" {
		t.Fatalf("authorize: %d %v", status, loc)
	}
	status, tok := f.tokenRequest(url.Values{
		"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")}, "client_id": {id},
		"redirect_uri": {"http://127.0.0.1:5000/callback"}, "code_verifier": {verifier}, "resource": {testResource},
	}, "", "")
	if status != http.StatusOK || tok["token_type"] != "Bearer" || tok["scope"] != "files:read" || tok["refresh_token"] == nil {
		t.Fatalf("token: %d %v", status, tok)
	}

	v, err := New(Config{Issuer: f.d.Issuer(), Audience: testResource, RequireATJWT: true})
	if err != nil {
		t.Fatal(err)
	}
	p, err := v.Verify(context.Background(), tok["access_token"].(string), testResource)
	if err != nil {
		t.Fatalf("Verify: %v", err)
	}
	if p.Subject != devUserSubject || !slices.Equal(p.Scopes, []string{"files:read"}) || p.Claims["client_id"] != id {
		t.Errorf("principal %+v", p)
	}
	other, _ := New(Config{Issuer: f.d.Issuer(), Audience: "https://other.example.com/mcp"})
	if _, err := other.Verify(context.Background(), tok["access_token"].(string), "https://other.example.com/mcp"); err == nil {
		t.Error("a verifier for another resource accepted the token")
	}

	// A refresh rotates the refresh token: the old one is spent.
	old := tok["refresh_token"].(string)
	status, tok = f.tokenRequest(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {id}}, "", "")
	if status != http.StatusOK || tok["refresh_token"] == old || tok["refresh_token"] == nil {
		t.Fatalf("refresh: %d %v", status, tok)
	}
	if _, err := v.Verify(context.Background(), tok["access_token"].(string), testResource); err != nil {
		t.Errorf("Verify the refreshed token: %v", err)
	}
	if status, body := f.tokenRequest(url.Values{"grant_type": {"refresh_token"}, "refresh_token": {old}, "client_id": {id}}, "", ""); status != http.StatusBadRequest || body["error"] != "invalid_grant" {
		t.Errorf("the old refresh token again: %d %v, want 400 invalid_grant", status, body)
	}
}

// startDevFlowMeta reads f's metadata again.
func startDevFlowMeta(f *devFlow) *devFlow {
	resp, err := f.client.Get(f.d.Issuer() + "/.well-known/oauth-authorization-server")
	if err != nil {
		f.t.Fatal(err)
	}
	defer resp.Body.Close()
	f.meta = nil
	json.NewDecoder(resp.Body).Decode(&f.meta)
	return f
}

// mustJSON marshals v.
func mustJSON(v any) []byte {
	b, _ := json.Marshal(v)
	return b
}

// TestDevASClientCredentials: a confidential client gets a token for
// itself, with client_secret_basic or client_secret_post as registered.
func TestDevASClientCredentials(t *testing.T) {
	f := startDevFlow(t)
	for _, method := range []string{"client_secret_basic", "client_secret_post"} {
		id, secret := f.mustRegister(`{"grant_types":["client_credentials"],"token_endpoint_auth_method":"` + method + `"}`)
		form := url.Values{"grant_type": {"client_credentials"}, "resource": {testResource}, "scope": {"a b"}}
		user, pass := id, secret
		if method == "client_secret_post" {
			form.Set("client_id", id)
			form.Set("client_secret", secret)
			user, pass = "", ""
		}
		status, tok := f.tokenRequest(form, user, pass)
		if status != http.StatusOK || tok["refresh_token"] != nil {
			t.Fatalf("%s: %d %v", method, status, tok)
		}
		v, _ := New(Config{Issuer: f.d.Issuer(), Audience: testResource})
		p, err := v.Verify(context.Background(), tok["access_token"].(string), testResource)
		if err != nil || p.Subject != id || !slices.Equal(p.Scopes, []string{"a", "b"}) {
			t.Errorf("%s: %+v %v", method, p, err)
		}
	}
}

// TestDevASConcurrent runs flows side by side (go test -race checks the
// locking).
func TestDevASConcurrent(t *testing.T) {
	f := startDevFlow(t)
	id, _ := f.mustRegister(`{"redirect_uris":["` + testRedirect + `"],"token_endpoint_auth_method":"none"}`)
	verifier, challenge := pkce("xyz")
	errs := make(chan string, 8)
	for range 8 {
		go func() {
			_, loc := f.authorize(authorizeQuery(id, challenge))
			status, tok := f.tokenRequest(url.Values{"grant_type": {"authorization_code"}, "code": {loc.Query().Get("code")},
				"client_id": {id}, "redirect_uri": {testRedirect}, "code_verifier": {verifier}}, "", "")
			if status != http.StatusOK || tok["access_token"] == nil {
				errs <- "a concurrent flow failed"
				return
			}
			errs <- ""
		}()
	}
	for range 8 {
		if e := <-errs; e != "" {
			t.Error(e)
		}
	}
}
