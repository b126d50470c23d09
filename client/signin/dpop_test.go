package signin_test

import (
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/dpop"
	"github.com/mcpwire/mcpwire/oauth"
)

// recorder keeps the DPoP proofs and Authorization headers a transport
// sends.
type recorder struct {
	base   http.RoundTripper
	mu     sync.Mutex
	proofs []string
	auths  []string
}

func (r *recorder) RoundTrip(req *http.Request) (*http.Response, error) {
	r.mu.Lock()
	r.proofs = append(r.proofs, req.Header.Get("DPoP"))
	r.auths = append(r.auths, req.Header.Get("Authorization"))
	r.mu.Unlock()
	return r.base.RoundTrip(req)
}

// Our client against our resource server, both with DPoP and nonces
// required at the authorization server and the resource: the client
// signs in, follows both nonces, and its token works only with its
// proofs: a replayed proof, a proof of another key and the token sent as
// Bearer are each refused.
func TestDPoPEndToEnd(t *testing.T) {
	as := newTestServer(t)
	var err error
	if as.dpop, err = dpop.NewChecker(dpop.Options{RequireNonce: true}); err != nil {
		t.Fatal(err)
	}
	rsCheck, err := dpop.NewChecker(dpop.Options{RequireNonce: true})
	if err != nil {
		t.Fatal(err)
	}
	mux := http.NewServeMux()
	rsSrv := httptest.NewServer(mux)
	defer rsSrv.Close()
	endpoint := rsSrv.URL + "/mcp"
	rs, err := oauth.NewResourceServer(as.verifier(), oauth.Options{
		Resource: endpoint, AuthorizationServers: []string{as.URL}, DPoP: rsCheck, DPoPRequired: true,
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)),
	})
	if err != nil {
		t.Fatal(err)
	}
	rs.Mount(mux, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { fmt.Fprint(w, "ok") }))

	key, err := dpop.GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	f, _ := newFlow(t, signin.Config{DPoP: key})
	rec := &recorder{base: http.DefaultTransport}
	rt, err := f.Wrap(endpoint, rec)
	if err != nil {
		t.Fatal(err)
	}
	c := &http.Client{Transport: rt}
	for range 2 {
		resp, err := c.Post(endpoint, "application/json", strings.NewReader(`{}`))
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != 200 {
			t.Fatalf("HTTP %d", resp.StatusCode)
		}
	}
	rec.mu.Lock()
	last, auth := rec.proofs[len(rec.proofs)-1], rec.auths[len(rec.auths)-1]
	rec.mu.Unlock()
	if !strings.HasPrefix(auth, "DPoP ") || last == "" {
		t.Fatalf("the last request carried the scheme %q and a proof: %v", auth[:min(len(auth), 5)], last != "")
	}
	token := strings.TrimPrefix(auth, "DPoP ")
	other, _ := dpop.GenerateKey()
	otherProof, _ := other.Proof(http.MethodPost, endpoint, token, rsCheck.Nonce())
	for _, tc := range []struct {
		name, authz, proof string
	}{
		{"replayed proof", auth, last},
		{"proof of another key", auth, otherProof},
		{"bound token as Bearer", "Bearer " + token, ""},
		{"no proof", auth, ""},
	} {
		req, _ := http.NewRequest(http.MethodPost, endpoint, strings.NewReader(`{}`))
		req.Header.Set("Authorization", tc.authz)
		if tc.proof != "" {
			req.Header.Set("DPoP", tc.proof)
		}
		resp, err := http.DefaultTransport.RoundTrip(req)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
		if resp.StatusCode != http.StatusUnauthorized {
			t.Errorf("%s: HTTP %d, want 401", tc.name, resp.StatusCode)
		}
	}
}
