package dpop

import (
	"context"
	"crypto"
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"encoding/json"
	"errors"
	"strings"
	"testing"
	"time"
)

const (
	testURL   = "https://mcp.example.com/mcp"
	testToken = "token-123"
)

// craft signs a proof of header and claims with k; a nil value removes a
// member of the defaults.
func craft(t *testing.T, k *Key, header, claims map[string]any) string {
	t.Helper()
	h := map[string]any{"typ": "dpop+jwt", "alg": k.alg, "jwk": json.RawMessage(k.jwk)}
	c := map[string]any{"jti": randomID(t), "htm": "POST", "htu": testURL, "iat": time.Now().Unix(), "ath": tokenHash(testToken)}
	merge := func(dst, src map[string]any) {
		for n, v := range src {
			if v == nil {
				delete(dst, n)
			} else {
				dst[n] = v
			}
		}
	}
	merge(h, header)
	merge(c, claims)
	hj, _ := json.Marshal(h)
	cj, _ := json.Marshal(c)
	input := b64.EncodeToString(hj) + "." + b64.EncodeToString(cj)
	return input + "." + b64.EncodeToString(signES256(t, k, input))
}

// signES256 signs input with k's P-256 key, R||S (RFC 7518 §3.4).
func signES256(t *testing.T, k *Key, input string) []byte {
	digest := sha256.Sum256([]byte(input))
	r, s, err := ecdsa.Sign(rand.Reader, k.signer.(*ecdsa.PrivateKey), digest[:])
	if err != nil {
		t.Fatal(err)
	}
	return append(r.FillBytes(make([]byte, 32)), s.FillBytes(make([]byte, 32))...)
}

func randomID(t *testing.T) string {
	b := make([]byte, 16)
	rand.Read(b)
	return b64.EncodeToString(b)
}

func mustKey(t *testing.T) *Key {
	t.Helper()
	k, err := GenerateKey()
	if err != nil {
		t.Fatal(err)
	}
	return k
}

func mustChecker(t *testing.T, o Options) *Checker {
	t.Helper()
	c, err := NewChecker(o)
	if err != nil {
		t.Fatal(err)
	}
	return c
}

// privateJWK is k's JWK with its private scalar.
func privateJWK(k *Key) json.RawMessage {
	pk := k.signer.(*ecdsa.PrivateKey)
	var m map[string]any
	json.Unmarshal(k.jwk, &m)
	m["d"] = b64.EncodeToString(pk.D.FillBytes(make([]byte, 32)))
	j, _ := json.Marshal(m)
	return j
}

