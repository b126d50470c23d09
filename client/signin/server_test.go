package signin_test

import (
	"context"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/dpop"
	"github.com/mcpwire/mcpwire/oauth"
)

// testServer is an MCP endpoint (/mcp, which answers "ok" to a good
// token) with its authorization server on one loopback origin, and knobs
// that make either misbehave as the refusals under test need.
type testServer struct {
	*httptest.Server
	t *testing.T

	// Knobs, set before the first request.
	prmResource  string        // "" is the endpoint
	issuer       string        // the metadata's issuer; "" is the right one
	pkce         []string      // code_challenge_methods_supported; nil is S256
	iss          string        // the iss of the redirect: "" right, "-" none, else that
	wrongState   bool          // the redirect carries another state
	scope        string        // the scope the endpoint wants ("" any token)
	refreshToken bool          // issue refresh tokens
	expiresIn    int           // expires_in of tokens (0: not said)
	asPrefix     string        // where the metadata says the AS lives (another origin, for tests)
	withhold     string        // a scope the AS never grants
	dpop         *dpop.Checker // set: token requests with a DPoP proof get tokens bound to its key

	mu        sync.Mutex
	tokens    map[string]string // access token → its scope
	bound     map[string]string // access token → the thumbprint it is bound to
	refreshes map[string]string // refresh token → its scope
	challenge string            // the code_challenge of the last authorization
	resource  string            // the resource of the last authorization
	seen      []string          // Authorization headers the endpoint got

	authorizations, grants, registrations atomic.Int32
}

func newTestServer(t *testing.T) *testServer {
	s := exampleServer()
	s.t = t
	t.Cleanup(s.Close)
	return s
}

// exampleServer is a testServer for an Example; Close stops it.
func exampleServer() *testServer {
	s := &testServer{tokens: map[string]string{}, refreshes: map[string]string{}, bound: map[string]string{}}
	s.Server = httptest.NewServer(http.HandlerFunc(s.serve))
	return s
}

// exampleGet GETs endpoint through f and returns the body.
func exampleGet(f *signin.Flow, endpoint string) (string, error) {
	rt, err := f.Wrap(endpoint, nil)
	if err != nil {
		return "", err
	}
	resp, err := (&http.Client{Transport: rt}).Get(endpoint)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, err := io.ReadAll(resp.Body)
	return string(b), err
}

func (s *testServer) endpoint() string { return s.URL + "/mcp" }

func (s *testServer) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case "/mcp":
		s.mcp(w, r)
	case "/.well-known/oauth-protected-resource/mcp":
		res := s.prmResource
		if res == "" {
			res = s.endpoint()
		}
		writeJSON(w, 200, map[string]any{"resource": res, "authorization_servers": []string{s.URL}})
	case "/.well-known/oauth-authorization-server":
		iss := s.issuer
		if iss == "" {
			iss = s.URL
		}
		pkce := s.pkce
		if pkce == nil {
			pkce = []string{"S256"}
		}
		base := s.URL
		if s.asPrefix != "" {
			base = s.asPrefix
		}
		writeJSON(w, 200, map[string]any{
			"issuer": iss, "authorization_endpoint": base + "/authorize", "token_endpoint": base + "/token",
			"registration_endpoint": base + "/register", "code_challenge_methods_supported": pkce,
			"token_endpoint_auth_methods_supported":          []string{"none", "client_secret_basic"},
			"authorization_response_iss_parameter_supported": true,
		})
	case "/register":
		s.registrations.Add(1)
		writeJSON(w, 201, map[string]any{"client_id": "client-1"})
	case "/authorize":
		s.authorize(w, r)
	case "/token":
		s.token(w, r)
	default:
		http.NotFound(w, r)
	}
}

