package signin

import (
	"bytes"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
)

// maxStepUps bounds the re-authorizations one request may cause after
// 403 insufficient_scope (Scope Challenge Handling: clients SHOULD limit
// them, so that a server that is never satisfied cannot loop them).
const maxStepUps = 2

// maxSignIns bounds the sign-ins one request may cause after 401: a
// server that refuses a token just issued gets one more try.
const maxSignIns = 2

// Wrap returns an http.RoundTripper that signs in to the MCP endpoint
// endpoint through base (nil: http.DefaultTransport). It adds the token
// to each request to the endpoint's origin, and to no other; on 401 it
// signs in (discovery, registration, the grant) and sends the request
// again; on 403 insufficient_scope it asks for the challenged scopes as
// well, at most twice for one request; with a DPoP key it adds a proof to
// every request and follows the server's nonce. A sign-in that fails is
// the request's error.
func (f *Flow) Wrap(endpoint string, base http.RoundTripper) (http.RoundTripper, error) {
	u, err := url.Parse(endpoint)
	if err != nil || (u.Scheme != "http" && u.Scheme != "https") || u.Host == "" {
		return nil, fmt.Errorf("signin: %q is not an http or https URL", endpoint)
	}
	if base == nil {
		base = http.DefaultTransport
	}
	return &transport{f: f, base: base, endpoint: u, s: f.session(canonical(u))}, nil
}

// transport is the RoundTripper Wrap returns.
type transport struct {
	f        *Flow
	base     http.RoundTripper
	endpoint *url.URL
	s        *session
}

// unauthorized is the error of a request that could not be signed in. Its
// Unauthorized method tells the client's connection that the request
// failed and the connection did not: another request may need no more
// than the token it has.
type unauthorized struct{ err error }

func (e *unauthorized) Error() string      { return e.err.Error() }
func (e *unauthorized) Unwrap() error      { return e.err }
func (e *unauthorized) Unauthorized() bool { return true }

func (t *transport) RoundTrip(req *http.Request) (*http.Response, error) {
	if !sameOrigin(req.URL, t.endpoint) {
		return t.base.RoundTrip(req) // never a token to another origin
	}
	if err := replayable(req); err != nil {
		return nil, err
	}
	ctx := req.Context()
	tok := t.f.current(ctx, t.s)
	signIns, stepUps := 0, 0
	for nonced := false; ; {
		resp, err := t.send(req, tok)
		if err != nil {
			return nil, err
		}
		cs := challenges(resp.Header)
		switch {
		case resp.StatusCode == http.StatusUnauthorized && !nonced && tok != nil && tok.Type == "DPoP" && t.nonceChallenge(resp, cs):
			nonced = true
			drain(resp)
			continue // the same token, with a proof carrying the server's nonce
		case resp.StatusCode == http.StatusUnauthorized:
			drain(resp)
			if signIns == maxSignIns {
				return nil, &unauthorized{fmt.Errorf("%w: %s refuses the token it was just given (HTTP 401)", ErrDenied, t.endpoint.Redacted())}
			}
			signIns++
			if tok, err = t.f.signIn(ctx, t.endpoint, t.s, tok, cs, false); err != nil {
				return nil, &unauthorized{err}
			}
		case resp.StatusCode == http.StatusForbidden && strings.EqualFold(param(cs, "error"), "insufficient_scope"):
			want := param(cs, "scope")
			if tok == nil || stepUps == maxStepUps || (want != "" && covered(t.scopeOf(tok), want)) {
				// Asking again for what was asked before cannot help.
				drain(resp)
				return nil, &unauthorized{fmt.Errorf("%w: %s wants scope %q, which the authorization server did not grant (HTTP 403 insufficient_scope)", ErrDenied, t.endpoint.Redacted(), want)}
			}
			stepUps++
			drain(resp)
			if tok, err = t.f.signIn(ctx, t.endpoint, t.s, tok, cs, true); err != nil {
				return nil, &unauthorized{err}
			}
		default:
			return resp, nil
		}
	}
}

// scopeOf is every scope asked for or granted with tok.
func (t *transport) scopeOf(tok *Token) string {
	t.s.mu.Lock()
	defer t.s.mu.Unlock()
	return union(t.s.scope, tok.Scope)
}

// nonceChallenge reports whether resp asks for a DPoP nonce (RFC 9449
// §9), keeping the nonce it gives.
func (t *transport) nonceChallenge(resp *http.Response, cs []challenge) bool {
	p := find(cs, "DPoP")
	n := resp.Header.Get("DPoP-Nonce")
	if p == nil || n == "" || p["error"] != "use_dpop_nonce" {
		return false
	}
	t.f.setNonce(t.endpoint.String(), n)
	return true
}

// send sends a copy of req carrying tok.
func (t *transport) send(req *http.Request, tok *Token) (*http.Response, error) {
	r := req.Clone(req.Context())
	if req.GetBody != nil {
		body, err := req.GetBody()
		if err != nil {
			return nil, err
		}
		r.Body = body
	}
	if tok != nil {
		if tok.Type == "DPoP" && t.f.cfg.DPoP != nil {
			proof, err := t.f.cfg.DPoP.Proof(req.Method, req.URL.String(), tok.AccessToken, t.f.nonce(req.URL.String()))
			if err != nil {
				return nil, &unauthorized{fmt.Errorf("signin: DPoP proof: %w", err)}
			}
			r.Header.Set("Authorization", "DPoP "+tok.AccessToken)
			r.Header.Set("DPoP", proof)
		} else {
			r.Header.Set("Authorization", "Bearer "+tok.AccessToken)
		}
	}
	resp, err := t.base.RoundTrip(r)
	if err == nil {
		if n := resp.Header.Get("DPoP-Nonce"); n != "" && t.f.cfg.DPoP != nil {
			t.f.setNonce(req.URL.String(), n)
		}
	}
	return resp, err
}

// replayable makes req's body readable again for a second attempt.
func replayable(req *http.Request) error {
	if req.Body == nil || req.Body == http.NoBody || req.GetBody != nil {
		return nil
	}
	b, err := io.ReadAll(req.Body)
	req.Body.Close()
	if err != nil {
		return fmt.Errorf("signin: reading the request body: %w", err)
	}
	req.GetBody = func() (io.ReadCloser, error) { return io.NopCloser(bytes.NewReader(b)), nil }
	req.Body, _ = req.GetBody()
	return nil
}

// drain discards what is left of a response that will not be used.
func drain(resp *http.Response) {
	io.Copy(io.Discard, io.LimitReader(resp.Body, 64<<10))
	resp.Body.Close()
}
