package main

import (
	"encoding/json"
	"fmt"
	"net/http"
	"net/url"
	"strings"
	"sync/atomic"
	"testing"
)

// signInServer wraps an MCP endpoint in a protected resource with its own
// authorization server on the same origin, which approves every request
// and issues token.
func signInServer(token string, authorized *atomic.Int32) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			base := "http://" + r.Host
			js := func(v any) {
				w.Header().Set("Content-Type", "application/json")
				json.NewEncoder(w).Encode(v)
			}
			switch r.URL.Path {
			case "/.well-known/oauth-protected-resource/mcp":
				js(map[string]any{"resource": base + "/mcp", "authorization_servers": []string{base}})
			case "/.well-known/oauth-authorization-server":
				js(map[string]any{"issuer": base, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
					"registration_endpoint": base + "/register", "code_challenge_methods_supported": []string{"S256"},
					"token_endpoint_auth_methods_supported": []string{"none"}})
			case "/register":
				w.WriteHeader(http.StatusCreated)
				js(map[string]any{"client_id": "check"})
			case "/authorize":
				authorized.Add(1)
				back, _ := url.Parse(r.URL.Query().Get("redirect_uri"))
				back.RawQuery = url.Values{"code": {"c"}, "state": {r.URL.Query().Get("state")}}.Encode()
				http.Redirect(w, r, back.String(), http.StatusFound)
			case "/token":
				js(map[string]any{"access_token": token, "token_type": "Bearer"})
			default:
				if r.Header.Get("Authorization") != "Bearer "+token {
					w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s/.well-known/oauth-protected-resource/mcp"`, base))
					http.Error(w, "sign in", http.StatusUnauthorized)
					return
				}
				h.ServeHTTP(w, r)
			}
		})
	}
}

// check --url signs in when the endpoint answers 401: the user's step
// (here a GET that follows the authorization server's redirect to
// check's loopback port) and the token, which is never printed; with
// --no-sign-in it does not. Not parallel: it sets openAuthorization.
func TestURLSignIn(t *testing.T) {
	const token = "tok-5e2d-signed-in-secret"
	var authorized atomic.Int32
	u := inProcess(t, signInServer(token, &authorized))
	saved := openAuthorization
	defer func() { openAuthorization = saved }()
	openAuthorization = func(authURL string) error {
		go func() {
			if resp, err := http.Get(authURL); err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
	res := runCheckCmd(t, "check", "--url", u)
	if res.exit != exitOK || !strings.Contains(res.stdout, "admitted") {
		t.Fatalf("exit %d:\n%s\n%s", res.exit, res.stdout, res.stderr)
	}
	if authorized.Load() != 1 {
		t.Errorf("%d authorizations, want 1", authorized.Load())
	}
	if strings.Contains(res.stdout+res.stderr, token) {
		t.Errorf("the token is printed")
	}
	res = runCheckCmd(t, "check", "--no-sign-in", "--url", u)
	if res.exit != exitNotRun || !strings.Contains(res.stdout, "wants a token") {
		t.Errorf("--no-sign-in: exit %d:\n%s", res.exit, res.stdout)
	}
	if authorized.Load() != 1 {
		t.Errorf("--no-sign-in signed in")
	}
}
