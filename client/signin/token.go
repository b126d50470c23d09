package signin

import (
	"context"
	"crypto/rand"
	"encoding/base64"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"net/http"
	"net/url"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/internal/jws"
)

// The grant and assertion types of RFC 7523 and RFC 8693.
const (
	grantJWTBearer     = "urn:ietf:params:oauth:grant-type:jwt-bearer"
	grantTokenExchange = "urn:ietf:params:oauth:grant-type:token-exchange"
	assertionJWT       = "urn:ietf:params:oauth:client-assertion-type:jwt-bearer"
	tokenTypeIDJAG     = "urn:ietf:params:oauth:token-type:id-jag"
	tokenTypeIDToken   = "urn:ietf:params:oauth:token-type:id_token"
)

// tokenResponse is a token endpoint's answer (RFC 6749 §5.1, RFC 8693
// §2.2.1).
type tokenResponse struct {
	AccessToken     string `json:"access_token"`
	TokenType       string `json:"token_type"`
	ExpiresIn       int64  `json:"expires_in"`
	RefreshToken    string `json:"refresh_token"`
	Scope           string `json:"scope"`
	IssuedTokenType string `json:"issued_token_type"`
}

// requestToken POSTs form to the token endpoint endpoint, authenticated as
// reg (nil: no client authentication), with a DPoP proof when the Flow has
// a key, retried once with the server's nonce when it asks for one (RFC
// 9449 §8).
func (f *Flow) requestToken(ctx context.Context, endpoint, audience string, reg *registration, form url.Values, dpopOn bool) (*tokenResponse, error) {
	if err := f.authenticate(reg, audience, form); err != nil {
		return nil, err
	}
	for attempt := 0; ; attempt++ {
		req, err := http.NewRequestWithContext(ctx, http.MethodPost, endpoint, strings.NewReader(form.Encode()))
		if err != nil {
			return nil, fmt.Errorf("signin: token request: %w", err)
		}
		req.Header.Set("Content-Type", "application/x-www-form-urlencoded")
		req.Header.Set("Accept", "application/json")
		if reg != nil && reg.method == authBasic {
			req.SetBasicAuth(url.QueryEscape(reg.id), url.QueryEscape(reg.secret))
		}
		if dpopOn && f.cfg.DPoP != nil {
			proof, err := f.cfg.DPoP.Proof(http.MethodPost, endpoint, "", f.nonce(endpoint))
			if err != nil {
				return nil, fmt.Errorf("signin: DPoP proof: %w", err)
			}
			req.Header.Set("DPoP", proof)
		}
		resp, err := f.http.Do(req)
		if err != nil {
			return nil, fmt.Errorf("signin: token request to %s: %w", endpoint, err)
		}
		raw, err := io.ReadAll(io.LimitReader(resp.Body, maxMetadata))
		resp.Body.Close()
		if err != nil {
			return nil, fmt.Errorf("signin: token request to %s: %w", endpoint, err)
		}
		nonce := resp.Header.Get("DPoP-Nonce")
		if nonce != "" {
			f.setNonce(endpoint, nonce)
		}
		if resp.StatusCode != http.StatusOK {
			if attempt == 0 && dpopOn && f.cfg.DPoP != nil && nonce != "" && errorCode(raw) == "use_dpop_nonce" {
				continue
			}
			return nil, fmt.Errorf("%w: token endpoint %s: %s", ErrDenied, endpoint, oauthError(resp.StatusCode, raw))
		}
		var tr tokenResponse
		if err := json.Unmarshal(raw, &tr); err != nil || tr.AccessToken == "" {
			return nil, fmt.Errorf("signin: token endpoint %s gave no access_token", endpoint)
		}
		return &tr, nil
	}
}

// authenticate adds reg's credentials to form, as its method wants
// (client_secret_basic goes in a header, which requestToken sets).
func (f *Flow) authenticate(reg *registration, audience string, form url.Values) error {
	if reg == nil {
		return nil
	}
	switch reg.method {
	case authBasic:
	case authPost:
		form.Set("client_id", reg.id)
		form.Set("client_secret", reg.secret)
	case authPrivateJWT:
		a, err := f.clientAssertion(reg.id, audience)
		if err != nil {
			return err
		}
		form.Set("client_assertion_type", assertionJWT)
		form.Set("client_assertion", a)
	default:
		form.Set("client_id", reg.id)
	}
	return nil
}

// clientAssertion is a JWT that authenticates the client (RFC 7523 §3):
// issued by and about the client, for the authorization server's issuer
// identifier, good for a minute.
func (f *Flow) clientAssertion(clientID, audience string) (string, error) {
	if f.cfg.PrivateKey == nil {
		return "", errors.New("signin: private_key_jwt needs Config.PrivateKey")
	}
	now := time.Now()
	header := map[string]any{"typ": "JWT"}
	if f.cfg.KeyID != "" {
		header["kid"] = f.cfg.KeyID
	}
	return jws.Sign(f.cfg.PrivateKey, header, map[string]any{
		"iss": clientID, "sub": clientID, "aud": audience,
		"iat": now.Unix(), "exp": now.Add(time.Minute).Unix(), "jti": random(16),
	})
}

// token turns a token response into a Token; requested is the scope
// asked for, kept when the server does not say what it granted.
func (tr *tokenResponse) token(requested string) (*Token, error) {
	t := &Token{AccessToken: tr.AccessToken, RefreshToken: tr.RefreshToken, Scope: tr.Scope}
	switch {
	case strings.EqualFold(tr.TokenType, "bearer"):
		t.Type = "Bearer"
	case strings.EqualFold(tr.TokenType, "dpop"):
		t.Type = "DPoP"
	default:
		return nil, fmt.Errorf("signin: the token endpoint issued a token of type %q, neither Bearer nor DPoP", tr.TokenType)
	}
	if t.Scope == "" {
		t.Scope = requested
	}
	if tr.ExpiresIn > 0 {
		t.Expiry = time.Now().Add(time.Duration(tr.ExpiresIn) * time.Second)
	}
	return t, nil
}

// oauthError describes an error response (RFC 6749 §5.2) without echoing
// anything but its error code and description.
func oauthError(status int, raw []byte) string {
	var e struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}
	if json.Unmarshal(raw, &e) != nil || e.Error == "" {
		return fmt.Sprintf("HTTP %d", status)
	}
	if e.Description != "" {
		return fmt.Sprintf("HTTP %d, %s: %s", status, e.Error, clip(e.Description))
	}
	return fmt.Sprintf("HTTP %d, %s", status, e.Error)
}

// errorCode is the "error" member of an error response, "" when none.
func errorCode(raw []byte) string {
	var e struct {
		Error string `json:"error"`
	}
	json.Unmarshal(raw, &e)
	return e.Error
}

// clip shortens a server's text for an error message.
func clip(s string) string {
	if len(s) > 200 {
		return s[:200] + "…"
	}
	return s
}

// random is n random bytes, base64url without padding.
func random(n int) string {
	b := make([]byte, n)
	rand.Read(b)
	return base64.RawURLEncoding.EncodeToString(b)
}
