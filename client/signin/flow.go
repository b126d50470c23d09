package signin

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/url"
	"slices"
	"strings"
	"sync"
	"time"
)

// Flow signs a client in to the servers it reaches, and keeps the tokens.
// Wrap gives the http.RoundTripper that does it; client.HTTP's SignIn
// field puts it under a client. A Flow is safe for concurrent use, and
// one Flow may serve many servers: tokens are kept per resource,
// authorization server and client.
type Flow struct {
	cfg   Config
	http  *http.Client
	store Store
	log   *slog.Logger

	mu       sync.Mutex
	regs     map[string]*registration // dynamic registrations, by issuer
	sessions map[string]*session      // by endpoint
	nonces   map[string]string        // DPoP nonces, by origin
}

// session is the sign-in state of one endpoint. Its mutex is held while
// a token is obtained, so that many requests refused at once lead to one
// sign-in.
type session struct {
	mu    sync.Mutex
	key   Key    // where tok is stored; zero before the first sign-in
	tok   *Token // the token in use; nil before the first sign-in
	scope string // every scope asked for so far

	// What the token came from, for refreshing it.
	reg      *registration
	as       *serverMeta
	resource string
}

// New returns a Flow for cfg.
func New(cfg Config) (*Flow, error) {
	if cfg.RedirectURL != "" {
		if _, err := url.Parse(cfg.RedirectURL); err != nil {
			return nil, fmt.Errorf("signin: RedirectURL: %w", err)
		}
	}
	if cfg.ClientMetadataURL != "" {
		if _, err := checkURL("ClientMetadataURL", cfg.ClientMetadataURL); err != nil {
			return nil, err
		}
	}
	f := &Flow{cfg: cfg, http: cfg.HTTPClient, store: cfg.Store, log: cfg.Logger,
		regs: map[string]*registration{}, sessions: map[string]*session{}, nonces: map[string]string{}}
	if f.http == nil {
		f.http = &http.Client{Timeout: 30 * time.Second}
	}
	if f.store == nil {
		f.store = MemoryStore()
	}
	if f.log == nil {
		f.log = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	return f, nil
}

// session returns the state of the endpoint target.
func (f *Flow) session(target string) *session {
	f.mu.Lock()
	defer f.mu.Unlock()
	s := f.sessions[target]
	if s == nil {
		s = &session{}
		f.sessions[target] = s
	}
	return s
}

// current returns the token in use for s, renewed first with its refresh
// token when it has expired.
func (f *Flow) current(ctx context.Context, s *session) *Token {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tok != nil && s.tok.expired(time.Now()) && s.tok.RefreshToken != "" {
		if t, err := f.refreshLocked(ctx, s); err == nil {
			return t
		}
	}
	return s.tok
}

// signIn obtains a new token for the endpoint target after the server
// refused refused (nil: the request carried none) with the challenges cs.
// stepUp says the refusal was 403 insufficient_scope: the scopes asked
// for grow, and neither a stored nor a refreshed token can serve. Only
// one sign-in runs per endpoint; a request that waited for another's
// finds the new token and uses it.
func (f *Flow) signIn(ctx context.Context, target *url.URL, s *session, refused *Token, cs []challenge, stepUp bool) (*Token, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.tok != refused {
		return s.tok, nil // renewed while this request waited
	}
	d, err := f.discover(ctx, target, cs)
	if err != nil {
		return nil, err
	}
	scope := union(s.scope, d.scope)
	if s.key.Issuer != "" && s.key.Issuer != d.as.Issuer {
		// The resource moved to another authorization server: nothing
		// of the old one's carries over.
		f.log.Info("signin: the authorization server changed", "from", s.key.Issuer, "to", d.as.Issuer)
		f.store.Save(ctx, s.key, nil)
		s.tok, s.scope, scope = nil, "", d.scope
	}
	if !stepUp {
		if t := f.reuse(ctx, s, d, refused); t != nil {
			return t, nil
		}
	}
	var tok *Token
	var reg *registration
	switch g := f.cfg.Grant.(type) {
	case nil:
		if slices.Contains(d.as.ScopesSupported, "offline_access") && scope != "" {
			scope = union(scope, "offline_access")
		}
		tok, reg, err = f.authorizationCode(ctx, d, scope)
	case ClientCredentials:
		tok, reg, err = f.clientCredentials(ctx, d, scope)
	case JWTBearer:
		tok, reg, err = f.jwtBearer(ctx, d, g, scope)
	case EnterpriseManaged:
		tok, reg, err = f.enterpriseManaged(ctx, d, g, scope)
	default:
		err = fmt.Errorf("signin: unknown grant %T", g)
	}
	if err != nil {
		return nil, err
	}
	s.key = Key{Resource: d.resource, Issuer: d.as.Issuer}
	if reg != nil {
		s.key.ClientID = reg.id
	}
	s.tok, s.scope = tok, scope
	s.reg, s.as, s.resource = reg, d.as, d.resource
	if err := f.store.Save(ctx, s.key, tok); err != nil {
		f.log.Warn("signin: the token could not be stored", "err", err)
	}
	f.log.Info("signin: signed in", "issuer", d.as.Issuer, "type", tok.Type, "scope", tok.Scope)
	return tok, nil
}

// reuse returns a token that serves without a new sign-in, with s locked:
// one the Store holds that the server has not just refused, or the
// current one renewed with its refresh token.
func (f *Flow) reuse(ctx context.Context, s *session, d *discovery, refused *Token) *Token {
	var reg *registration
	if f.cfg.Grant == nil {
		r, err := f.client(ctx, d.as)
		if err != nil {
			return nil
		}
		reg = r
	} else {
		reg = f.preRegistered(d.as)
	}
	key := Key{Resource: d.resource, Issuer: d.as.Issuer}
	if reg != nil {
		key.ClientID = reg.id
	}
	s.key, s.reg, s.as, s.resource = key, reg, d.as, d.resource
	stored, err := f.store.Load(ctx, key)
	if err == nil && stored != nil && (refused == nil || stored.AccessToken != refused.AccessToken) && !stored.expired(time.Now()) {
		s.tok = stored
		return stored
	}
	if stored != nil && stored.RefreshToken != "" {
		s.tok = stored
	}
	if s.tok != nil && s.tok.RefreshToken != "" {
		if t, err := f.refreshLocked(ctx, s); err == nil {
			return t
		}
	}
	return nil
}

// refreshLocked renews s's token with its refresh token (RFC 6749 §6),
// with s locked. A refresh token the server rotates replaces the old one;
// one it does not is kept.
func (f *Flow) refreshLocked(ctx context.Context, s *session) (*Token, error) {
	if s.as == nil {
		return nil, errors.New("signin: nothing to refresh with")
	}
	form := url.Values{"grant_type": {"refresh_token"}, "refresh_token": {s.tok.RefreshToken}, "resource": {s.resource}}
	tr, err := f.requestToken(ctx, s.as.TokenEndpoint, s.as.Issuer, s.reg, form, true)
	if err != nil {
		f.log.Info("signin: refresh refused", "issuer", s.as.Issuer, "err", err)
		return nil, err
	}
	t, err := tr.token(s.tok.Scope)
	if err != nil {
		return nil, err
	}
	if t.RefreshToken == "" {
		t.RefreshToken = s.tok.RefreshToken
	}
	s.tok = t
	f.store.Save(ctx, s.key, t)
	f.log.Info("signin: refreshed", "issuer", s.as.Issuer)
	return t, nil
}

// nonce returns the DPoP nonce last given by the origin of raw.
func (f *Flow) nonce(raw string) string {
	u, err := url.Parse(raw)
	if err != nil {
		return ""
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.nonces[origin(u)]
}

// setNonce keeps the DPoP nonce the origin of raw gave (RFC 9449 §8).
func (f *Flow) setNonce(raw, nonce string) {
	u, err := url.Parse(raw)
	if err != nil {
		return
	}
	f.mu.Lock()
	defer f.mu.Unlock()
	f.nonces[origin(u)] = nonce
}

// union is the space-separated union of two scope strings, in order of
// first appearance.
func union(a, b string) string {
	var out []string
	for _, s := range strings.Fields(a + " " + b) {
		if !slices.Contains(out, s) {
			out = append(out, s)
		}
	}
	return strings.Join(out, " ")
}

// covered reports whether every scope of want is in have.
func covered(have, want string) bool {
	h := strings.Fields(have)
	for _, w := range strings.Fields(want) {
		if !slices.Contains(h, w) {
			return false
		}
	}
	return true
}