// Every refusal of RFC 9449 §4.3, one defect at a time, and what passes.
func TestCheck(t *testing.T) {
	k, other := mustKey(t), mustKey(t)
	now := time.Now()
	good := func() string { return craft(t, k, nil, nil) }
	hs256 := func() string {
		h, _ := json.Marshal(map[string]any{"typ": "dpop+jwt", "alg": "HS256", "jwk": json.RawMessage(k.jwk)})
		c, _ := json.Marshal(map[string]any{"jti": randomID(t), "htm": "POST", "htu": testURL, "iat": now.Unix(), "ath": tokenHash(testToken)})
		in := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
		m := hmac.New(sha256.New, []byte("secret"))
		m.Write([]byte(in))
		return in + "." + b64.EncodeToString(m.Sum(nil))
	}
	none := func() string {
		h, _ := json.Marshal(map[string]any{"typ": "dpop+jwt", "alg": "none", "jwk": json.RawMessage(k.jwk)})
		c, _ := json.Marshal(map[string]any{"jti": randomID(t), "htm": "POST", "htu": testURL, "iat": now.Unix()})
		return b64.EncodeToString(h) + "." + b64.EncodeToString(c) + "."
	}
	tampered := func() string {
		p := good()
		i := strings.LastIndexByte(p, '.') + 1
		c := byte('A')
		if p[i] == 'A' {
			c = 'B'
		}
		return p[:i] + string(c) + p[i+1:]
	}
	for _, tt := range []struct {
		name   string
		proof  func() string
		method string // "" for POST
		url    string // "" for testURL
		token  string // "-" for none
		jkt    string
		want   string // a piece of the reason; "" for success
	}{
		{name: "good", proof: good},
		{name: "good without a token", proof: func() string { return craft(t, k, nil, map[string]any{"ath": nil}) }, token: "-"},
		{name: "good, the expected key", proof: good, jkt: k.Thumbprint()},
		{name: "host and scheme in any case, default port", proof: good, url: "HTTPS://MCP.Example.com:443/mcp"},
		{name: "query and fragment ignored", proof: good, url: testURL + "?x=1#f"},
		{name: "htu with a query", proof: func() string { return craft(t, k, nil, map[string]any{"htu": testURL + "?a=b"}) }},
		{name: "tampered signature", proof: tampered, want: "signature does not verify"},
		{name: "signed by another key", proof: func() string { return craft(t, other, map[string]any{"jwk": json.RawMessage(k.jwk)}, nil) }, want: "signature"},
		{name: "wrong htm", proof: good, method: "GET", want: `"htm"`},
		{name: "htm in lower case", proof: func() string { return craft(t, k, nil, map[string]any{"htm": "post"}) }, want: `"htm"`},
		{name: "wrong htu path", proof: good, url: "https://mcp.example.com/other", want: `"htu"`},
		{name: "wrong htu path case", proof: good, url: "https://mcp.example.com/MCP", want: `"htu"`},
		{name: "wrong htu host", proof: good, url: "https://evil.example.com/mcp", want: `"htu"`},
		{name: "wrong htu scheme", proof: good, url: "http://mcp.example.com/mcp", want: `"htu"`},
		{name: "wrong htu port", proof: good, url: "https://mcp.example.com:8443/mcp", want: `"htu"`},
		{name: "no htu", proof: func() string { return craft(t, k, nil, map[string]any{"htu": nil}) }, want: `"htu"`},
		{name: "old iat", proof: func() string { return craft(t, k, nil, map[string]any{"iat": now.Add(-2 * time.Minute).Unix()}) }, want: `"iat"`},
		{name: "future iat", proof: func() string { return craft(t, k, nil, map[string]any{"iat": now.Add(2 * time.Minute).Unix()}) }, want: `"iat"`},
		{name: "no iat", proof: func() string { return craft(t, k, nil, map[string]any{"iat": nil}) }, want: `"iat"`},
		{name: "iat a string", proof: func() string { return craft(t, k, nil, map[string]any{"iat": "now"}) }, want: "expected types"},
		{name: "no jti", proof: func() string { return craft(t, k, nil, map[string]any{"jti": nil}) }, want: `"jti"`},
		{name: "wrong ath", proof: func() string { return craft(t, k, nil, map[string]any{"ath": tokenHash("another")}) }, want: `"ath"`},
		{name: "no ath", proof: func() string { return craft(t, k, nil, map[string]any{"ath": nil}) }, want: `"ath"`},
		{name: "wrong jkt", proof: good, jkt: other.Thumbprint(), want: "cnf.jkt"},
		{name: "alg none", proof: none, want: `"alg"`},
		{name: "HS256", proof: hs256, want: `"alg"`},
		{name: "RS256 header on an EC key", proof: func() string { return craft(t, k, map[string]any{"alg": "RS256"}, nil) }, want: `"jwk"`},
		{name: "private key in jwk", proof: func() string { return craft(t, k, map[string]any{"jwk": privateJWK(k)}, nil) }, want: "private"},
		{name: "missing typ", proof: func() string { return craft(t, k, map[string]any{"typ": nil}, nil) }, want: `"typ"`},
		{name: "typ in another case", proof: func() string { return craft(t, k, map[string]any{"typ": nil, "TYP": "dpop+jwt"}, nil) }, want: `"typ"`},
		{name: "htm in another case", proof: func() string { return craft(t, k, nil, map[string]any{"htm": nil, "HTM": "POST"}) }, want: `"htm"`},
		{name: "wrong typ", proof: func() string { return craft(t, k, map[string]any{"typ": "JWT"}, nil) }, want: `"typ"`},
		{name: "missing jwk", proof: func() string { return craft(t, k, map[string]any{"jwk": nil}, nil) }, want: `"jwk"`},
		{name: "crit", proof: func() string { return craft(t, k, map[string]any{"crit": []string{"x"}}, nil) }, want: "crit"},
		{name: "two parts", proof: func() string { p := good(); return p[:strings.LastIndexByte(p, '.')] }, want: "three parts"},
		{name: "empty", proof: func() string { return "" }, want: "three parts"},
		{name: "padded base64", proof: func() string { return good() + "==" }, want: "base64url"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			c := mustChecker(t, Options{})
			method, url, token := "POST", testURL, testToken
			if tt.method != "" {
				method = tt.method
			}
			if tt.url != "" {
				url = tt.url
			}
			if tt.token == "-" {
				token = ""
			}
			proof := tt.proof()
			thumb, err := c.Check(context.Background(), proof, method, url, token, tt.jkt)
			if tt.want == "" {
				if err != nil {
					t.Fatalf("refused: %v", err)
				}
				if thumb != k.Thumbprint() {
					t.Errorf("thumbprint %q, want %q", thumb, k.Thumbprint())
				}
				return
			}
			if !errors.Is(err, ErrInvalidProof) || !strings.Contains(err.Error(), tt.want) {
				t.Fatalf("error %v, want ErrInvalidProof about %s", err, tt.want)
			}
			if (proof != "" && strings.Contains(err.Error(), proof)) || strings.Contains(err.Error(), testToken) {
				t.Error("the error holds the proof or the token")
			}
		})
	}
}

