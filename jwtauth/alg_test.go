package jwtauth

import (
	"crypto/ecdsa"
	"crypto/elliptic"
	"crypto/hmac"
	"crypto/rand"
	"crypto/rsa"
	"crypto/sha256"
	"crypto/x509"
	"encoding/json"
	"encoding/pem"
	"errors"
	"strings"
	"testing"

	jose "github.com/go-jose/go-jose/v4"
)

// rawToken encodes header and claims and signs them with HMAC-SHA256
// under secret (or leaves the signature empty when secret is nil), by
// hand, as an attacker would.
func rawToken(t *testing.T, header, claims map[string]any, secret []byte) string {
	t.Helper()
	h, err := json.Marshal(header)
	if err != nil {
		t.Fatal(err)
	}
	c, err := json.Marshal(claims)
	if err != nil {
		t.Fatal(err)
	}
	input := b64.EncodeToString(h) + "." + b64.EncodeToString(c)
	if secret == nil {
		return input + "."
	}
	mac := hmac.New(sha256.New, secret)
	mac.Write([]byte(input))
	return input + "." + b64.EncodeToString(mac.Sum(nil))
}

// TestAlgNone refuses unsigned tokens, however "none" is spelled.
func TestAlgNone(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	kid := e.signingKey().KeyID
	for _, alg := range []string{"none", "None", "NONE", "nOnE"} {
		tok := rawToken(t, map[string]any{"alg": alg, "kid": kid, "typ": "at+jwt"}, e.claims(nil), nil)
		e.mustRefuse(tok, ErrAlgorithm)
		// With a signature part borrowed from a valid token.
		valid := strings.Split(e.token(nil), ".")
		e.mustRefuse(tok+valid[2], ErrAlgorithm)
	}
	if _, err := New(Config{Issuer: e.dev.Issuer(), Algorithms: []string{"none"}}); err == nil {
		t.Error(`New allowed "none"`)
	}
}

// TestAlgConfusion signs HS256 tokens with the RSA public key (in every
// form an attacker might take it) as the HMAC secret.
func TestAlgConfusion(t *testing.T) {
	e := newEnv(t, "RS256", Config{})
	k := e.signingKey()
	pub := &k.Key.(*rsa.PrivateKey).PublicKey
	der := x509.MarshalPKCS1PublicKey(pub)
	pkix, _ := x509.MarshalPKIXPublicKey(pub)
	jwk, _ := k.Public().MarshalJSON()
	secrets := map[string][]byte{
		"pkcs1 der": der,
		"pkix pem":  pem.EncodeToMemory(&pem.Block{Type: "PUBLIC KEY", Bytes: pkix}),
		"jwk":       jwk,
		"modulus":   pub.N.Bytes(),
	}
	hdr := map[string]any{"alg": "HS256", "kid": k.KeyID, "typ": "at+jwt"}
	e.mustVerify(e.token(nil))
	for name, secret := range secrets {
		t.Run(name, func(t *testing.T) {
			e.mustRefuse(rawToken(t, hdr, e.claims(nil), secret), ErrAlgorithm)
		})
	}

	// Even with HMAC allowed, the RSA key is never an HMAC secret.
	shared := make([]byte, 32)
	rand.Read(shared)
	v, err := New(Config{
		Issuer: e.dev.Issuer(), Now: e.clock.Now, JWKSURI: e.dev.JWKSURI(),
		SharedKey: shared, Algorithms: []string{"RS256", "HS256"},
	})
	if err != nil {
		t.Fatal(err)
	}
	verify := func(tok string) error {
		_, err := v.Verify(t.Context(), tok, testResource)
		return err
	}
	if err := verify(e.token(nil)); err != nil {
		t.Fatalf("RS256 with HMAC allowed: %v", err)
	}
	for name, secret := range secrets {
		if err := verify(rawToken(t, hdr, e.claims(nil), secret)); !errors.Is(err, ErrSignature) {
			t.Errorf("%s with HMAC allowed: got %v, want %v", name, err, ErrSignature)
		}
	}
	if err := verify(rawToken(t, hdr, e.claims(nil), shared)); err != nil {
		t.Errorf("HS256 with the shared key: %v", err)
	}
}

// TestSharedKeyOnly verifies HMAC tokens without any key set.
func TestSharedKeyOnly(t *testing.T) {
	shared := []byte(strings.Repeat("k", 32))
	e := newEnv(t, "ES256", Config{SharedKey: shared})
	if e.v.keys != nil {
		t.Fatal("a key set is configured")
	}
	hdr := map[string]any{"alg": "HS256", "typ": "at+jwt"}
	e.mustVerify(rawToken(t, hdr, e.claims(nil), shared))
	e.mustRefuse(rawToken(t, hdr, e.claims(nil), []byte(strings.Repeat("x", 32))), ErrSignature)
	e.mustRefuse(e.token(nil), ErrAlgorithm) // ES256 with no key set
	if n := e.jwksFetches.Load() + e.metaFetches.Load(); n != 0 {
		t.Errorf("%d requests to the issuer", n)
	}
}

