package jwtauth

import (
	"context"
	"fmt"
	"log/slog"
	"sync"
	"time"

	jose "github.com/go-jose/go-jose/v4"
)

// fetchTimeout bounds one fetch of the metadata and the key set.
const fetchTimeout = 10 * time.Second

// fetchFunc fetches a key set and says how long it may be used (negative
// when the response did not say).
type fetchFunc func(ctx context.Context) (keys []jose.JSONWebKey, maxAge time.Duration, err error)

// keyCache holds the issuer's key set and refreshes it. At most one fetch
// runs at a time, and fetches start at least min apart (the first
// excepted), whatever asks for them: an expired set, an unknown key id or
// Refresh. A failed refresh keeps the previous keys.
type keyCache struct {
	fetch    fetchFunc
	now      func() time.Time
	min, max time.Duration
	log      *slog.Logger

	mu       sync.Mutex
	keys     []jose.JSONWebKey
	loaded   bool      // a fetch has succeeded
	expires  time.Time // when keys are due for a refresh
	attempt  time.Time // start of the last fetch
	lastErr  error     // outcome of the last fetch
	inflight *fetchCall
}

// fetchCall is one fetch under way; done is closed when it ends.
type fetchCall struct {
	done chan struct{}
	err  error
}

func newKeyCache(cfg Config, fetch fetchFunc) *keyCache {
	return &keyCache{fetch: fetch, now: cfg.Now, min: cfg.MinRefreshInterval, max: cfg.MaxRefreshInterval, log: cfg.Logger}
}

// lookup returns the keys a token with kid and alg may name (see match).
// A caller whose keys are cached returns at once, starting a refresh in
// the background when the set is due for one; a caller whose key is
// missing waits for a refresh, if one may start, and looks again.
func (c *keyCache) lookup(ctx context.Context, kid, alg string) ([]jose.JSONWebKey, error) {
	c.mu.Lock()
	keys := match(c.keys, kid, alg)
	now := c.now()
	due := !c.loaded || !now.Before(c.expires)
	call := c.inflight
	if call == nil && (due || len(keys) == 0) && c.mayStart(now) {
		call = c.start(ctx)
	}
	c.mu.Unlock()
	if len(keys) > 0 {
		return keys, nil
	}
	if call != nil {
		select {
		case <-call.done:
		case <-ctx.Done():
			return nil, fmt.Errorf("%w: %w", ErrKeysUnavailable, ctx.Err())
		}
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if !c.loaded {
		return nil, fmt.Errorf("%w: %w", ErrKeysUnavailable, c.lastErr)
	}
	if keys = match(c.keys, kid, alg); len(keys) == 0 {
		return nil, unknownKey(kid)
	}
	return keys, nil
}

// refresh fetches the key set now, or waits for the fetch under way.
func (c *keyCache) refresh(ctx context.Context) error {
	c.mu.Lock()
	call := c.inflight
	if call == nil {
		call = c.start(ctx)
	}
	c.mu.Unlock()
	select {
	case <-call.done:
		return call.err
	case <-ctx.Done():
		return ctx.Err()
	}
}

// mayStart reports whether a fetch may start at now. c.mu is held.
func (c *keyCache) mayStart(now time.Time) bool {
	return c.attempt.IsZero() || now.Sub(c.attempt) >= c.min
}

// start begins a fetch in its own goroutine, so that it outlives the
// caller that started it (others may be waiting for it), but keeps the
// values of ctx. c.mu is held.
func (c *keyCache) start(ctx context.Context) *fetchCall {
	call := &fetchCall{done: make(chan struct{})}
	c.inflight = call
	c.attempt = c.now()
	ctx, cancel := context.WithTimeout(context.WithoutCancel(ctx), fetchTimeout)
	go func() {
		defer cancel()
		keys, maxAge, err := c.fetch(ctx)
		c.finish(call, keys, maxAge, err)
	}()
	return call
}

// finish records the outcome of call and wakes its waiters.
func (c *keyCache) finish(call *fetchCall, keys []jose.JSONWebKey, maxAge time.Duration, err error) {
	c.mu.Lock()
	defer close(call.done)
	defer c.mu.Unlock()
	c.inflight, c.lastErr, call.err = nil, err, err
	if err != nil {
		if c.loaded {
			c.log.Warn("jwtauth: key set refresh failed; keeping the previous keys", "keys", len(c.keys), "err", err)
		} else {
			c.log.Warn("jwtauth: key set fetch failed", "err", err)
		}
		return
	}
	if maxAge < 0 {
		maxAge = c.max
	}
	c.keys, c.loaded = keys, true
	c.expires = c.now().Add(min(max(maxAge, c.min), c.max))
}
