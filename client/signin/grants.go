package signin

import (
	"context"
	"errors"
	"fmt"
	"net/url"
)

// clientCredentials runs the client credentials grant (OAuth Client
// Credentials extension) as Config.ClientID.
func (f *Flow) clientCredentials(ctx context.Context, d *discovery, scope string) (*Token, *registration, error) {
	reg := f.preRegistered(d.as)
	if reg == nil {
		return nil, nil, fmt.Errorf("signin: the client credentials grant needs Config.ClientID for %s", d.as.Issuer)
	}
	if reg.secret == "" && f.cfg.PrivateKey == nil {
		return nil, nil, errors.New("signin: the client credentials grant needs Config.ClientSecret or Config.PrivateKey")
	}
	form := url.Values{"grant_type": {"client_credentials"}, "resource": {d.resource}}
	if scope != "" {
		form.Set("scope", scope)
	}
	return f.finish(ctx, d, reg, form, scope)
}

// jwtBearer runs the JWT bearer grant (RFC 7523 §2.1) with the
// assertion g gives.
func (f *Flow) jwtBearer(ctx context.Context, d *discovery, g JWTBearer, scope string) (*Token, *registration, error) {
	if g.Assertion == nil {
		return nil, nil, errors.New("signin: JWTBearer needs an Assertion")
	}
	assertion, err := g.Assertion(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("signin: JWT bearer assertion: %w", err)
	}
	reg := f.preRegistered(d.as)
	form := url.Values{"grant_type": {grantJWTBearer}, "assertion": {assertion}, "resource": {d.resource}}
	if scope != "" {
		form.Set("scope", scope)
	}
	return f.finish(ctx, d, reg, form, scope)
}

// enterpriseManaged exchanges the user's ID token at the identity
// provider for an ID-JAG (RFC 8693 §2.1, the Identity Assertion
// Authorization Grant), then presents it to the authorization server as
// a JWT bearer grant.
func (f *Flow) enterpriseManaged(ctx context.Context, d *discovery, g EnterpriseManaged, scope string) (*Token, *registration, error) {
	if g.IDToken == nil || g.TokenEndpoint == "" {
		return nil, nil, errors.New("signin: EnterpriseManaged needs a TokenEndpoint and an IDToken")
	}
	if _, err := checkURL("identity provider token endpoint", g.TokenEndpoint); err != nil {
		return nil, nil, err
	}
	reg := f.preRegistered(d.as)
	if reg == nil {
		return nil, nil, fmt.Errorf("signin: enterprise-managed authorization needs Config.ClientID for %s", d.as.Issuer)
	}
	idToken, err := g.IDToken(ctx)
	if err != nil {
		return nil, nil, fmt.Errorf("signin: ID token: %w", err)
	}
	exchange := url.Values{
		"grant_type":           {grantTokenExchange},
		"requested_token_type": {tokenTypeIDJAG},
		"audience":             {d.as.Issuer},
		"resource":             {d.resource},
		"subject_token":        {idToken},
		"subject_token_type":   {tokenTypeIDToken},
	}
	if scope != "" {
		exchange.Set("scope", scope)
	}
	idp := &registration{id: g.ClientID, secret: g.ClientSecret, method: authNone}
	if g.ClientSecret != "" {
		idp.method = authBasic
	}
	tr, err := f.requestToken(ctx, g.TokenEndpoint, g.TokenEndpoint, idp, exchange, false)
	if err != nil {
		return nil, nil, fmt.Errorf("signin: identity provider: %w", err)
	}
	form := url.Values{"grant_type": {grantJWTBearer}, "assertion": {tr.AccessToken}}
	if scope != "" {
		form.Set("scope", scope)
	}
	return f.finish(ctx, d, reg, form, scope)
}

// finish POSTs a grant's form to the authorization server's token
// endpoint and returns the token.
func (f *Flow) finish(ctx context.Context, d *discovery, reg *registration, form url.Values, scope string) (*Token, *registration, error) {
	tr, err := f.requestToken(ctx, d.as.TokenEndpoint, d.as.Issuer, reg, form, true)
	if err != nil {
		return nil, nil, err
	}
	t, err := tr.token(scope)
	return t, reg, err
}
