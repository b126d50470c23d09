package jwtauth

import (
	"bytes"
	"crypto/ecdsa"
	"crypto/ed25519"
	"crypto/elliptic"
	"crypto/rand"
	"encoding/hex"
	"encoding/json"
	"errors"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	jose "github.com/go-jose/go-jose/v4"

	"github.com/mcpwire/mcpwire/oauth"
)

// strangerKey returns an ES256 key the issuer never published, with a
// random key id.
func strangerKey(t *testing.T) jose.JSONWebKey {
	t.Helper()
	k, err := ecdsa.GenerateKey(elliptic.P256(), rand.Reader)
	if err != nil {
		t.Fatal(err)
	}
	id := make([]byte, 8)
	rand.Read(id)
	return jose.JSONWebKey{Key: k, KeyID: hex.EncodeToString(id), Algorithm: "ES256"}
}

// TestUnknownKeyID refreshes the key set once for an unknown kid, then
// refuses, and never more than once per MinRefreshInterval however many
// unknown kids arrive.
func TestUnknownKeyID(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	e.mustVerify(e.token(nil))
	e.wantFetches(1)

	stranger := e.tokenWith(strangerKey(t), nil, nil)
	e.mustRefuse(stranger, ErrUnknownKey) // just fetched: no refresh yet
	e.wantFetches(1)

	e.clock.advance(DefaultMinRefreshInterval)
	e.mustRefuse(stranger, ErrUnknownKey)
	e.wantFetches(2)
	for range 100 {
		e.mustRefuse(e.tokenWith(strangerKey(t), nil, nil), ErrUnknownKey)
	}
	e.wantFetches(2)

	e.clock.advance(DefaultMinRefreshInterval)
	e.mustRefuse(stranger, ErrUnknownKey)
	e.wantFetches(3)
	e.mustVerify(e.token(nil))
	if n := e.metaFetches.Load(); n != 1 {
		t.Errorf("metadata fetched %d times, want 1", n)
	}

	// Without a kid, a token is tried with every key fitting its
	// algorithm; with none fitting, it is refused as unknown.
	noKid := strangerKey(t)
	noKid.KeyID = ""
	e.mustRefuse(e.tokenWith(noKid, nil, map[jose.HeaderKey]any{"kid": nil}), ErrSignature)
	_, ed, _ := ed25519.GenerateKey(rand.Reader)
	edKey := jose.JSONWebKey{Key: ed, Algorithm: "EdDSA"}
	e.mustRefuse(e.tokenWith(edKey, nil, map[jose.HeaderKey]any{"kid": nil}), ErrUnknownKey)
}

// TestNoKeyID verifies a token without a kid with whichever key fits.
func TestNoKeyID(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	e.rotate("RS256")
	k := e.signingKey()
	k.KeyID = ""
	e.mustVerify(e.tokenWith(k, nil, map[jose.HeaderKey]any{"kid": nil}))
}

// TestKeyRotation rotates the issuer's key: tokens of the new key verify
// after one refresh, tokens of the retired key are refused, and many
// concurrent callers with a new kid cause one fetch between them.
func TestKeyRotation(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	oldTok := e.token(nil)
	e.mustVerify(oldTok)
	e.wantFetches(1)

	old := e.signingKey().KeyID
	e.rotate("RS256")
	if err := e.dev.Retire(old); err != nil {
		t.Fatal(err)
	}
	e.clock.advance(2 * time.Minute) // within max-age=300: not yet due
	e.mustVerify(e.token(nil))
	e.wantFetches(2)
	e.mustRefuse(oldTok, ErrUnknownKey) // refused without a fetch: just refreshed
	e.wantFetches(2)

	// The next rotation, met by 50 callers at once while the key set
	// request is held open: they all wait for the one fetch.
	prev := e.signingKey().KeyID
	e.rotate("EdDSA")
	if err := e.dev.Retire(prev); err != nil {
		t.Fatal(err)
	}
	newTok := e.token(nil)
	e.clock.advance(2 * time.Minute)
	release := e.hold()
	var wg sync.WaitGroup
	errs := make(chan error, 50)
	for range 50 {
		wg.Go(func() {
			_, err := e.verify(newTok)
			errs <- err
		})
	}
	time.Sleep(50 * time.Millisecond)
	release()
	wg.Wait()
	close(errs)
	for err := range errs {
		if err != nil {
			t.Errorf("concurrent Verify: %v", err)
		}
	}
	e.wantFetches(3)
}