// TestAlgKeyMismatch refuses a token whose "alg" does not fit its key.
func TestAlgKeyMismatch(t *testing.T) {
	e := newEnv(t, "RS256", Config{Algorithms: []string{"RS256", "PS256", "ES256"}})
	rsaKey := e.signingKey()
	e.mustVerify(e.token(nil))

	// An ES256 signature under the RSA key's kid.
	ec, _ := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	forged := jose.JSONWebKey{Key: ec, KeyID: rsaKey.KeyID, Algorithm: "ES256"}
	e.mustRefuse(e.tokenWith(forged, nil, nil), ErrAlgorithm)

	// PS256 with the RSA key, whose JWK says "alg": "RS256".
	ps := rsaKey
	ps.Algorithm = "PS256"
	e.mustRefuse(e.tokenWith(ps, nil, nil), ErrAlgorithm)

	// An algorithm the verifier does not allow, with the right key.
	e.rotate("EdDSA")
	e.clock.advance(DefaultMinRefreshInterval)
	e.mustRefuse(e.token(nil), ErrAlgorithm)
}

// TestNewRefuses checks the configurations New refuses.
func TestNewRefuses(t *testing.T) {
	iss := "https://issuer.example"
	for name, cfg := range map[string]Config{
		"no issuer":        {},
		"issuer not a URL": {Issuer: "issuer.example"},
		"issuer query":     {Issuer: iss + "?x=1"},
		"ftp issuer":       {Issuer: "ftp://issuer.example"},
		"none":             {Issuer: iss, Algorithms: []string{"RS256", "none"}},
		"hmac without key": {Issuer: iss, Algorithms: []string{"HS256"}},
		"short shared key": {Issuer: iss, SharedKey: []byte("short")},
		"unknown alg":      {Issuer: iss, Algorithms: []string{"RS1"}},
		"min above max":    {Issuer: iss, MinRefreshInterval: 2 * DefaultMaxRefreshInterval},
	} {
		if _, err := New(cfg); err == nil {
			t.Errorf("%s: New accepted %+v", name, cfg)
		}
	}
	v, err := New(Config{Issuer: iss, SharedKey: make([]byte, 32)})
	if err != nil || !strings.Contains(strings.Join(v.cfg.Algorithms, " "), "HS256") {
		t.Errorf("shared key: algorithms %v, err %v", v.cfg.Algorithms, err)
	}
	v, _ = New(Config{Issuer: iss})
	if strings.Contains(strings.Join(v.cfg.Algorithms, " "), "HS") {
		t.Errorf("default algorithms %v allow HMAC", v.cfg.Algorithms)
	}
}

// TestMalformed refuses what is not a strictly encoded compact JWS.
func TestMalformed(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	valid := e.token(nil)
	parts := strings.Split(valid, ".")
	hdr := func(s string) string { return b64.EncodeToString([]byte(s)) + "." + parts[1] + "." + parts[2] }
	for name, tok := range map[string]string{
		"empty":            "",
		"one part":         "abc",
		"two parts":        parts[0] + "." + parts[1],
		"four parts":       valid + ".x",
		"jwe":              "a.b.c.d.e",
		"padded":           parts[0] + "=." + parts[1] + "." + parts[2],
		"std base64":       strings.NewReplacer("-", "+", "_", "/").Replace(valid) + "+/",
		"header not json":  hdr("{"),
		"header array":     hdr(`["alg"]`),
		"header null":      hdr(`null`),
		"no alg":           hdr(`{"typ":"at+jwt"}`),
		"alg number":       hdr(`{"alg":256}`),
		"kid number":       hdr(`{"alg":"ES256","kid":1}`),
		"payload not json": parts[0] + "." + b64.EncodeToString([]byte("hi")) + "." + parts[2],
		"too long":         valid + strings.Repeat("A", MaxTokenBytes),
		"spaces":           " " + valid,
		"leading newline":  "\n" + valid,
		"inner CRLF":       parts[0] + "." + parts[1][:4] + "\r\n" + parts[1][4:] + "." + parts[2],
		"trailing newline": valid + "\n",
	} {
		t.Run(name, func(t *testing.T) {
			_, err := e.verify(tok)
			if err == nil {
				t.Fatal("accepted")
			}
			if !errors.Is(err, ErrMalformed) && (name != "payload not json" || !errors.Is(err, ErrSignature)) {
				t.Fatalf("got %v, want malformed or bad signature", err)
			}
			checkNoToken(t, err, tok)
		})
	}
	e.mustVerify(valid)

	// Signed by the issuer, but not a claims object.
	for _, payload := range []string{"hi", "[1]", "null", `"x"`, `{"exp":`} {
		k := e.signingKey()
		s, err := jose.NewSigner(jose.SigningKey{Algorithm: "ES256", Key: k.Key},
			(&jose.SignerOptions{}).WithHeader("kid", k.KeyID))
		if err != nil {
			t.Fatal(err)
		}
		jws, _ := s.Sign([]byte(payload))
		tok, _ := jws.CompactSerialize()
		e.mustRefuse(tok, ErrMalformed)
	}
}
