package jwtauth

import (
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/dpop"
	"github.com/mcpwire/mcpwire/oauth"
)

// The "cnf" claim (RFC 9449 §6.1) reaches the principal as a map holding
// "jkt"; a malformed one refuses the token.
func TestConfirmationClaim(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	key, err := dpop.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	p := e.mustVerify(e.token(map[string]any{"cnf": map[string]any{"jkt": key.Thumbprint()}}))
	cnf, ok := p.Claims["cnf"].(map[string]any)
	if !ok || cnf["jkt"] != key.Thumbprint() {
		t.Fatalf("Claims[cnf] = %#v", p.Claims["cnf"])
	}
	e.mustVerify(e.token(map[string]any{"cnf": map[string]any{"x5t#S256": "abc"}}))
	for _, cnf := range []any{"jkt", []string{"jkt"}, map[string]any{"jkt": 7}, map[string]any{"jkt": "short"}, map[string]any{"jkt": key.Thumbprint() + "="}} {
		e.mustRefuse(e.token(map[string]any{"cnf": cnf}), ErrMalformed)
	}
}

// A token a DevIssuer signs with cnf.jkt, checked by a Verifier through
// an oauth.ResourceServer with DPoP on: the proof of the bound key
// passes, that of another key and a Bearer presentation do not.
func TestDPoPBoundTokenThroughOAuth(t *testing.T) {
	d, err := StartDevIssuer()
	if err != nil {
		t.Fatal(err)
	}
	defer d.Close()
	v, err := New(Config{Issuer: d.Issuer()})
	if err != nil {
		t.Fatal(err)
	}
	const resource = "https://mcp.example.com/mcp"
	checker, err := dpop.NewChecker(dpop.Options{})
	if err != nil {
		t.Fatal(err)
	}
	rs, err := oauth.NewResourceServer(v, oauth.Options{
		Resource: resource, AuthorizationServers: []string{d.Issuer()}, DPoP: checker,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	key, _ := dpop.GenerateKey()
	other, _ := dpop.GenerateKey()
	now := time.Now()
	tok, err := d.Sign(map[string]any{
		"iss": d.Issuer(), "sub": "alice", "aud": resource, "scope": "mcp",
		"iat": now.Unix(), "exp": now.Add(time.Hour).Unix(),
		"cnf": map[string]any{"jkt": key.Thumbprint()},
	})
	if err != nil {
		t.Fatal(err)
	}
	var seen *auth.Principal
	h := rs.Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { seen = auth.PrincipalFrom(r.Context()) }))
	send := func(scheme string, k *dpop.Key) *httptest.ResponseRecorder {
		seen = nil
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Header.Set("Authorization", scheme+" "+tok)
		if k != nil {
			proof, err := k.Proof(http.MethodPost, resource, tok, "")
			if err != nil {
				t.Fatal(err)
			}
			req.Header.Set("DPoP", proof)
		}
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	if rec := send("DPoP", key); rec.Code != 200 || seen == nil || seen.Subject != "alice" {
		t.Fatalf("the bound key: %d %s", rec.Code, rec.Body)
	}
	if rec := send("DPoP", other); rec.Code != 401 || !strings.Contains(rec.Body.String(), "invalid_dpop_proof") || seen != nil {
		t.Errorf("another key: %d %s", rec.Code, rec.Body)
	}
	if rec := send("Bearer", nil); rec.Code != 401 || !strings.Contains(rec.Body.String(), "invalid_token") || seen != nil {
		t.Errorf("as Bearer: %d %s", rec.Code, rec.Body)
	}
}