// TestCacheControl refreshes a key set when its max-age, bounded by the
// refresh intervals, has passed, and not before.
func TestCacheControl(t *testing.T) {
	for _, tc := range []struct {
		cc       string
		min, max time.Duration
		want     time.Duration
	}{
		{cc: "max-age=300", want: 300 * time.Second},
		{cc: "public, max-age=120, must-revalidate", want: 120 * time.Second},
		{cc: "max-age=10", want: DefaultMinRefreshInterval},
		{cc: "max-age=0", want: DefaultMinRefreshInterval},
		{cc: "no-store", want: DefaultMinRefreshInterval},
		{cc: "max-age=86400", want: DefaultMaxRefreshInterval},
		{cc: "", want: DefaultMaxRefreshInterval},
		{cc: "max-age=soon", want: DefaultMaxRefreshInterval},
		{cc: "max-age=20", min: 10 * time.Second, max: 30 * time.Second, want: 20 * time.Second},
		{cc: "max-age=99", min: 10 * time.Second, max: 30 * time.Second, want: 30 * time.Second},
	} {
		t.Run(tc.cc, func(t *testing.T) {
			e := newEnv(t, "ES256", Config{MinRefreshInterval: tc.min, MaxRefreshInterval: tc.max},
				func(e *env) { e.cacheControl.Store(tc.cc) })
			tok := e.token(map[string]any{"exp": t0.Add(48 * time.Hour).Unix()})
			e.mustVerify(tok)
			e.clock.advance(tc.want - time.Second)
			e.mustVerify(tok)
			e.wantFetches(1)
			e.clock.advance(time.Second)
			e.mustVerify(tok)
			e.wantFetches(2)
		})
	}
}

// lockedBuffer is a bytes.Buffer safe for the logger's goroutines.
type lockedBuffer struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (l *lockedBuffer) Write(p []byte) (int, error) {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.Write(p)
}

func (l *lockedBuffer) String() string {
	l.mu.Lock()
	defer l.mu.Unlock()
	return l.b.String()
}

// TestRefreshFailureKeepsKeys keeps verifying with the old keys while the
// issuer's key set cannot be fetched, logs the failure, retries at most
// once per MinRefreshInterval, and never waits for a hung issuer.
func TestRefreshFailureKeepsKeys(t *testing.T) {
	var logs lockedBuffer
	e := newEnv(t, "ES256", Config{Logger: slog.New(slog.NewTextHandler(&logs, nil))})
	tok := e.token(map[string]any{"exp": t0.Add(48 * time.Hour).Unix()})
	e.mustVerify(tok)
	e.wantFetches(1)

	e.fail.Store(true)
	e.clock.advance(2 * time.Hour)
	e.mustVerify(tok)
	e.wantFetches(2)
	if !strings.Contains(logs.String(), "refresh failed") {
		t.Errorf("no warning logged: %q", logs.String())
	}
	e.mustVerify(tok)
	e.mustRefuse(e.tokenWith(strangerKey(t), nil, nil), ErrUnknownKey)
	e.wantFetches(2)

	e.clock.advance(DefaultMinRefreshInterval)
	e.mustVerify(tok)
	e.wantFetches(3)

	// A hung issuer: Verify answers from the cache at once.
	e.clock.advance(DefaultMinRefreshInterval)
	release := e.hold()
	start := time.Now()
	e.mustVerify(tok)
	if d := time.Since(start); d > time.Second {
		t.Errorf("Verify waited %v for a refresh", d)
	}
	e.fail.Store(false)
	release()
	e.wantFetches(4) // this one succeeded: fresh for max-age=300

	e.clock.advance(DefaultMinRefreshInterval)
	e.mustVerify(tok)
	e.wantFetches(4)
	e.clock.advance(4 * time.Minute)
	e.mustVerify(tok)
	e.wantFetches(5)
}

