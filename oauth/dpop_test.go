package oauth_test

import (
	"context"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/sha256"
	"encoding/base64"
	"encoding/json"
	"errors"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/dpop"
	"github.com/mcpwire/mcpwire/oauth"
)

var b64 = base64.RawURLEncoding

// rawKey is a P-256 key the tests sign proofs with by hand, to make the
// proofs dpop.Key.Proof never makes.
type rawKey struct {
	pk  *ecdsa.PrivateKey
	jwk map[string]any
	jkt string
}

func newRawKey(t *testing.T) *rawKey {
	pk, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	k, err := dpop.NewKey(pk)
	if err != nil {
		t.Fatal(err)
	}
	raw, _ := pk.PublicKey.Bytes()
	jwk := map[string]any{"kty": "EC", "crv": "P-256", "x": b64.EncodeToString(raw[1:33]), "y": b64.EncodeToString(raw[33:])}
	return &rawKey{pk, jwk, k.Thumbprint()}
}

// proof signs a proof of a POST to testResource with token, with edits to
// the header and claims (a nil value removes a member).
func (k *rawKey) proof(token string, header, claims map[string]any) string {
	sum := sha256.Sum256([]byte(token))
	h := map[string]any{"typ": "dpop+jwt", "alg": "ES256", "jwk": k.jwk}
	c := map[string]any{"jti": rand.Text(), "htm": "POST", "htu": testResource, "iat": time.Now().Unix(), "ath": b64.EncodeToString(sum[:])}
	for dst, src := range map[*map[string]any]map[string]any{&h: header, &c: claims} {
		for n, v := range src {
			if v == nil {
				delete(*dst, n)
			} else {
				(*dst)[n] = v
			}
		}
	}
	hj, _ := json.Marshal(h)
	cj, _ := json.Marshal(c)
	in := b64.EncodeToString(hj) + "." + b64.EncodeToString(cj)
	switch h["alg"] {
	case "none":
		return in + "."
	case "HS256":
		m := hmac.New(sha256.New, []byte("a shared secret"))
		m.Write([]byte(in))
		return in + "." + b64.EncodeToString(m.Sum(nil))
	}
	digest := sha256.Sum256([]byte(in))
	r, s, err := ecdsa.Sign(rand.Reader, k.pk, digest[:])
	if err != nil {
		panic(err)
	}
	sig := append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
	return in + "." + b64.EncodeToString(sig)
}

// privateJWK is k's JWK with its private scalar "d".
func (k *rawKey) privateJWK() map[string]any {
	m := map[string]any{"d": b64.EncodeToString(k.pk.D.FillBytes(make([]byte, 32)))}
	for n, v := range k.jwk {
		m[n] = v
	}
	return m
}

func bound(jkt string) *auth.Principal {
	return &auth.Principal{Subject: "dee", Scopes: []string{"mcp"}, Claims: map[string]any{"cnf": map[string]any{"jkt": jkt}}}
}