// A proof passes once; its copy is a replay (RFC 9449 §11.1).
func TestCheckReplay(t *testing.T) {
	k := mustKey(t)
	c := mustChecker(t, Options{})
	proof, err := k.Proof("POST", testURL, testToken, "")
	if err != nil {
		t.Fatal(err)
	}
	if _, err := c.Check(context.Background(), proof, "POST", testURL, testToken, ""); err != nil {
		t.Fatal(err)
	}
	_, err = c.Check(context.Background(), proof, "POST", testURL, testToken, "")
	if !errors.Is(err, ErrInvalidProof) || !strings.Contains(err.Error(), "replay") {
		t.Fatalf("replay: %v", err)
	}
}

// Nonces (RFC 9449 §9): none, a stale one and a made-up one get
// ErrUseNonce; the current and the previous pass; a server that requires
// none ignores them.
func TestCheckNonce(t *testing.T) {
	k := mustKey(t)
	clock := time.Now()
	c := mustChecker(t, Options{RequireNonce: true, NonceLifetime: time.Minute, Window: time.Hour, Now: func() time.Time { return clock }})
	check := func(nonce string) error {
		p := craft(t, k, nil, map[string]any{"nonce": nonce, "iat": clock.Unix()})
		if nonce == "" {
			p = craft(t, k, nil, map[string]any{"iat": clock.Unix()})
		}
		_, err := c.Check(context.Background(), p, "POST", testURL, testToken, "")
		return err
	}
	if err := check(""); !errors.Is(err, ErrUseNonce) {
		t.Fatalf("no nonce: %v", err)
	}
	n := c.Nonce()
	if len(n) < 22 {
		t.Fatalf("nonce %q is short", n)
	}
	if err := check(n); err != nil {
		t.Fatalf("current nonce: %v", err)
	}
	if err := check("made-up"); !errors.Is(err, ErrUseNonce) {
		t.Fatalf("made-up nonce: %v", err)
	}
	clock = clock.Add(time.Minute)
	if c.Nonce() == n {
		t.Fatal("the nonce did not change after its lifetime")
	}
	if err := check(n); err != nil {
		t.Fatalf("the previous nonce: %v", err)
	}
	clock = clock.Add(time.Minute)
	if err := check(n); !errors.Is(err, ErrUseNonce) {
		t.Fatalf("stale nonce: %v", err)
	}
	// Instances sharing a key accept each other's nonces.
	key := make([]byte, 32)
	a := mustChecker(t, Options{RequireNonce: true, NonceKey: key})
	b := mustChecker(t, Options{RequireNonce: true, NonceKey: key})
	if a.Nonce() != b.Nonce() {
		t.Error("two checkers with one key disagree on the nonce")
	}
	if _, err := NewChecker(Options{NonceKey: key[:16]}); err == nil {
		t.Error("a 16-byte nonce key was accepted")
	}
	relaxed := mustChecker(t, Options{})
	p, _ := k.Proof("POST", testURL, testToken, "whatever")
	if _, err := relaxed.Check(context.Background(), p, "POST", testURL, testToken, ""); err != nil {
		t.Errorf("a nonce where none is required: %v", err)
	}
}

// Keys: P-256 and RSA 2048 are accepted, others refused; Proof's shape.
func TestKeys(t *testing.T) {
	rk, err := rsa.GenerateKey(rand.Reader, 2048)
	if err != nil {
		t.Fatal(err)
	}
	k, err := NewKey(rk)
	if err != nil {
		t.Fatal(err)
	}
	c := mustChecker(t, Options{})
	p, err := k.Proof("GET", testURL+"?q=1#frag", "", "")
	if err != nil {
		t.Fatal(err)
	}
	if thumb, err := c.Check(context.Background(), p, "GET", testURL, "", k.Thumbprint()); err != nil || thumb != k.Thumbprint() {
		t.Fatalf("RS256: %q %v", thumb, err)
	}
	small, _ := rsa.GenerateKey(rand.Reader, 1024)
	p384, _ := ecdsa.GenerateKey(elliptic.P384(), rand.Reader)
	for name, s := range map[string]crypto.Signer{"RSA 1024": small, "P-384": p384, "nil ECDSA": (*ecdsa.PrivateKey)(nil)} {
		if _, err := NewKey(s); err == nil {
			t.Errorf("%s accepted", name)
		}
	}
}
