package jwtauth

import (
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"time"
)

// Defaults for the zero fields of Config.
const (
	// DefaultLeeway is the clock skew tolerated on "exp", "nbf" and "iat".
	// Thirty seconds covers hosts kept in time by NTP while keeping an
	// expired token usable for as little time as possible.
	DefaultLeeway = 30 * time.Second
	// DefaultMinRefreshInterval is the least time between two fetches of
	// the key set, whatever the reason (an unknown key id, a failure).
	DefaultMinRefreshInterval = time.Minute
	// DefaultMaxRefreshInterval is the longest a fetched key set is used
	// before it is fetched again, and how long it is used when the
	// response has no Cache-Control max-age.
	DefaultMaxRefreshInterval = time.Hour
	// DefaultMaxResponseBytes bounds a metadata or key set response.
	DefaultMaxResponseBytes = 1 << 20
)

// MaxTokenBytes bounds the tokens Verify looks at; longer ones are refused
// as malformed before any decoding.
const MaxTokenBytes = 16 << 10

// DefaultAlgorithms are the algorithms allowed when Config.Algorithms is
// empty: the asymmetric ones authorization servers use. With a
// Config.SharedKey, HS256 is allowed as well.
var DefaultAlgorithms = []string{"RS256", "ES256", "EdDSA", "PS256"}

// asymmetric and hmac list the algorithms this package can verify.
var (
	asymmetric = []string{"RS256", "RS384", "RS512", "PS256", "PS384", "PS512", "ES256", "ES384", "ES512", "EdDSA"}
	hmacAlgs   = []string{"HS256", "HS384", "HS512"}
)

// Config configures a Verifier. Only Issuer is required.
type Config struct {
	// Issuer is the authorization server's issuer identifier, an http or
	// https URL that "iss" must equal exactly.
	Issuer string
	// Audience is the audience "aud" must contain. When empty it is the
	// resource argument of Verify: the canonical URI of the MCP endpoint.
	Audience string
	// Algorithms lists the allowed "alg" values; empty means
	// DefaultAlgorithms. "none" is refused by New, and so is an HMAC
	// algorithm (HS256, HS384, HS512) without a SharedKey.
	Algorithms []string
	// SharedKey, when set, is the secret of HMAC-signed tokens (at least
	// 32 bytes). It is never taken from a key set. When SharedKey is set
	// and JWKSURI is empty, no key set is fetched at all.
	SharedKey []byte
	// RequireATJWT refuses tokens whose "typ" header is not "at+jwt", as
	// RFC 9068 asks; by default "JWT" and an absent "typ" pass too.
	RequireATJWT bool
	// Leeway is the clock skew tolerated on "exp", "nbf" and "iat"; zero
	// means DefaultLeeway and a negative value means none.
	Leeway time.Duration
	// Now returns the current time; nil means time.Now. Tests set it. It
	// also times key set refreshes.
	Now func() time.Time
	// HTTPClient fetches metadata and key sets; nil means
	// http.DefaultClient. Each fetch is bounded by a 10 s timeout as well.
	HTTPClient *http.Client
	// JWKSURI is the URL of the issuer's JWK set. When empty it is
	// discovered from the issuer's metadata (RFC 8414, then OpenID
	// Connect Discovery), whose "issuer" must equal Issuer.
	JWKSURI string
	// MinRefreshInterval is the least time between two fetches of the key
	// set; zero means DefaultMinRefreshInterval.
	MinRefreshInterval time.Duration
	// MaxRefreshInterval is the longest a key set is used before it is
	// fetched again; zero means DefaultMaxRefreshInterval.
	MaxRefreshInterval time.Duration
	// MaxResponseBytes bounds metadata and key set responses; zero means
	// DefaultMaxResponseBytes.
	MaxResponseBytes int64
	// Logger receives the failures of key set refreshes (the old keys stay
	// in use); nil means they are not logged.
	Logger *slog.Logger
}

// normalize checks c and fills in its defaults.
func (c Config) normalize() (Config, error) {
	if err := checkIssuer(c.Issuer); err != nil {
		return c, err
	}
	if c.SharedKey != nil && len(c.SharedKey) < 32 {
		return c, errors.New("jwtauth: SharedKey must be at least 32 bytes")
	}
	if len(c.Algorithms) == 0 {
		c.Algorithms = slices.Clone(DefaultAlgorithms)
		if c.SharedKey != nil {
			c.Algorithms = append(c.Algorithms, "HS256")
		}
	}
	for _, alg := range c.Algorithms {
		if err := c.checkAlgorithm(alg); err != nil {
			return c, err
		}
	}
	c.Leeway = defaultDuration(c.Leeway, DefaultLeeway)
	c.Leeway = max(c.Leeway, 0)
	c.MinRefreshInterval = defaultDuration(c.MinRefreshInterval, DefaultMinRefreshInterval)
	c.MaxRefreshInterval = defaultDuration(c.MaxRefreshInterval, DefaultMaxRefreshInterval)
	if c.MaxRefreshInterval < c.MinRefreshInterval {
		return c, errors.New("jwtauth: MaxRefreshInterval is less than MinRefreshInterval")
	}
	if c.MaxResponseBytes <= 0 {
		c.MaxResponseBytes = DefaultMaxResponseBytes
	}
	if c.Now == nil {
		c.Now = time.Now
	}
	if c.HTTPClient == nil {
		c.HTTPClient = http.DefaultClient
	}
	if c.Logger == nil {
		c.Logger = slog.New(slog.DiscardHandler)
	}
	return c, nil
}

// checkAlgorithm refuses an algorithm c cannot safely allow.
func (c Config) checkAlgorithm(alg string) error {
	switch {
	case strings.EqualFold(alg, "none"):
		return errors.New(`jwtauth: algorithm "none" can never be allowed`)
	case slices.Contains(hmacAlgs, alg) && c.SharedKey == nil:
		return fmt.Errorf("jwtauth: algorithm %s needs a SharedKey", alg)
	case !slices.Contains(asymmetric, alg) && !slices.Contains(hmacAlgs, alg):
		return fmt.Errorf("jwtauth: unsupported algorithm %q", alg)
	}
	return nil
}

// checkIssuer refuses an issuer that is not an http(s) URL without query
// or fragment, as RFC 8414 section 2 describes.
func checkIssuer(issuer string) error {
	if issuer == "" {
		return errors.New("jwtauth: Config.Issuer is required")
	}
	u, err := url.Parse(issuer)
	if err != nil || (u.Scheme != "https" && u.Scheme != "http") || u.Host == "" {
		return fmt.Errorf("jwtauth: issuer %q is not an http or https URL", issuer)
	}
	if u.RawQuery != "" || u.Fragment != "" {
		return fmt.Errorf("jwtauth: issuer %q has a query or fragment", issuer)
	}
	return nil
}

// defaultDuration returns def when d is zero.
func defaultDuration(d, def time.Duration) time.Duration {
	if d == 0 {
		return def
	}
	return d
}