func (s *testServer) mcp(w http.ResponseWriter, r *http.Request) {
	auth := r.Header.Get("Authorization")
	s.mu.Lock()
	s.seen = append(s.seen, auth)
	scope, ok := s.tokens[strings.TrimPrefix(auth, "Bearer ")]
	s.mu.Unlock()
	meta := s.URL + "/.well-known/oauth-protected-resource/mcp"
	switch {
	case !ok:
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer resource_metadata="%s"`, meta))
		http.Error(w, "sign in", 401)
	case s.scope != "" && !strings.Contains(" "+scope+" ", " "+s.scope+" "):
		w.Header().Set("WWW-Authenticate", fmt.Sprintf(`Bearer error="insufficient_scope", scope="%s", resource_metadata="%s"`, s.scope, meta))
		http.Error(w, "more scope", 403)
	default:
		fmt.Fprint(w, "ok")
	}
}

func (s *testServer) authorize(w http.ResponseWriter, r *http.Request) {
	s.authorizations.Add(1)
	q := r.URL.Query()
	s.mu.Lock()
	s.challenge, s.resource = q.Get("code_challenge"), q.Get("resource")
	s.mu.Unlock()
	if q.Get("code_challenge_method") != "S256" {
		http.Error(w, "PKCE", 400)
		return
	}
	back, _ := url.Parse(q.Get("redirect_uri"))
	v := back.Query()
	v.Set("code", "code-"+q.Get("scope"))
	v.Set("state", q.Get("state"))
	if s.wrongState {
		v.Set("state", "forged")
	}
	switch s.iss {
	case "":
		v.Set("iss", s.URL)
	case "-":
	default:
		v.Set("iss", s.iss)
	}
	back.RawQuery = v.Encode()
	http.Redirect(w, r, back.String(), http.StatusFound)
}

func (s *testServer) token(w http.ResponseWriter, r *http.Request) {
	r.ParseForm()
	s.mu.Lock()
	defer s.mu.Unlock()
	var scope string
	switch r.Form.Get("grant_type") {
	case "authorization_code":
		sum := sha256.Sum256([]byte(r.Form.Get("code_verifier")))
		if base64.RawURLEncoding.EncodeToString(sum[:]) != s.challenge {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant", "error_description": "PKCE"})
			return
		}
		if r.Form.Get("resource") != s.resource {
			writeJSON(w, 400, map[string]string{"error": "invalid_target"})
			return
		}
		scope = strings.TrimPrefix(r.Form.Get("code"), "code-")
		if s.withhold != "" {
			scope = strings.Join(strings.Fields(strings.ReplaceAll(" "+scope+" ", " "+s.withhold+" ", " ")), " ")
		}
	case "client_credentials":
		if id, secret, ok := r.BasicAuth(); !ok || id == "" || secret == "" {
			writeJSON(w, 401, map[string]string{"error": "invalid_client"})
			return
		}
		scope = r.Form.Get("scope")
	case "refresh_token":
		var ok bool
		if scope, ok = s.refreshes[r.Form.Get("refresh_token")]; !ok {
			writeJSON(w, 400, map[string]string{"error": "invalid_grant"})
			return
		}
	default:
		writeJSON(w, 400, map[string]string{"error": "unsupported_grant_type"})
		return
	}
	var jkt string
	if proof := r.Header.Get("DPoP"); proof != "" && s.dpop != nil {
		var err error
		if jkt, err = s.dpop.Check(r.Context(), proof, r.Method, s.URL+"/token", "", ""); err != nil {
			if errors.Is(err, dpop.ErrUseNonce) {
				w.Header().Set("DPoP-Nonce", s.dpop.Nonce())
				writeJSON(w, 400, map[string]string{"error": "use_dpop_nonce"})
				return
			}
			writeJSON(w, 400, map[string]string{"error": "invalid_dpop_proof"})
			return
		}
	}
	s.grants.Add(1)
	n := s.grants.Load()
	tok := fmt.Sprintf("token-%d", n)
	s.tokens[tok] = scope
	out := map[string]any{"access_token": tok, "token_type": "Bearer", "scope": scope}
	if jkt != "" {
		s.bound[tok], out["token_type"] = jkt, "DPoP"
	}
	if s.refreshToken {
		rt := fmt.Sprintf("refresh-%d", n)
		s.refreshes[rt] = scope
		out["refresh_token"] = rt
	}
	if s.expiresIn != 0 {
		out["expires_in"] = s.expiresIn
	}
	writeJSON(w, 200, out)
}

// revoke makes the endpoint refuse every token issued so far.
func (s *testServer) revoke() {
	s.mu.Lock()
	defer s.mu.Unlock()
	s.tokens = map[string]string{}
}

func writeJSON(w http.ResponseWriter, status int, v any) {
	w.Header().Set("Content-Type", "application/json")
	w.WriteHeader(status)
	json.NewEncoder(w).Encode(v)
}

// verifier is the resource server's view of s's tokens: a token s
// issued names its scope and, when bound, its key (cnf.jkt).
func (s *testServer) verifier() oauth.Verifier {
	return oauth.VerifierFunc(func(_ context.Context, token, _ string) (*auth.Principal, error) {
		s.mu.Lock()
		defer s.mu.Unlock()
		scope, ok := s.tokens[token]
		if !ok {
			return nil, fmt.Errorf("unknown token: %w", oauth.ErrInvalidToken)
		}
		p := &auth.Principal{Subject: "user", Scopes: strings.Fields(scope), Claims: map[string]any{}}
		if jkt := s.bound[token]; jkt != "" {
			p.Claims["cnf"] = map[string]any{"jkt": jkt}
		}
		return p, nil
	})
}
