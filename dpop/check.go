package dpop

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"errors"
	"fmt"
	"math"
	"net/url"
	"strings"
	"time"
)

// ErrInvalidProof is wrapped by every refusal of a proof, with the precise
// reason (a bad signature, a wrong htm, a replayed jti...): the resource
// server answers 401 with error "invalid_dpop_proof" (RFC 9449 §7.1). The
// reason never contains the proof or the access token.
var ErrInvalidProof = errors.New("dpop: invalid proof")

// ErrUseNonce is returned for a proof that is good but for its nonce,
// when the Checker requires one and the proof has none, or one that is
// not current (RFC 9449 §9): the server answers 401 with error
// "use_dpop_nonce" and a DPoP-Nonce header holding Checker.Nonce, and the
// client sends a new proof with that nonce.
var ErrUseNonce = errors.New("dpop: the proof needs the server's current nonce")

// Options configure a Checker. The zero value is ready to use.
type Options struct {
	// Window is how far a proof's iat may be from now, either way (RFC
	// 9449 §4.3, check 11); default 60 seconds.
	Window time.Duration
	// Replay remembers the jti of every accepted proof until it could no
	// longer pass the time check (RFC 9449 §11.1). Default
	// NewMemoryReplayCache(0), which is per instance: the instances of one
	// deployment need a shared cache.
	Replay ReplayCache
	// RequireNonce makes every proof carry a nonce the server issued
	// (RFC 9449 §9), current or just previous; see Checker.Nonce.
	RequireNonce bool
	// NonceLifetime is how long a nonce stays current; one is accepted
	// for up to twice as long. Default 5 minutes.
	NonceLifetime time.Duration
	// NonceKey seals nonces: at least 32 secret bytes, the same on every
	// instance that must accept the others' nonces. Default a random key
	// of the Checker's own.
	NonceKey []byte
	// Now is the clock; default time.Now.
	Now func() time.Time
}

// Checker checks DPoP proofs (RFC 9449 §4.3). Its methods are safe for
// concurrent use.
type Checker struct {
	window       time.Duration
	replay       ReplayCache
	nonces       *nonces
	requireNonce bool
	now          func() time.Time
}

// NewChecker returns a Checker configured by o; it fails only for a
// NonceKey shorter than 32 bytes.
func NewChecker(o Options) (*Checker, error) {
	c := &Checker{window: o.Window, replay: o.Replay, now: o.Now}
	if c.window <= 0 {
		c.window = time.Minute
	}
	if c.replay == nil {
		c.replay = NewMemoryReplayCache(0)
	}
	if c.now == nil {
		c.now = time.Now
	}
	n, err := newNonces(o.NonceKey, o.NonceLifetime)
	if err != nil {
		return nil, err
	}
	c.nonces, c.requireNonce = n, o.RequireNonce
	return c, nil
}

// Algorithms returns the JWS algorithms a Checker accepts and a Key signs
// with, for metadata (dpop_signing_alg_values_supported) and challenges
// (algs, RFC 9449 §7.1).
func Algorithms() []string { return []string{"ES256", "RS256"} }

// Check verifies proof, the value of a request's one DPoP header, for a
// request with method whose URL is requestURL (absolute; its query and
// fragment are ignored), and returns the JWK thumbprint of the proof's
// key (RFC 7638). It checks, as RFC 9449 §4.3 asks: typ "dpop+jwt"; alg
// ES256 or RS256; a public jwk (a private member refuses it); the
// signature; htm equal to method; htu equal to requestURL, both without
// query and fragment, scheme and host compared case-insensitively and a
// default port ignored, the path exactly; iat within Options.Window of
// now; a jti not seen before; with accessToken, an ath that is its hash;
// with jkt (an access token's cnf.jkt, RFC 9449 §6.1), a key of that
// thumbprint; with Options.RequireNonce, a current nonce.
//
// A refusal wraps ErrInvalidProof, or is ErrUseNonce; any other error is
// the ReplayCache's, and means the proof could not be checked.
func (c *Checker) Check(ctx context.Context, proof, method, requestURL, accessToken, jkt string) (string, error) {
	p, err := parse(proof)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidProof, err)
	}
	now := c.now()
	iat, err := c.checkClaims(p.claims, method, requestURL, accessToken, now)
	if err != nil {
		return "", fmt.Errorf("%w: %v", ErrInvalidProof, err)
	}
	if jkt != "" && subtle.ConstantTimeCompare([]byte(jkt), []byte(p.thumbprint)) != 1 {
		return "", fmt.Errorf("%w: the proof's key is not the one the access token is bound to (cnf.jkt)", ErrInvalidProof)
	}
	if c.requireNonce && (p.claims.Nonce == nil || !c.nonces.valid(*p.claims.Nonce, now)) {
		return "", ErrUseNonce
	}
	id := sha256.Sum256([]byte(p.thumbprint + "\x00" + *p.claims.JTI))
	fresh, err := c.replay.Remember(ctx, b64.EncodeToString(id[:]), iat.Add(c.window+time.Second))
	if err != nil {
		return "", fmt.Errorf("dpop: the replay cache: %w", err)
	}
	if !fresh {
		return "", fmt.Errorf("%w: the proof's jti was seen before (a replay)", ErrInvalidProof)
	}
	return p.thumbprint, nil
}

