package signin

import (
	"context"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"time"
)

// FollowRedirect is a Config.Authorize for an authorization server that
// approves without a user, as test servers and some development servers
// do: it GETs the authorization URL with c (nil: a client with a
// 30-second timeout), does not follow the redirect, and returns where it
// points. Never use it where a user must consent.
func FollowRedirect(c *http.Client) func(ctx context.Context, authorizationURL string) (*url.URL, error) {
	nc := &http.Client{Timeout: 30 * time.Second}
	if c != nil {
		cc := *c
		nc = &cc
	}
	nc.CheckRedirect = func(*http.Request, []*http.Request) error { return http.ErrUseLastResponse }
	return func(ctx context.Context, authorizationURL string) (*url.URL, error) {
		req, err := http.NewRequestWithContext(ctx, http.MethodGet, authorizationURL, nil)
		if err != nil {
			return nil, err
		}
		resp, err := nc.Do(req)
		if err != nil {
			return nil, err
		}
		io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
		resp.Body.Close()
		loc := resp.Header.Get("Location")
		if resp.StatusCode < 300 || resp.StatusCode > 399 || loc == "" {
			return nil, fmt.Errorf("the authorization endpoint answered HTTP %d without a redirect", resp.StatusCode)
		}
		return req.URL.Parse(loc)
	}
}