// TestFirstFetchFailure reports unavailable keys, which is not a refusal
// of the token, and retries after MinRefreshInterval.
func TestFirstFetchFailure(t *testing.T) {
	e := newEnv(t, "ES256", Config{}, func(e *env) { e.fail.Store(true) })
	tok := e.token(nil)
	for range 3 {
		_, err := e.verify(tok)
		if !errors.Is(err, ErrKeysUnavailable) || errors.Is(err, oauth.ErrInvalidToken) {
			t.Fatalf("got %v, want ErrKeysUnavailable only", err)
		}
	}
	e.wantFetches(1)
	e.fail.Store(false)
	e.clock.advance(DefaultMinRefreshInterval)
	e.mustVerify(tok)
	e.wantFetches(2)
}

// TestRefresh fetches on demand, whatever the rate limit.
func TestRefresh(t *testing.T) {
	e := newEnv(t, "ES256", Config{})
	for i := 1; i <= 3; i++ {
		if err := e.v.Refresh(t.Context()); err != nil {
			t.Fatal(err)
		}
		e.wantFetches(i)
	}
	e.fail.Store(true)
	if err := e.v.Refresh(t.Context()); err == nil {
		t.Error("Refresh of a failing issuer succeeded")
	}
	e.mustVerify(e.token(nil))
}

// TestResponseBound refuses a key set larger than MaxResponseBytes.
func TestResponseBound(t *testing.T) {
	e := newEnv(t, "RS256", Config{MaxResponseBytes: 300})
	_, err := e.verify(e.token(nil))
	if !errors.Is(err, ErrKeysUnavailable) || !strings.Contains(err.Error(), "larger than 300 bytes") {
		t.Fatalf("got %v, want a response too large", err)
	}
	e = newEnv(t, "RS256", Config{MaxResponseBytes: 4096})
	e.mustVerify(e.token(nil))
}

// TestMaxAge reads Cache-Control headers.
func TestMaxAge(t *testing.T) {
	for cc, want := range map[string]time.Duration{
		"":                       -1,
		"max-age=60":             time.Minute,
		`max-age="60"`:           time.Minute,
		"Max-Age=5, public":      5 * time.Second,
		"no-cache":               0,
		"private, no-store":      0,
		"max-age=-4":             -1,
		"max-age=99999999999999": time.Duration(1<<32) * time.Second,
	} {
		if got := maxAge(cc); got != want {
			t.Errorf("maxAge(%q) = %v, want %v", cc, got, want)
		}
	}
}

// TestUsableKeys drops keys that cannot verify signatures.
func TestUsableKeys(t *testing.T) {
	raw := []string{
		`{"kty":"oct","kid":"secret","k":"c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0c2VjcmV0"}`,
		`{"kty":"XYZ","kid":"future"}`,
		`{"kty":"EC","kid":"enc","use":"enc","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}`,
		`{"kty":"EC","kid":"sig","crv":"P-256","x":"f83OJ3D2xF1Bg8vub9tLe1gHMzV76e8Tus9uPHvRVEU","y":"x_FEzRu9m36HLN_tue659LNpXW6pCyStikYjKIWI5a0"}`,
		`not json`,
	}
	var msgs []json.RawMessage
	for _, r := range raw {
		msgs = append(msgs, json.RawMessage(r))
	}
	keys := usable(decodeKeys(msgs))
	if len(keys) != 1 || keys[0].KeyID != "sig" {
		t.Fatalf("usable keys %v, want only \"sig\"", keys)
	}
	if !fits(keys[0], "ES256") || fits(keys[0], "ES384") || fits(keys[0], "RS256") || fits(keys[0], "HS256") {
		t.Error("fits: wrong algorithms for a P-256 key")
	}
}