// dpopRS is a resource server accepting DPoP with checker c; its tokens
// are testTokens' and "bound" (to k's key), "bound-elsewhere" (to
// another key).
func dpopRS(t *testing.T, k *rawKey, c *dpop.Checker, required bool) *oauth.ResourceServer {
	t.Helper()
	tokens := map[string]*auth.Principal{"bound": bound(k.jkt), "bound-elsewhere": bound(newRawKey(t).jkt)}
	for tok, p := range testTokens {
		tokens[tok] = p
	}
	opts := testOptions()
	opts.DPoP, opts.DPoPRequired = c, required
	rs, err := oauth.NewResourceServer(oauth.StaticTokens(tokens), opts)
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

func checker(t *testing.T, o dpop.Options) *dpop.Checker {
	t.Helper()
	c, err := dpop.NewChecker(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

const (
	dpopChallenge   = `DPoP algs="ES256 RS256", scope="mcp", resource_metadata="` + testMetadata + `"`
	bearerChallenge = `Bearer scope="mcp", resource_metadata="` + testMetadata + `"`
)

func dpopError(code, why string) string {
	return `DPoP algs="ES256 RS256", error="` + code + `", error_description="` + why + `", scope="mcp", resource_metadata="` + testMetadata + `"`
}

// Every tampered variant of RFC 9449 through Protect, the client's proofs
// made by dpop.Key.Proof or signed by hand.
func TestProtectDPoP(t *testing.T) {
	k := newRawKey(t)
	key, err := dpop.NewKey(k.pk)
	if err != nil {
		t.Fatal(err)
	}
	proof := func(method, url, token string) func() string {
		return func() string {
			p, err := key.Proof(method, url, token, "")
			if err != nil {
				t.Fatal(err)
			}
			return p
		}
	}
	edit := func(header, claims map[string]any) func() string {
		return func() string { return k.proof("bound", header, claims) }
	}
	replayed := proof("POST", testResource, "bound")()
	late := func(o *dpop.Options) { o.Now = func() time.Time { return time.Now().Add(2 * time.Minute) } }
	early := func(o *dpop.Options) { o.Now = func() time.Time { return time.Now().Add(-2 * time.Minute) } }
	invalidProof := func(reason string) []string {
		return []string{bearerChallenge, dpopError("invalid_dpop_proof", "dpop: invalid proof: "+reason)}
	}
	for _, tt := range []struct {
		name    string
		auth    string
		proofs  []func() string
		opts    func(*dpop.Options)
		status  int
		www     []string // every WWW-Authenticate, in order
		subject string   // the principal next saw; "" when next must not run
	}{
		{name: "good", auth: "DPoP bound", proofs: []func() string{proof("POST", testResource, "bound")}, status: 200, subject: "dee"},
		{name: "scheme in any case", auth: "dpop bound", proofs: []func() string{proof("POST", testResource, "bound")}, status: 200, subject: "dee"},
		{name: "htu with a query", auth: "DPoP bound", proofs: []func() string{proof("POST", testResource+"?x=1", "bound")}, status: 200, subject: "dee"},
		{name: "a Bearer token", auth: "Bearer reader", status: 200, subject: "ann"},
		{name: "no credentials", status: 401, www: []string{bearerChallenge, dpopChallenge}},
		{name: "a bound token as Bearer", auth: "Bearer bound", status: 401, www: []string{
			`Bearer error="invalid_token", error_description="the access token is bound to a DPoP key: send it as Authorization: DPoP with a DPoP proof", scope="mcp", resource_metadata="` + testMetadata + `"`,
			dpopChallenge}},
		{name: "an unbound token as DPoP", auth: "DPoP reader", proofs: []func() string{proof("POST", testResource, "reader")}, status: 401, www: []string{
			bearerChallenge, dpopError("invalid_token", "the access token is not bound to a DPoP key (it has no cnf.jkt)")}},
		{name: "an unknown token", auth: "DPoP nope", proofs: []func() string{proof("POST", testResource, "nope")}, status: 401, www: []string{
			bearerChallenge, dpopError("invalid_token", "invalid token: not a token this server knows")}},
		{name: "no proof", auth: "DPoP bound", status: 401, www: []string{
			bearerChallenge, dpopError("invalid_dpop_proof", "a DPoP-bound token needs a DPoP proof in the DPoP header")}},
		{name: "two proofs", auth: "DPoP bound", proofs: []func() string{proof("POST", testResource, "bound"), proof("POST", testResource, "bound")}, status: 400, www: []string{
			bearerChallenge, dpopError("invalid_request", "more than one DPoP header")}},
		{name: "tampered signature", auth: "DPoP bound", proofs: []func() string{func() string {
			p := proof("POST", testResource, "bound")()
			i := strings.LastIndexByte(p, '.') + 1
			c := "A"
			if p[i] == 'A' {
				c = "B"
			}
			return p[:i] + c + p[i+1:]
		}}, status: 401, www: invalidProof("the proof's signature does not verify")},
		{name: "wrong htm", auth: "DPoP bound", proofs: []func() string{proof("GET", testResource, "bound")}, status: 401, www: invalidProof("the proof's 'htm' is not the request's method")},
		{name: "wrong htu path", auth: "DPoP bound", proofs: []func() string{proof("POST", "https://mcp.example.com/other", "bound")}, status: 401, www: invalidProof("the proof's 'htu' is not the request's URL")},
		{name: "wrong htu host", auth: "DPoP bound", proofs: []func() string{proof("POST", "https://evil.example.com/mcp", "bound")}, status: 401, www: invalidProof("the proof's 'htu' is not the request's URL")},
		{name: "old iat", auth: "DPoP bound", proofs: []func() string{proof("POST", testResource, "bound")}, opts: late, status: 401, www: invalidProof("the proof's 'iat' is more than 1m0s from the server's time")},
		{name: "future iat", auth: "DPoP bound", proofs: []func() string{proof("POST", testResource, "bound")}, opts: early, status: 401, www: invalidProof("the proof's 'iat' is more than 1m0s from the server's time")},
		{name: "wrong ath", auth: "DPoP bound", proofs: []func() string{proof("POST", testResource, "another")}, status: 401, www: invalidProof("the proof's 'ath' is not the hash of the access token")},
		{name: "no ath", auth: "DPoP bound", proofs: []func() string{proof("POST", testResource, "")}, status: 401, www: invalidProof("the proof has no 'ath' for the access token")},
		{name: "wrong jkt", auth: "DPoP bound-elsewhere", proofs: []func() string{proof("POST", testResource, "bound-elsewhere")}, status: 401,
			www: invalidProof("the proof's key is not the one the access token is bound to (cnf.jkt)")},
		{name: "alg none", auth: "DPoP bound", proofs: []func() string{edit(map[string]any{"alg": "none"}, nil)}, status: 401, www: invalidProof("the proof's 'alg' is not ES256 or RS256, the algorithms accepted")},
		{name: "HS256", auth: "DPoP bound", proofs: []func() string{edit(map[string]any{"alg": "HS256"}, nil)}, status: 401, www: invalidProof("the proof's 'alg' is not ES256 or RS256, the algorithms accepted")},
		{name: "private key in jwk", auth: "DPoP bound", proofs: []func() string{edit(map[string]any{"jwk": k.privateJWK()}, nil)}, status: 401, www: invalidProof("the proof's 'jwk' holds a private or symmetric key")},
		{name: "missing typ", auth: "DPoP bound", proofs: []func() string{edit(map[string]any{"typ": nil}, nil)}, status: 401, www: invalidProof("the proof's header has no 'typ'")},
		{name: "missing jti", auth: "DPoP bound", proofs: []func() string{edit(nil, map[string]any{"jti": nil})}, status: 401, www: invalidProof("the proof has no 'jti'")},
		{name: "hand-signed, good", auth: "DPoP bound", proofs: []func() string{edit(nil, nil)}, status: 200, subject: "dee"},
		{name: "replayed jti", auth: "DPoP bound", proofs: []func() string{func() string { return replayed }}, status: 401, www: invalidProof("the proof's jti was seen before (a replay)")},
	} {
		t.Run(tt.name, func(t *testing.T) {
			o := dpop.Options{}
			if tt.opts != nil {
				tt.opts(&o)
			}
			c := checker(t, o)
			if tt.name == "replayed jti" {
				c.Check(context.Background(), replayed, "POST", testResource, "bound", "") // its first use
			}
			var seen *auth.Principal
			h := dpopRS(t, k, c, false).Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
				seen = auth.PrincipalFrom(r.Context())
			}))
			req := httptest.NewRequest(http.MethodPost, "/mcp", strings.NewReader("{}"))
			if tt.auth != "" {
				req.Header.Set("Authorization", tt.auth)
			}
			var sent []string
			for _, p := range tt.proofs {
				sent = append(sent, p())
				req.Header.Add("DPoP", sent[len(sent)-1])
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Errorf("status %d, want %d: %s", rec.Code, tt.status, rec.Body)
			}
			got := rec.Header().Values("WWW-Authenticate")
			if strings.Join(got, "\n") != strings.Join(tt.www, "\n") {
				t.Errorf("WWW-Authenticate:\n got %q\nwant %q", got, tt.www)
			}
			if tt.subject == "" {
				if seen != nil {
					t.Error("the protected handler ran")
				}
			} else if seen == nil || seen.Subject != tt.subject {
				t.Errorf("next saw %+v, want %s", seen, tt.subject)
			}
			for _, p := range sent {
				if strings.Contains(rec.Body.String(), p) || strings.Contains(strings.Join(got, " "), p) {
					t.Error("the response holds the proof")
				}
			}
			if tt.auth == "DPoP bound" && tt.status == 200 && rec.Header().Get("DPoP-Nonce") == "" {
				t.Error("no DPoP-Nonce on a DPoP response")
			}
		})
	}
}

