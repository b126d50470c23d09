package jwtauth

import (
	"context"
	"encoding/json"
	"errors"
	"net"
	"net/http"
	"strings"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/mcpwire/mcpwire/auth"
)

// testResource is the audience the tests' tokens are for.
const testResource = "https://mcp.example.com/mcp"

// t0 is the tests' present time.
var t0 = time.Unix(1_800_000_000, 0)

// clock is a settable time source.
type clock struct {
	mu  sync.Mutex
	now time.Time
}

func (c *clock) Now() time.Time {
	c.mu.Lock()
	defer c.mu.Unlock()
	return c.now
}

func (c *clock) advance(d time.Duration) {
	c.mu.Lock()
	c.now = c.now.Add(d)
	c.mu.Unlock()
}

// env is a development issuer served over loopback HTTP whose key set
// requests are counted, can be made to fail or wait, and carry a chosen
// Cache-Control; and a verifier for it on a test clock.
type env struct {
	t     *testing.T
	dev   *DevIssuer
	clock *clock
	v     *Verifier

	jwksFetches  atomic.Int32
	metaFetches  atomic.Int32
	fail         atomic.Bool
	cacheControl atomic.Value // string
	gateMu       sync.Mutex
	gate         chan struct{}     // when non-nil, key set requests wait for it to close
	metadata     map[string]string // when non-nil, served in place of the real metadata, "$issuer" and "$jwks" replaced
}

// newEnv starts an issuer whose signing key is for alg and a verifier
// configured by cfg (Issuer and Now are filled in).
func newEnv(t *testing.T, alg string, cfg Config, opts ...func(*env)) *env {
	t.Helper()
	e := &env{t: t, clock: &clock{now: t0}}
	e.cacheControl.Store("max-age=300")
	for _, o := range opts {
		o(e)
	}
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	e.dev, err = NewDevIssuer("http://" + ln.Addr().String())
	if err != nil {
		t.Fatal(err)
	}
	if alg != "ES256" {
		old := e.dev.keys[0].KeyID
		e.rotate(alg)
		if err := e.dev.Retire(old); err != nil {
			t.Fatal(err)
		}
	}
	srv := &http.Server{Handler: http.HandlerFunc(e.serve)}
	go srv.Serve(ln)
	t.Cleanup(func() { srv.Close() })
	cfg.Issuer, cfg.Now = e.dev.Issuer(), e.clock.Now
	if e.v, err = New(cfg); err != nil {
		t.Fatal(err)
	}
	return e
}

// serve answers for the issuer, counting requests.
func (e *env) serve(w http.ResponseWriter, r *http.Request) {
	switch r.URL.Path {
	case e.dev.metadataPath:
		e.metaFetches.Add(1)
		if e.metadata != nil {
			md := map[string]string{}
			for k, v := range e.metadata {
				md[k] = strings.NewReplacer("$issuer", e.dev.Issuer(), "$jwks", e.dev.JWKSURI()).Replace(v)
			}
			writeJSON(w, md)
			return
		}
	case e.dev.jwksPath:
		e.jwksFetches.Add(1)
		e.gateMu.Lock()
		gate := e.gate
		e.gateMu.Unlock()
		if gate != nil {
			<-gate
		}
		if e.fail.Load() {
			http.Error(w, "down", http.StatusServiceUnavailable)
			return
		}
		w.Header().Set("Cache-Control", e.cacheControl.Load().(string))
		writeJSON(w, e.dev.publicKeys())
		return
	}
	e.dev.ServeHTTP(w, r)
}

// hold makes key set requests wait until the returned function is called.
func (e *env) hold() (release func()) {
	gate := make(chan struct{})
	e.gateMu.Lock()
	e.gate = gate
	e.gateMu.Unlock()
	return func() {
		e.gateMu.Lock()
		e.gate = nil
		e.gateMu.Unlock()
		close(gate)
	}
}

// rotate makes a new signing key for alg and returns its key id.
func (e *env) rotate(alg string) string {
	e.t.Helper()
	kid, err := e.dev.Rotate(alg)
	if err != nil {
		e.t.Fatal(err)
	}
	return kid
}

// claims returns valid claims at t0, changed by mod (nil values delete).
func (e *env) claims(mod map[string]any) map[string]any {
	c := map[string]any{
		"iss": e.dev.Issuer(), "sub": "alice", "aud": testResource,
		"iat": t0.Unix(), "exp": t0.Add(time.Hour).Unix(),
		"scope": "tools:call resources:read", "client_id": "c1",
	}
	for k, v := range mod {
		if v == nil {
			delete(c, k)
		} else {
			c[k] = v
		}
	}
	return c
}

// token signs claims changed by mod with the current key.
func (e *env) token(mod map[string]any) string {
	return e.tokenWith(e.signingKey(), mod, nil)
}

// tokenWith signs claims changed by mod with k, with "typ" at+jwt and the
// headers hdr (nil values delete).
func (e *env) tokenWith(k jose.JSONWebKey, mod map[string]any, hdr map[jose.HeaderKey]any) string {
	e.t.Helper()
	h := map[jose.HeaderKey]any{"typ": "at+jwt"}
	for name, v := range hdr {
		h[name] = v
	}
	tok, err := sign(k, e.claims(mod), h)
	if err != nil {
		e.t.Fatal(err)
	}
	return tok
}

// signingKey returns the issuer's current private key.
func (e *env) signingKey() jose.JSONWebKey {
	e.dev.mu.Lock()
	defer e.dev.mu.Unlock()
	return e.dev.keys[len(e.dev.keys)-1]
}

// verify verifies tok for testResource.
func (e *env) verify(tok string) (*auth.Principal, error) {
	return e.v.Verify(context.Background(), tok, testResource)
}

// mustVerify fails the test unless tok verifies.
func (e *env) mustVerify(tok string) *auth.Principal {
	e.t.Helper()
	p, err := e.verify(tok)
	if err != nil {
		e.t.Fatalf("Verify: %v", err)
	}
	return p
}

// mustRefuse fails the test unless tok is refused with want.
func (e *env) mustRefuse(tok string, want error) {
	e.t.Helper()
	_, err := e.verify(tok)
	if !errors.Is(err, want) {
		e.t.Fatalf("Verify: got %v, want %v", err, want)
	}
}

// fetches returns the number of key set requests once no fetch is under
// way (a refresh may run in the background).
func (e *env) fetches() int {
	e.t.Helper()
	for range 500 {
		e.v.keys.mu.Lock()
		busy := e.v.keys.inflight != nil
		e.v.keys.mu.Unlock()
		if !busy {
			return int(e.jwksFetches.Load())
		}
		time.Sleep(2 * time.Millisecond)
	}
	e.t.Fatal("a key set fetch is still under way")
	return 0
}

// wantFetches fails the test unless the key set was requested n times.
func (e *env) wantFetches(n int) {
	e.t.Helper()
	if got := e.fetches(); got != n {
		e.t.Fatalf("key set fetched %d times, want %d", got, n)
	}
}

// writeJSON writes v as the response body.
func writeJSON(w http.ResponseWriter, v any) {
	json.NewEncoder(w).Encode(v)
}
