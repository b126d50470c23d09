package signin

import (
	"context"
	"crypto/sha256"
	"crypto/subtle"
	"encoding/base64"
	"errors"
	"fmt"
	"net/url"
	"slices"
)

// authorizationCode runs the authorization code flow with PKCE
// (Authorization Code Protection): the user's step through
// Config.Authorize, the response's state and iss checked, then the code
// exchanged for a token, with the resource indicator on both requests
// (RFC 8707).
func (f *Flow) authorizationCode(ctx context.Context, d *discovery, scope string) (*Token, *registration, error) {
	as := d.as
	if f.cfg.Authorize == nil || f.cfg.RedirectURL == "" {
		return nil, nil, errors.New("signin: the server asks for a sign-in, and Config has no Authorize and RedirectURL for the authorization code flow")
	}
	if as.AuthorizationEndpoint == "" {
		return nil, nil, fmt.Errorf("signin: the authorization server %s has no authorization_endpoint", as.Issuer)
	}
	// Without metadata (the 2025-03-26 fallbacks) nothing is advertised;
	// with it, S256 must be (Authorization Code Protection: clients MUST
	// refuse to proceed otherwise).
	if !as.assumed && !slices.Contains(as.CodeChallengeMethodsSupported, "S256") {
		return nil, nil, fmt.Errorf("%w: %s advertises code_challenge_methods_supported %v", ErrNoPKCE, as.Issuer, as.CodeChallengeMethodsSupported)
	}
	reg, err := f.client(ctx, as)
	if err != nil {
		return nil, nil, err
	}
	verifier := random(32)
	sum := sha256.Sum256([]byte(verifier))
	state := random(16)
	q := url.Values{
		"response_type":         {"code"},
		"client_id":             {reg.id},
		"redirect_uri":          {f.cfg.RedirectURL},
		"code_challenge":        {base64.RawURLEncoding.EncodeToString(sum[:])},
		"code_challenge_method": {"S256"},
		"state":                 {state},
		"resource":              {d.resource},
	}
	if scope != "" {
		q.Set("scope", scope)
	}
	au, err := url.Parse(as.AuthorizationEndpoint)
	if err != nil {
		return nil, nil, fmt.Errorf("signin: authorization_endpoint: %w", err)
	}
	for k, v := range au.Query() {
		if _, ours := q[k]; !ours {
			q[k] = v
		}
	}
	au.RawQuery = q.Encode()
	f.log.Info("signin: authorization request", "issuer", as.Issuer, "scope", scope)
	back, err := f.cfg.Authorize(ctx, au.String())
	if err != nil {
		return nil, nil, fmt.Errorf("signin: authorization: %w", err)
	}
	code, err := f.checkResponse(as, back.Query(), state)
	if err != nil {
		return nil, nil, err
	}
	form := url.Values{
		"grant_type":    {"authorization_code"},
		"code":          {code},
		"redirect_uri":  {f.cfg.RedirectURL},
		"code_verifier": {verifier},
		"resource":      {d.resource},
	}
	tr, err := f.requestToken(ctx, as.TokenEndpoint, as.Issuer, reg, form, true)
	if err != nil {
		return nil, nil, err
	}
	t, err := tr.token(scope)
	return t, reg, err
}

// checkResponse checks an authorization response (RFC 6749 §4.1.2) and
// returns its code: an error response is reported; the state must be the
// one sent; and the iss parameter (RFC 9207 §2.4) must equal the issuer
// exactly, with no normalization, whenever it is present, and must be
// present when the server advertises it.
func (f *Flow) checkResponse(as *serverMeta, q url.Values, state string) (string, error) {
	if e := q.Get("error"); e != "" {
		desc := q.Get("error_description")
		if desc != "" {
			return "", fmt.Errorf("%w: authorization: %s: %s", ErrDenied, e, clip(desc))
		}
		return "", fmt.Errorf("%w: authorization: %s", ErrDenied, e)
	}
	if subtle.ConstantTimeCompare([]byte(q.Get("state")), []byte(state)) != 1 {
		return "", fmt.Errorf("%w: the authorization response's state is not the one sent", ErrStateMismatch)
	}
	iss, present := q["iss"]
	switch {
	case present && (len(iss) != 1 || iss[0] != as.Issuer):
		return "", fmt.Errorf("%w: the authorization response names issuer %q, not %q (RFC 9207)", ErrIssuerMismatch, iss, as.Issuer)
	case !present && as.ISSParameterSupported:
		return "", fmt.Errorf("%w: %s advertises authorization_response_iss_parameter_supported, and its response has no iss (RFC 9207)", ErrIssuerMismatch, as.Issuer)
	}
	code := q.Get("code")
	if code == "" {
		return "", errors.New("signin: the authorization response has no code")
	}
	return code, nil
}