// Nonce returns the current nonce, for a DPoP-Nonce header (RFC 9449
// §8, §9): unguessable, sealed with Options.NonceKey, current for
// Options.NonceLifetime. A Checker that requires no nonce still makes them.
func (c *Checker) Nonce() string {
	return c.nonces.current(c.now())
}

// maxJTI bounds a jti; 128 random bits in base64url are 22 characters.
const maxJTI = 256

// checkClaims checks the claims as RFC 9449 §4.3 asks (checks 3, 8, 9,
// 11 and the ath of 12), all but jti's freshness, and returns iat.
func (c *Checker) checkClaims(cl proofClaims, method, requestURL, accessToken string, now time.Time) (time.Time, error) {
	switch {
	case cl.JTI == nil || *cl.JTI == "":
		return time.Time{}, errors.New(`the proof has no "jti"`)
	case len(*cl.JTI) > maxJTI:
		return time.Time{}, errors.New(`the proof's "jti" is too long`)
	case cl.HTM == nil || *cl.HTM != method:
		return time.Time{}, errors.New(`the proof's "htm" is not the request's method`)
	case cl.HTU == nil || !sameURL(*cl.HTU, requestURL):
		return time.Time{}, errors.New(`the proof's "htu" is not the request's URL`)
	case cl.IAT == nil || math.IsNaN(*cl.IAT) || math.Abs(*cl.IAT) > 1e11:
		return time.Time{}, errors.New(`the proof has no usable "iat"`)
	}
	iat := time.Unix(int64(*cl.IAT), 0)
	if d := now.Sub(iat); d > c.window || d < -c.window {
		return time.Time{}, fmt.Errorf(`the proof's "iat" is more than %v from the server's time`, c.window)
	}
	if accessToken != "" {
		if cl.ATH == nil {
			return time.Time{}, errors.New(`the proof has no "ath" for the access token`)
		}
		if subtle.ConstantTimeCompare([]byte(*cl.ATH), []byte(tokenHash(accessToken))) != 1 {
			return time.Time{}, errors.New(`the proof's "ath" is not the hash of the access token`)
		}
	}
	return iat, nil
}

// sameURL compares htu with the request's URL as RFC 9449 §4.3 asks
// (check 9): without query and fragment, after the syntax- and
// scheme-based normalization of RFC 3986 §6.2.2 and §6.2.3 that matters
// here: scheme and host in lower case, no default port, an empty path
// as "/". The path is compared exactly otherwise.
func sameURL(htu, requestURL string) bool {
	a, ok1 := normalURL(htu)
	b, ok2 := normalURL(requestURL)
	return ok1 && ok2 && a == b
}

// normalURL returns u in the form sameURL compares.
func normalURL(s string) (string, bool) {
	u, err := url.Parse(stripURL(s))
	if err != nil || u.Host == "" || u.User != nil || (u.Scheme != "https" && u.Scheme != "http" && !strings.EqualFold(u.Scheme, "https") && !strings.EqualFold(u.Scheme, "http")) {
		return "", false
	}
	scheme, host := strings.ToLower(u.Scheme), strings.ToLower(u.Host)
	host = strings.TrimSuffix(host, map[string]string{"https": ":443", "http": ":80"}[scheme])
	path := u.EscapedPath()
	if path == "" {
		path = "/"
	}
	return scheme + "://" + host + path, true
}
