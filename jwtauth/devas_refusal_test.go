package jwtauth

import (
	"net/http"
	"net/url"
	"strings"
	"testing"
	"time"
)

// TestDevASRegisterRefusals: registrations the server must refuse.
func TestDevASRegisterRefusals(t *testing.T) {
	f := startDevFlow(t)
	f.d.SetScopes("files:read")
	for _, tc := range []struct{ name, md, code string }{
		{"not JSON", `redirect_uris=x`, "invalid_client_metadata"},
		{"no redirect_uris", `{"token_endpoint_auth_method":"none"}`, "invalid_redirect_uri"},
		{"plain http", `{"redirect_uris":["http://example.com/cb"]}`, "invalid_redirect_uri"},
		{"custom scheme", `{"redirect_uris":["com.example.app:/cb"]}`, "invalid_redirect_uri"},
		{"fragment", `{"redirect_uris":["https://example.com/cb#x"]}`, "invalid_redirect_uri"},
		{"relative", `{"redirect_uris":["/cb"]}`, "invalid_redirect_uri"},
		{"auth method", `{"redirect_uris":["https://example.com/cb"],"token_endpoint_auth_method":"private_key_jwt"}`, "invalid_client_metadata"},
		{"grant type", `{"redirect_uris":["https://example.com/cb"],"grant_types":["implicit"]}`, "invalid_client_metadata"},
		{"response type", `{"redirect_uris":["https://example.com/cb"],"response_types":["token"]}`, "invalid_client_metadata"},
		{"public client_credentials", `{"grant_types":["client_credentials"],"token_endpoint_auth_method":"none"}`, "invalid_client_metadata"},
		{"unsupported scope", `{"redirect_uris":["https://example.com/cb"],"scope":"admin"}`, "invalid_client_metadata"},
	} {
		status, body := f.register(tc.md)
		if status != http.StatusBadRequest || body["error"] != tc.code || body["client_id"] != nil {
			t.Errorf("%s: %d %v, want 400 %s", tc.name, status, body, tc.code)
		}
	}
	f.mustRegister(`{"redirect_uris":["http://[::1]/cb","http://localhost:8080/cb","https://example.com/cb"]}`)

	f.d.state().mu.Lock()
	f.d.state().maxClients = len(f.d.state().clients)
	f.d.state().mu.Unlock()
	if status, body := f.register(`{"redirect_uris":["https://example.com/cb"]}`); status != http.StatusServiceUnavailable {
		t.Errorf("past the cap on clients: %d %v, want 503", status, body)
	}
}

// TestDevASAuthorizeRefusals: authorization requests the server must
// refuse, shown for a bad client or redirect URI, redirected otherwise.
func TestDevASAuthorizeRefusals(t *testing.T) {
	f := startDevFlow(t)
	f.d.SetScopes("files:read")
	id, _ := f.mustRegister(`{"redirect_uris":["` + testRedirect + `","https://app.example.com/cb"],"token_endpoint_auth_method":"none"}`)
	_, challenge := pkce("abc")
	for _, tc := range []struct {
		name   string
		change func(q url.Values)
		code   string // "": shown, not redirected
	}{
		{"unknown client", func(q url.Values) { q.Set("client_id", "nobody") }, ""},
		{"no client", func(q url.Values) { q.Del("client_id") }, ""},
		{"no redirect_uri", func(q url.Values) { q.Del("redirect_uri") }, ""},
		{"wrong redirect_uri", func(q url.Values) { q.Set("redirect_uri", "http://127.0.0.1:4711/other") }, ""},
		{"wrong loopback host", func(q url.Values) { q.Set("redirect_uri", "http://localhost:4711/callback") }, ""},
		{"https port varies not", func(q url.Values) { q.Set("redirect_uri", "https://app.example.com:8443/cb") }, ""},
		{"redirect_uri prefix", func(q url.Values) { q.Set("redirect_uri", "https://app.example.com/cb/more") }, ""},
		{"missing PKCE", func(q url.Values) { q.Del("code_challenge"); q.Del("code_challenge_method") }, "invalid_request"},
		{"plain PKCE", func(q url.Values) { q.Set("code_challenge_method", "plain") }, "invalid_request"},
		{"no PKCE method", func(q url.Values) { q.Del("code_challenge_method") }, "invalid_request"},
		{"short challenge", func(q url.Values) { q.Set("code_challenge", "abc") }, "invalid_request"},
		{"response_type token", func(q url.Values) { q.Set("response_type", "token") }, "unsupported_response_type"},
		{"unsupported scope", func(q url.Values) { q.Set("scope", "files:read admin") }, "invalid_scope"},
		{"relative resource", func(q url.Values) { q.Set("resource", "/mcp") }, "invalid_target"},
		{"resource fragment", func(q url.Values) { q.Set("resource", testResource+"#x") }, "invalid_target"},
		{"two resources", func(q url.Values) { q.Add("resource", "https://b.example.com/mcp") }, "invalid_target"},
	} {
		q := authorizeQuery(id, challenge)
		tc.change(q)
		status, loc := f.authorize(q)
		switch {
		case tc.code == "" && status != http.StatusBadRequest:
			t.Errorf("%s: %d %v, want a 400 page", tc.name, status, loc)
		case tc.code == "":
		case status != http.StatusFound:
			t.Errorf("%s: %d, want a redirect with %s", tc.name, status, tc.code)
		case loc.Query().Get("error") != tc.code || loc.Query().Get("code") != "" ||
			loc.Query().Get("state") != "xyz" || loc.Query().Get("iss") != f.d.Issuer():
			t.Errorf("%s: redirected to %v, want error %s with state and iss", tc.name, loc, tc.code)
		}
	}

	f.d.state().mu.Lock()
	f.d.state().maxCodes = len(f.d.state().codes)
	f.d.state().mu.Unlock()
	if _, loc := f.authorize(authorizeQuery(id, challenge)); loc == nil || loc.Query().Get("error") != "temporarily_unavailable" {
		t.Errorf("past the cap on codes: %v, want temporarily_unavailable", loc)
	}
}

