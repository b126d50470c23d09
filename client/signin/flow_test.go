package signin_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"net/url"
	"strings"
	"sync"
	"testing"

	"github.com/mcpwire/mcpwire/client/signin"
)

// newFlow is a Flow for s's endpoint that follows the redirect itself.
func newFlow(t *testing.T, cfg signin.Config) (*signin.Flow, *http.Client) {
	t.Helper()
	if cfg.RedirectURL == "" {
		cfg.RedirectURL = "http://127.0.0.1:9/callback"
	}
	if cfg.Authorize == nil {
		cfg.Authorize = signin.FollowRedirect(nil)
	}
	f, err := signin.New(cfg)
	if err != nil {
		t.Fatal(err)
	}
	return f, nil
}

// get GETs the endpoint through f and returns the body or the error.
func get(t *testing.T, f *signin.Flow, endpoint string) (string, error) {
	t.Helper()
	rt, err := f.Wrap(endpoint, nil)
	if err != nil {
		t.Fatal(err)
	}
	resp, err := (&http.Client{Transport: rt}).Get(endpoint)
	if err != nil {
		return "", err
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	if resp.StatusCode != 200 {
		return "", errors.New(resp.Status + ": " + string(b))
	}
	return string(b), nil
}

// A server that asks gets a token: discovery, registration, PKCE, the
// resource indicator, then the request again; the next request uses the
// token without a new sign-in.
func TestSignIn(t *testing.T) {
	s := newTestServer(t)
	f, _ := newFlow(t, signin.Config{})
	for range 3 {
		if body, err := get(t, f, s.endpoint()); err != nil || body != "ok" {
			t.Fatalf("got %q, %v", body, err)
		}
	}
	if a, r := s.authorizations.Load(), s.registrations.Load(); a != 1 || r != 1 {
		t.Errorf("%d authorizations and %d registrations, want 1 and 1", a, r)
	}
	if s.resource != s.endpoint() {
		t.Errorf("resource %q, want %q", s.resource, s.endpoint())
	}
}

// Each rule of a sign-in refuses before the code reaches the token
// endpoint, with the rule's error.
func TestRefusals(t *testing.T) {
	for _, tc := range []struct {
		name string
		set  func(*testServer)
		want error
	}{
		{"metadata names another issuer", func(s *testServer) { s.issuer = "https://attacker.example.com" }, signin.ErrIssuerMismatch},
		{"metadata names another resource", func(s *testServer) { s.prmResource = "https://evil.example.com/mcp" }, signin.ErrResourceMismatch},
		{"resource on the same origin but elsewhere", func(s *testServer) { s.prmResource = s.URL + "/other" }, signin.ErrResourceMismatch},
		{"no PKCE S256", func(s *testServer) { s.pkce = []string{"plain"} }, signin.ErrNoPKCE},
		{"iss missing though advertised", func(s *testServer) { s.iss = "-" }, signin.ErrIssuerMismatch},
		{"iss of another issuer", func(s *testServer) { s.iss = "https://evil.example.com" }, signin.ErrIssuerMismatch},
		{"iss equal only after normalization", func(s *testServer) { s.iss = s.URL + "/" }, signin.ErrIssuerMismatch},
		{"state forged", func(s *testServer) { s.wrongState = true }, signin.ErrStateMismatch},
		{"authorization server over plain http off loopback", func(s *testServer) { s.asPrefix = "http://auth.example.com" }, signin.ErrInsecure},
	} {
		t.Run(tc.name, func(t *testing.T) {
			s := newTestServer(t)
			tc.set(s)
			f, _ := newFlow(t, signin.Config{})
			_, err := get(t, f, s.endpoint())
			if !errors.Is(err, tc.want) {
				t.Fatalf("got %v, want %v", err, tc.want)
			}
			if n := s.grants.Load(); n != 0 {
				t.Errorf("%d tokens issued; the refusal must come first", n)
			}
		})
	}
}

// A token goes to the origin it was issued for and to no other, even
// through the same transport.
func TestNoTokenToAnotherOrigin(t *testing.T) {
	s := newTestServer(t)
	var got []string
	var mu sync.Mutex
	other := httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		mu.Lock()
		got = append(got, r.Header.Get("Authorization"))
		mu.Unlock()
		if r.URL.Path == "/hop" {
			http.Redirect(w, r, s.endpoint(), http.StatusTemporaryRedirect)
			return
		}
		w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="`+s.URL+`/.well-known/oauth-protected-resource/mcp"`)
		http.Error(w, "no", 401)
	}))
	defer other.Close()
	f, _ := newFlow(t, signin.Config{})
	rt, _ := f.Wrap(s.endpoint(), nil)
	c := &http.Client{Transport: rt}
	if body, err := get(t, f, s.endpoint()); err != nil || body != "ok" {
		t.Fatalf("sign-in: %q, %v", body, err)
	}
	for _, u := range []string{other.URL + "/mcp", other.URL + "/hop"} {
		resp, err := c.Get(u)
		if err != nil {
			t.Fatal(err)
		}
		resp.Body.Close()
	}
	mu.Lock()
	defer mu.Unlock()
	for _, h := range got {
		if h != "" {
			t.Errorf("another origin got Authorization %q", h)
		}
	}
	if len(got) != 2 {
		t.Errorf("the other origin got %d requests, want 2", len(got))
	}
}

// Many requests refused at once lead to one sign-in.
func TestSingleFlight(t *testing.T) {
	s := newTestServer(t)
	f, _ := newFlow(t, signin.Config{})
	var wg sync.WaitGroup
	errs := make(chan error, 16)
	for range 16 {
		wg.Add(1)
		go func() {
			defer wg.Done()
			if _, err := get(t, f, s.endpoint()); err != nil {
				errs <- err
			}
		}()
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := s.authorizations.Load(); n != 1 {
		t.Errorf("%d authorizations, want 1", n)
	}
}

// 403 insufficient_scope asks again with the union of the scopes; a
// server that wants what was granted already is not asked again.
func TestStepUp(t *testing.T) {
	s := newTestServer(t)
	f, _ := newFlow(t, signin.Config{})
	if _, err := get(t, f, s.endpoint()); err != nil {
		t.Fatal(err)
	}
	s.scope = "files:write"
	if body, err := get(t, f, s.endpoint()); err != nil || body != "ok" {
		t.Fatalf("step-up: %q, %v", body, err)
	}
	if n := s.authorizations.Load(); n != 2 {
		t.Errorf("%d authorizations, want 2", n)
	}
	s.scope, s.withhold = "admin", "admin" // never granted: hopeless
	_, err := get(t, f, s.endpoint())
	if !errors.Is(err, signin.ErrDenied) {
		t.Fatalf("got %v, want ErrDenied", err)
	}
	if n := s.authorizations.Load(); n > 5 {
		t.Errorf("%d authorizations: the step-ups are not bounded", n)
	}
}

// An expired token is renewed with its refresh token before it is sent;
// a refused one is renewed with it before a new sign-in.
func TestRefresh(t *testing.T) {
	s := newTestServer(t)
	s.refreshToken = true
	f, _ := newFlow(t, signin.Config{})
	if _, err := get(t, f, s.endpoint()); err != nil {
		t.Fatal(err)
	}
	s.revoke()
	if body, err := get(t, f, s.endpoint()); err != nil || body != "ok" {
		t.Fatalf("after revocation: %q, %v", body, err)
	}
	if a, g := s.authorizations.Load(), s.grants.Load(); a != 1 || g != 2 {
		t.Errorf("%d authorizations and %d grants, want 1 and 2 (a refresh)", a, g)
	}
}

// Tokens are stored under the resource, the issuer and the client; a
// second Flow over the same Store signs in without a user.
func TestStore(t *testing.T) {
	s := newTestServer(t)
	st := &recordingStore{Store: signin.MemoryStore()}
	f, _ := newFlow(t, signin.Config{Store: st, ClientID: "pre", Issuer: s.URL})
	if _, err := get(t, f, s.endpoint()); err != nil {
		t.Fatal(err)
	}
	want := signin.Key{Resource: s.endpoint(), Issuer: s.URL, ClientID: "pre"}
	if len(st.keys) != 1 || st.keys[0] != want {
		t.Fatalf("saved under %v, want %v", st.keys, want)
	}
	g, _ := newFlow(t, signin.Config{Store: st, ClientID: "pre", Issuer: s.URL,
		Authorize: func(context.Context, string) (*url.URL, error) { return nil, errors.New("no user here") }})
	if body, err := get(t, g, s.endpoint()); err != nil || body != "ok" {
		t.Fatalf("second flow: %q, %v", body, err)
	}
	if n := s.registrations.Load(); n != 0 {
		t.Errorf("%d registrations with a pre-registered client", n)
	}
}

// What a sign-in logs holds no token, code, verifier or state.
func TestLogsNoSecret(t *testing.T) {
	s := newTestServer(t)
	s.refreshToken = true
	var buf bytes.Buffer
	f, _ := newFlow(t, signin.Config{Logger: slog.New(slog.NewTextHandler(&buf, &slog.HandlerOptions{Level: slog.LevelDebug}))})
	if _, err := get(t, f, s.endpoint()); err != nil {
		t.Fatal(err)
	}
	s.revoke()
	if _, err := get(t, f, s.endpoint()); err != nil {
		t.Fatal(err)
	}
	for _, secret := range []string{"token-", "refresh-", "code-", s.challenge} {
		if strings.Contains(buf.String(), secret) {
			t.Errorf("the log holds %q:\n%s", secret, buf.String())
		}
	}
	tok := &signin.Token{AccessToken: "token-x", RefreshToken: "refresh-x", Type: "Bearer"}
	if strings.Contains(tok.String(), "-x") {
		t.Errorf("Token.String shows a secret: %s", tok)
	}
}

type recordingStore struct {
	signin.Store
	mu   sync.Mutex
	keys []signin.Key
}

func (r *recordingStore) Save(ctx context.Context, k signin.Key, t *signin.Token) error {
	r.mu.Lock()
	if t != nil && !containsKey(r.keys, k) {
		r.keys = append(r.keys, k)
	}
	r.mu.Unlock()
	return r.Store.Save(ctx, k, t)
}

func containsKey(ks []signin.Key, k signin.Key) bool {
	for _, x := range ks {
		if x == k {
			return true
		}
	}
	return false
}

// Loopback takes the browser's redirect on its port: here the "browser"
// follows the authorization server's redirect to it.
func TestLoopback(t *testing.T) {
	s := newTestServer(t)
	lb, err := signin.ListenLoopback()
	if err != nil {
		t.Fatal(err)
	}
	defer lb.Close()
	lb.Open = func(u string) error {
		go func() {
			resp, err := http.Get(u) // follows the redirect to the loopback port
			if err == nil {
				resp.Body.Close()
			}
		}()
		return nil
	}
	if !strings.HasPrefix(lb.RedirectURL(), "http://127.0.0.1:") {
		t.Fatalf("redirect URL %s", lb.RedirectURL())
	}
	f, _ := newFlow(t, signin.Config{RedirectURL: lb.RedirectURL(), Authorize: lb.Authorize})
	if body, err := get(t, f, s.endpoint()); err != nil || body != "ok" {
		t.Fatalf("got %q, %v", body, err)
	}
}