// A server requiring nonces (RFC 9449 §9): a proof without one, or with a
// stale one, gets 401 use_dpop_nonce and a fresh DPoP-Nonce; the retry
// with it passes.
func TestProtectDPoPNonce(t *testing.T) {
	k := newRawKey(t)
	clock := time.Now()
	c := checker(t, dpop.Options{RequireNonce: true, NonceLifetime: time.Minute, Window: time.Hour, Now: func() time.Time { return clock }})
	h := dpopRS(t, k, c, false).Protect(http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	send := func(nonce string) *httptest.ResponseRecorder {
		claims := map[string]any{"iat": clock.Unix()}
		if nonce != "" {
			claims["nonce"] = nonce
		}
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Header.Set("Authorization", "DPoP bound")
		req.Header.Set("DPoP", k.proof("bound", nil, claims))
		rec := httptest.NewRecorder()
		h.ServeHTTP(rec, req)
		return rec
	}
	useNonce := []string{bearerChallenge, dpopError("use_dpop_nonce", "the DPoP proof needs the nonce of the DPoP-Nonce header")}
	rec := send("")
	nonce := rec.Header().Get("DPoP-Nonce")
	if rec.Code != 401 || nonce == "" || strings.Join(rec.Header().Values("WWW-Authenticate"), "\n") != strings.Join(useNonce, "\n") {
		t.Fatalf("no nonce: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	if rec := send(nonce); rec.Code != 200 {
		t.Fatalf("with the nonce: %d %s", rec.Code, rec.Body)
	}
	clock = clock.Add(2 * time.Minute)
	rec = send(nonce)
	if rec.Code != 401 || rec.Header().Get("DPoP-Nonce") == nonce || !strings.Contains(rec.Body.String(), "use_dpop_nonce") {
		t.Fatalf("stale nonce: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}
	if rec := send(rec.Header().Get("DPoP-Nonce")); rec.Code != 200 {
		t.Fatalf("with the fresh nonce: %d %s", rec.Code, rec.Body)
	}
}

// DPoPRequired: Bearer is refused as no credentials are, only DPoP is
// challenged, and the metadata says so.
func TestProtectDPoPRequired(t *testing.T) {
	k := newRawKey(t)
	rs := dpopRS(t, k, checker(t, dpop.Options{}), true)
	mux := http.NewServeMux()
	rs.Mount(mux, http.HandlerFunc(func(http.ResponseWriter, *http.Request) {}))
	for _, a := range []string{"", "Bearer reader", "Bearer bound"} {
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		if a != "" {
			req.Header.Set("Authorization", a)
		}
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, req)
		if got := rec.Header().Values("WWW-Authenticate"); rec.Code != 401 || len(got) != 1 || got[0] != dpopChallenge {
			t.Errorf("%q: %d %q", a, rec.Code, got)
		}
	}
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Header.Set("Authorization", "DPoP bound")
	req.Header.Set("DPoP", k.proof("bound", nil, nil))
	rec := httptest.NewRecorder()
	mux.ServeHTTP(rec, req)
	if rec.Code != 200 {
		t.Errorf("DPoP: %d %s", rec.Code, rec.Body)
	}
	rec = httptest.NewRecorder()
	mux.ServeHTTP(rec, httptest.NewRequest(http.MethodGet, "/.well-known/oauth-protected-resource/mcp", nil))
	var md oauth.Metadata
	if err := json.Unmarshal(rec.Body.Bytes(), &md); err != nil || !md.DPoPBoundAccessTokensRequired ||
		strings.Join(md.DPoPSigningAlgValuesSupported, " ") != "ES256 RS256" {
		t.Errorf("metadata %s (%v)", rec.Body, err)
	}
	opts := testOptions()
	opts.DPoPRequired = true
	if _, err := oauth.NewResourceServer(testVerifier(), opts); !errors.Is(err, oauth.ErrInvalidOptions) {
		t.Errorf("DPoPRequired without DPoP: %v", err)
	}
}

// failingCache is a replay cache that cannot be reached.
type failingCache struct{}

func (failingCache) Remember(context.Context, string, time.Time) (bool, error) {
	return false, errors.New("dial tcp 10.0.0.1:6379: connection refused")
}

// A replay cache that fails is a 503, as a verifier outage is; a step-up
// refusal of a DPoP request is challenged with DPoP.
func TestProtectDPoPOutageAndStepUp(t *testing.T) {
	k := newRawKey(t)
	h := dpopRS(t, k, checker(t, dpop.Options{Replay: failingCache{}}), false).Protect(http.NotFoundHandler())
	req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Header.Set("Authorization", "DPoP bound")
	req.Header.Set("DPoP", k.proof("bound", nil, nil))
	rec := httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	if rec.Code != 503 || rec.Header().Get("Retry-After") == "" || strings.Contains(rec.Body.String(), "6379") {
		t.Errorf("outage: %d %v %s", rec.Code, rec.Header(), rec.Body)
	}

	h = dpopRS(t, k, checker(t, dpop.Options{}), false).Protect(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		auth.ChallengeScopes(r.Context(), []string{"admin"})
		w.Write([]byte("{}"))
	}))
	req = httptest.NewRequest(http.MethodPost, "/mcp", nil)
	req.Header.Set("Authorization", "DPoP bound")
	req.Header.Set("DPoP", k.proof("bound", nil, nil))
	rec = httptest.NewRecorder()
	h.ServeHTTP(rec, req)
	want := []string{`Bearer scope="mcp admin", resource_metadata="` + testMetadata + `"`,
		`DPoP algs="ES256 RS256", error="insufficient_scope", error_description="the access token does not grant the scopes this operation needs", scope="mcp admin", resource_metadata="` + testMetadata + `"`}
	if got := rec.Header().Values("WWW-Authenticate"); rec.Code != 403 || strings.Join(got, "\n") != strings.Join(want, "\n") {
		t.Errorf("step-up: %d\n got %q\nwant %q", rec.Code, got, want)
	}
}