// TestDevASTokenRefusals: token requests the server must refuse, each
// with a fresh code (or none) and the RFC 6749 §5.2 error.
func TestDevASTokenRefusals(t *testing.T) {
	f := startDevFlow(t)
	now := time.Now()
	f.d.state().now = func() time.Time { return now } // before any request
	pub, _ := f.mustRegister(`{"redirect_uris":["` + testRedirect + `"],"token_endpoint_auth_method":"none"}`)
	other, _ := f.mustRegister(`{"redirect_uris":["` + testRedirect + `"],"token_endpoint_auth_method":"none"}`)
	basic, basicSecret := f.mustRegister(`{"redirect_uris":["` + testRedirect + `"],"grant_types":["authorization_code","client_credentials"]}`)
	post, postSecret := f.mustRegister(`{"redirect_uris":["` + testRedirect + `"],"token_endpoint_auth_method":"client_secret_post"}`)
	verifier, challenge := pkce("abc")
	code := func(id string) string {
		_, loc := f.authorize(authorizeQuery(id, challenge))
		if loc == nil || loc.Query().Get("code") == "" {
			t.Fatalf("authorize %s: %v", id, loc)
		}
		return loc.Query().Get("code")
	}
	redeem := func(id, c string) url.Values {
		return url.Values{"grant_type": {"authorization_code"}, "code": {c}, "client_id": {id},
			"redirect_uri": {testRedirect}, "code_verifier": {verifier}}
	}
	for _, tc := range []struct {
		name       string
		form       func() url.Values
		user, pass string
		status     int
		code       string
	}{
		{"wrong verifier", func() url.Values {
			f := redeem(pub, code(pub))
			f.Set("code_verifier", strings.Repeat("x", 43))
			return f
		}, "", "", 400, "invalid_grant"},
		{"no verifier", func() url.Values { f := redeem(pub, code(pub)); f.Del("code_verifier"); return f }, "", "", 400, "invalid_grant"},
		{"wrong redirect_uri", func() url.Values {
			f := redeem(pub, code(pub))
			f.Set("redirect_uri", "http://127.0.0.1:4712/callback")
			return f
		}, "", "", 400, "invalid_grant"},
		{"no redirect_uri", func() url.Values { f := redeem(pub, code(pub)); f.Del("redirect_uri"); return f }, "", "", 400, "invalid_grant"},
		{"another client's code", func() url.Values { return redeem(other, code(pub)) }, "", "", 400, "invalid_grant"},
		{"unknown code", func() url.Values { return redeem(pub, "nothing") }, "", "", 400, "invalid_grant"},
		{"expired code", func() url.Values {
			c := code(pub)
			f.d.state().mu.Lock()
			f.d.state().codes[c].expires = now.Add(-time.Second)
			f.d.state().mu.Unlock()
			return redeem(pub, c)
		}, "", "", 400, "invalid_grant"},
		{"other resource", func() url.Values {
			f := redeem(pub, code(pub))
			f.Set("resource", "https://b.example.com/mcp")
			return f
		}, "", "", 400, "invalid_target"},
		{"unknown client", func() url.Values { return redeem("nobody", code(pub)) }, "", "", 401, "invalid_client"},
		{"wrong basic secret", func() url.Values { return redeem("", code(basic)) }, basic, "wrong", 401, "invalid_client"},
		{"basic client without secret", func() url.Values { return redeem(basic, code(basic)) }, "", "", 401, "invalid_client"},
		{"basic client by post", func() url.Values {
			f := redeem(basic, code(basic))
			f.Set("client_secret", basicSecret)
			return f
		}, "", "", 401, "invalid_client"},
		{"wrong post secret", func() url.Values { f := redeem(post, code(post)); f.Set("client_secret", "wrong"); return f }, "", "", 401, "invalid_client"},
		{"post client by basic", func() url.Values { return redeem("", code(post)) }, post, postSecret, 401, "invalid_client"},
		{"public client with a secret", func() url.Values { f := redeem(pub, code(pub)); f.Set("client_secret", "x"); return f }, "", "", 401, "invalid_client"},
		{"two methods", func() url.Values {
			f := redeem(post, code(post))
			f.Set("client_secret", postSecret)
			return f
		}, post, postSecret, 400, "invalid_request"},
		{"unknown grant", func() url.Values { return url.Values{"grant_type": {"password"}, "client_id": {pub}} }, "", "", 400, "unsupported_grant_type"},
		{"public client_credentials", func() url.Values { return url.Values{"grant_type": {"client_credentials"}, "client_id": {pub}} }, "", "", 400, "unauthorized_client"},
		{"unregistered client_credentials", func() url.Values {
			return url.Values{"grant_type": {"client_credentials"}, "client_id": {post}, "client_secret": {postSecret}}
		}, "", "", 400, "unauthorized_client"},
		{"unknown refresh token", func() url.Values {
			return url.Values{"grant_type": {"refresh_token"}, "refresh_token": {"nothing"}, "client_id": {pub}}
		}, "", "", 400, "invalid_grant"},
	} {
		status, body := f.tokenRequest(tc.form(), tc.user, tc.pass)
		if status != tc.status || body["error"] != tc.code || body["access_token"] != nil {
			t.Errorf("%s: %d %v, want %d %s", tc.name, status, body, tc.status, tc.code)
		}
	}

	// A code is good once; the second try also revokes the refresh token
	// the first one gave (RFC 6749 §4.1.2).
	form := redeem(pub, code(pub))
	status, tok := f.tokenRequest(form, "", "")
	if status != http.StatusOK {
		t.Fatalf("redeem: %d %v", status, tok)
	}
	if status, body := f.tokenRequest(form, "", ""); status != 400 || body["error"] != "invalid_grant" {
		t.Errorf("reused code: %d %v, want 400 invalid_grant", status, body)
	}
	refresh := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {pub}}
	if status, body := f.tokenRequest(refresh, "", ""); status != 400 || body["error"] != "invalid_grant" {
		t.Errorf("refresh token of a reused code: %d %v, want 400 invalid_grant", status, body)
	}
	// A code that failed once (wrong verifier) is spent too.
	form = redeem(pub, code(pub))
	good := form.Get("code_verifier")
	form.Set("code_verifier", strings.Repeat("y", 43))
	f.tokenRequest(form, "", "")
	form.Set("code_verifier", good)
	if status, body := f.tokenRequest(form, "", ""); status != 400 || body["error"] != "invalid_grant" {
		t.Errorf("code after a wrong verifier: %d %v, want 400 invalid_grant", status, body)
	}
	// Another client cannot use a refresh token.
	form = redeem(pub, code(pub))
	_, tok = f.tokenRequest(form, "", "")
	refresh = url.Values{"grant_type": {"refresh_token"}, "refresh_token": {tok["refresh_token"].(string)}, "client_id": {other}}
	if status, body := f.tokenRequest(refresh, "", ""); status != 400 || body["error"] != "invalid_grant" {
		t.Errorf("another client's refresh token: %d %v, want 400 invalid_grant", status, body)
	}
}

// TestDevASMethods: the endpoints answer only their methods, and the token
// endpoint only form bodies.
func TestDevASMethods(t *testing.T) {
	f := startDevFlow(t)
	for _, tc := range []struct{ method, endpoint string }{
		{http.MethodGet, "token_endpoint"}, {http.MethodGet, "registration_endpoint"}, {http.MethodPost, "authorization_endpoint"},
	} {
		req, _ := http.NewRequest(tc.method, f.endpoint(tc.endpoint), nil)
		resp, err := f.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusMethodNotAllowed {
			t.Errorf("%s %s: %d, want 405", tc.method, tc.endpoint, resp.StatusCode)
		}
	}
	resp, err := f.client.Post(f.endpoint("token_endpoint"), "application/json", strings.NewReader(`{"grant_type":"client_credentials"}`))
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	if resp.StatusCode != http.StatusBadRequest {
		t.Errorf("a JSON token request: %d, want 400", resp.StatusCode)
	}
}
