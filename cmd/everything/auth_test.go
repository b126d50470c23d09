package main

import (
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"io"
	"net/http"
	"net/url"
	"os/exec"
	"regexp"
	"strings"
	"syscall"
	"testing"
	"time"
)

// -auth dev goes with -http on a loopback address only.
func TestAuthFlag(t *testing.T) {
	for _, http := range []string{"127.0.0.1:0", "localhost:8080", "[::1]:0"} {
		s, err := parseFlags([]string{"-auth", "dev", "-http", http}, io.Discard)
		if err != nil || s.auth != authDev {
			t.Errorf("-auth dev -http %s: %+v, %v", http, s, err)
		}
	}
}

// With -auth dev, the endpoint refuses a request without a token (401,
// its challenge naming the metadata document), and takes a token that a
// client gets from the development authorization server as a real one
// would: metadata document, authorization server metadata, registration,
// authorization with PKCE (the redirect not followed), token.
func TestAuthDevProtectsTheEndpoint(t *testing.T) {
	cmd, endpoint := startAuthDev(t)

	call := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"test_simple_text","arguments":{},` +
		`"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},` +
		`"io.modelcontextprotocol/clientInfo":{"name":"auth-test","version":"1"}}}}`
	headers := map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "test_simple_text"}
	resp, body := post(t, endpoint, call, headers)
	challenge := resp.Header.Get("WWW-Authenticate")
	m := regexp.MustCompile(`resource_metadata="([^"]+)"`).FindStringSubmatch(challenge)
	if resp.StatusCode != http.StatusUnauthorized || !strings.HasPrefix(challenge, "Bearer ") || m == nil {
		t.Fatalf("without a token: %d, WWW-Authenticate %q, %s; want 401 naming resource_metadata", resp.StatusCode, challenge, body)
	}

	c := &http.Client{Timeout: 10 * time.Second, CheckRedirect: func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }}
	var prm struct {
		Resource             string   `json:"resource"`
		AuthorizationServers []string `json:"authorization_servers"`
	}
	getJSON(t, c, m[1], &prm)
	if prm.Resource != endpoint || len(prm.AuthorizationServers) != 1 {
		t.Fatalf("protected resource metadata: %+v, want the resource %s and one server", prm, endpoint)
	}
	var as struct {
		Issuer                string `json:"issuer"`
		AuthorizationEndpoint string `json:"authorization_endpoint"`
		TokenEndpoint         string `json:"token_endpoint"`
		RegistrationEndpoint  string `json:"registration_endpoint"`
	}
	getJSON(t, c, prm.AuthorizationServers[0]+"/.well-known/oauth-authorization-server", &as)
	if as.Issuer != prm.AuthorizationServers[0] || as.RegistrationEndpoint == "" {
		t.Fatalf("authorization server metadata: %+v", as)
	}

	const redirect = "http://127.0.0.1:9/callback"
	resp, err := c.Post(as.RegistrationEndpoint, "application/json",
		strings.NewReader(`{"redirect_uris":["`+redirect+`"],"token_endpoint_auth_method":"none","client_name":"auth-test"}`))
	if err != nil {
		t.Fatal(err)
	}
	var client struct {
		ClientID string `json:"client_id"`
	}
	json.NewDecoder(resp.Body).Decode(&client)
	resp.Body.Close()
	if resp.StatusCode != http.StatusCreated || client.ClientID == "" {
		t.Fatalf("register: %d %+v", resp.StatusCode, client)
	}

	verifier := strings.Repeat("v", 50)
	sum := sha256.Sum256([]byte(verifier))
	resp, err = c.Get(as.AuthorizationEndpoint + "?" + url.Values{
		"response_type": {"code"}, "client_id": {client.ClientID}, "redirect_uri": {redirect}, "state": {"s1"},
		"code_challenge": {base64.RawURLEncoding.EncodeToString(sum[:])}, "code_challenge_method": {"S256"},
		"resource": {endpoint},
	}.Encode())
	if err != nil {
		t.Fatal(err)
	}
	resp.Body.Close()
	loc, err := url.Parse(resp.Header.Get("Location"))
	if err != nil || resp.StatusCode != http.StatusFound || loc.Query().Get("code") == "" || loc.Query().Get("state") != "s1" {
		t.Fatalf("authorize: %d, Location %q", resp.StatusCode, resp.Header.Get("Location"))
	}

	token := func() string {
		form := url.Values{"grant_type": {"authorization_code"}, "client_id": {client.ClientID},
			"redirect_uri": {redirect}, "code_verifier": {verifier}, "code": {loc.Query().Get("code")}}
		resp, err := c.PostForm(as.TokenEndpoint, form)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		var tok struct {
			AccessToken string `json:"access_token"`
		}
		json.NewDecoder(resp.Body).Decode(&tok)
		if resp.StatusCode != http.StatusOK || tok.AccessToken == "" {
			t.Fatalf("token: %d", resp.StatusCode)
		}
		return tok.AccessToken
	}
	headers["Authorization"] = "Bearer " + token()
	resp, body = post(t, endpoint, call, headers)
	if resp.StatusCode != http.StatusOK || !strings.Contains(string(body), "This is a simple text response for testing.") {
		t.Errorf("with the token: %d %s, want 200 and the tool's text", resp.StatusCode, body)
	}

	headers["Authorization"] = "Bearer " + strings.Repeat("x", 20)
	if resp, body = post(t, endpoint, call, headers); resp.StatusCode != http.StatusUnauthorized {
		t.Errorf("with a bad token: %d %s, want 401", resp.StatusCode, body)
	}

	cmd.Process.Signal(syscall.SIGTERM)
	awaitCleanExit(t, cmd)
}

// getJSON decodes the JSON at u into v.
func getJSON(t *testing.T, c *http.Client, u string, v any) {
	t.Helper()
	resp, err := c.Get(u)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		t.Fatalf("GET %s: %d", u, resp.StatusCode)
	}
	if err := json.NewDecoder(resp.Body).Decode(v); err != nil {
		t.Fatalf("GET %s: %v", u, err)
	}
}

// startAuthDev starts everything -http -auth dev on a loopback port and
// returns it with its endpoint; the test's cleanup kills it.
func startAuthDev(t *testing.T) (*exec.Cmd, string) {
	t.Helper()
	return startHTTP(t, "-auth", "dev")
}
