package jwtauth

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strconv"
	"strings"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// fetcher fetches the issuer's key set over HTTP, discovering its URL from
// the issuer's metadata unless it was configured.
type fetcher struct {
	issuer string
	client *http.Client
	limit  int64

	mu      sync.Mutex
	jwksURI string // configured or discovered
}

func newFetcher(cfg Config) *fetcher {
	return &fetcher{issuer: cfg.Issuer, client: cfg.HTTPClient, limit: cfg.MaxResponseBytes, jwksURI: cfg.JWKSURI}
}

// keys fetches the key set; it is a fetchFunc.
func (f *fetcher) keys(ctx context.Context) ([]jose.JSONWebKey, time.Duration, error) {
	uri, err := f.uri(ctx)
	if err != nil {
		return nil, 0, err
	}
	var set struct {
		Keys []json.RawMessage `json:"keys"`
	}
	maxAge, status, err := f.get(ctx, uri, &set)
	if err == nil && status != http.StatusOK {
		err = fmt.Errorf("jwtauth: key set %s: HTTP status %d", uri, status)
	}
	if err != nil {
		return nil, 0, err
	}
	keys := usable(decodeKeys(set.Keys))
	if len(keys) == 0 {
		return nil, 0, fmt.Errorf("jwtauth: key set %s has no usable signing key", uri)
	}
	return keys, maxAge, nil
}

// decodeKeys decodes each JWK on its own, skipping those go-jose cannot
// read (a key of a type it does not know must not spoil the whole set).
func decodeKeys(raw []json.RawMessage) []jose.JSONWebKey {
	var keys []jose.JSONWebKey
	for _, r := range raw {
		var k jose.JSONWebKey
		if err := k.UnmarshalJSON(r); err == nil {
			keys = append(keys, k)
		}
	}
	return keys
}

// uri returns the key set's URL, discovering it on first use.
func (f *fetcher) uri(ctx context.Context) (string, error) {
	f.mu.Lock()
	uri := f.jwksURI
	f.mu.Unlock()
	if uri != "" {
		return uri, nil
	}
	uri, err := f.discover(ctx)
	if err != nil {
		return "", err
	}
	f.mu.Lock()
	f.jwksURI = uri
	f.mu.Unlock()
	return uri, nil
}

// errMismatch marks metadata that names another issuer; it is not retried
// at the next well-known URL.
var errMismatch = errors.New("jwtauth: metadata names another issuer")

// discover reads the "jwks_uri" of the issuer's metadata, trying each
// well-known URL in turn until one answers 200.
func (f *fetcher) discover(ctx context.Context) (string, error) {
	var errs []error
	for _, u := range metadataURLs(f.issuer) {
		var md struct {
			Issuer  string `json:"issuer"`
			JWKSURI string `json:"jwks_uri"`
		}
		_, status, err := f.get(ctx, u, &md)
		switch {
		case err != nil:
			errs = append(errs, err)
		case status != http.StatusOK:
			errs = append(errs, fmt.Errorf("%s: HTTP status %d", u, status))
		case md.Issuer != f.issuer:
			return "", fmt.Errorf("%w: %s has issuer %q, not %q", errMismatch, u, md.Issuer, f.issuer)
		case md.JWKSURI == "":
			return "", fmt.Errorf("jwtauth: %s has no jwks_uri", u)
		default:
			return md.JWKSURI, nil
		}
	}
	return "", fmt.Errorf("jwtauth: no authorization server metadata for %s: %w", f.issuer, errors.Join(errs...))
}

// metadataURLs lists the well-known metadata URLs of issuer in the order
// the MCP authorization specification gives: RFC 8414 with the path
// inserted, OpenID Connect with the path inserted, OpenID Connect with the
// path appended (the last two are one URL when the issuer has no path).
func metadataURLs(issuer string) []string {
	u, _ := url.Parse(issuer) // checked by Config.normalize
	path := strings.TrimSuffix(u.Path, "/")
	at := func(p string) string {
		v := *u
		v.Path, v.RawPath = p, ""
		return v.String()
	}
	urls := []string{
		at("/.well-known/oauth-authorization-server" + path),
		at("/.well-known/openid-configuration" + path),
	}
	if path != "" {
		urls = append(urls, at(path+"/.well-known/openid-configuration"))
	}
	return urls
}

// get fetches uri and, when it answers 200, decodes its JSON body into v.
// It returns the response's Cache-Control max-age (negative when absent)
// and its status. The body is read up to f.limit bytes.
func (f *fetcher) get(ctx context.Context, uri string, v any) (time.Duration, int, error) {
	req, err := http.NewRequestWithContext(ctx, http.MethodGet, uri, nil)
	if err != nil {
		return 0, 0, fmt.Errorf("jwtauth: %w", err)
	}
	req.Header.Set("Accept", "application/json")
	resp, err := f.client.Do(req)
	if err != nil {
		return 0, 0, fmt.Errorf("jwtauth: %w", err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != http.StatusOK {
		return 0, resp.StatusCode, nil
	}
	body, err := io.ReadAll(io.LimitReader(resp.Body, f.limit+1))
	if err != nil {
		return 0, resp.StatusCode, fmt.Errorf("jwtauth: reading %s: %w", uri, err)
	}
	if int64(len(body)) > f.limit {
		return 0, resp.StatusCode, fmt.Errorf("jwtauth: %s: response larger than %d bytes", uri, f.limit)
	}
	if err := json.Unmarshal(body, v); err != nil {
		return 0, resp.StatusCode, fmt.Errorf("jwtauth: %s: %w", uri, err)
	}
	return maxAge(resp.Header.Get("Cache-Control")), resp.StatusCode, nil
}

// maxAge returns the max-age of a Cache-Control header, zero for no-store
// and no-cache, and -1 when it says neither. The caller bounds it.
func maxAge(cc string) time.Duration {
	for _, d := range strings.Split(cc, ",") {
		name, val, _ := strings.Cut(strings.TrimSpace(d), "=")
		switch strings.ToLower(name) {
		case "no-store", "no-cache":
			return 0
		case "max-age":
			if n, err := strconv.ParseInt(strings.Trim(val, `"`), 10, 64); err == nil && n >= 0 {
				return time.Duration(min(n, 1<<32)) * time.Second
			}
		}
	}
	return -1
}
