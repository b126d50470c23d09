package jwtauth

import (
	"encoding/json"
	"fmt"
	"math"
	"slices"
	"strings"
	"time"

	"github.com/mcpwire/mcpwire/auth"
)

// claims is a verified token's payload.
type claims map[string]any

// decodeClaims decodes a payload, which must be a JSON object.
func decodeClaims(payload []byte) (claims, error) {
	var c claims
	if err := json.Unmarshal(payload, &c); err != nil || c == nil {
		return nil, fmt.Errorf("%w: payload is not a JSON object", ErrMalformed)
	}
	return c, nil
}

// checkClaims applies the issuer, audience, time and subject rules.
func (v *Verifier) checkClaims(c claims, aud string) error {
	if iss, ok := c["iss"].(string); !ok || iss != v.cfg.Issuer {
		return fmt.Errorf("%w: token is not from %q", ErrWrongIssuer, v.cfg.Issuer)
	}
	if err := checkAudience(c["aud"], aud); err != nil {
		return err
	}
	if err := v.checkTimes(c); err != nil {
		return err
	}
	if sub, ok := c["sub"].(string); !ok || sub == "" {
		return fmt.Errorf(`%w: no "sub" claim`, ErrMissingSubject)
	}
	if _, err := c.scopes(); err != nil {
		return err
	}
	return checkConfirmation(c)
}

// checkAudience requires aud, a string or an array of strings, to hold want.
func checkAudience(aud any, want string) error {
	var list []string
	switch aud := aud.(type) {
	case string:
		list = []string{aud}
	case []any:
		for _, a := range aud {
			s, ok := a.(string)
			if !ok {
				return fmt.Errorf(`%w: "aud" holds a non-string`, ErrMalformed)
			}
			list = append(list, s)
		}
	case nil:
	default:
		return fmt.Errorf(`%w: "aud" is neither a string nor an array`, ErrMalformed)
	}
	if !slices.Contains(list, want) {
		return fmt.Errorf("%w: token is not for %q", ErrWrongAudience, want)
	}
	return nil
}

// checkTimes applies "exp" (required), "nbf" and "iat" with the leeway.
func (v *Verifier) checkTimes(c claims) error {
	now, leeway := v.cfg.Now(), v.cfg.Leeway
	exp, ok, err := c.time("exp")
	if err != nil {
		return err
	}
	if !ok {
		return fmt.Errorf(`%w: no "exp" claim`, ErrExpired)
	}
	if !now.Before(exp.Add(leeway)) {
		return fmt.Errorf("%w: at %s (leeway %s)", ErrExpired, stamp(exp), leeway)
	}
	for _, name := range []string{"nbf", "iat"} {
		t, ok, err := c.time(name)
		if err != nil {
			return err
		}
		if ok && t.After(now.Add(leeway)) {
			return fmt.Errorf("%w: %q is %s (leeway %s)", ErrNotYetValid, name, stamp(t), leeway)
		}
	}
	return nil
}

// maxSeconds bounds NumericDate values (the year 5138) so that converting
// them to a time cannot overflow.
const maxSeconds = 1e11

// time returns the NumericDate claim name and whether it is present.
func (c claims) time(name string) (time.Time, bool, error) {
	raw, ok := c[name]
	if !ok {
		return time.Time{}, false, nil
	}
	f, ok := raw.(float64)
	if !ok {
		return time.Time{}, true, fmt.Errorf("%w: %q is not a number", ErrMalformed, name)
	}
	f = max(min(f, maxSeconds), -maxSeconds)
	sec, frac := math.Modf(f)
	return time.Unix(int64(sec), int64(frac*1e9)), true, nil
}

// stamp formats t for an error message.
func stamp(t time.Time) string { return t.UTC().Format(time.RFC3339) }

// scopes returns the scopes of "scope" (a space-separated string) or else
// of "scp" (an array of strings, or a space-separated string).
func (c claims) scopes() ([]string, error) {
	if raw, ok := c["scope"]; ok {
		s, ok := raw.(string)
		if !ok {
			return nil, fmt.Errorf(`%w: "scope" is not a string`, ErrMalformed)
		}
		return strings.Fields(s), nil
	}
	switch scp := c["scp"].(type) {
	case nil:
		return nil, nil
	case string:
		return strings.Fields(scp), nil
	case []any:
		out := make([]string, 0, len(scp))
		for _, a := range scp {
			s, ok := a.(string)
			if !ok {
				return nil, fmt.Errorf(`%w: "scp" holds a non-string`, ErrMalformed)
			}
			out = append(out, s)
		}
		return out, nil
	default:
		return nil, fmt.Errorf(`%w: "scp" is neither a string nor an array`, ErrMalformed)
	}
}

// principal returns the caller c names; checkClaims must have passed.
func (c claims) principal() *auth.Principal {
	scopes, _ := c.scopes()
	p := &auth.Principal{Subject: c["sub"].(string), Scopes: scopes, Claims: map[string]any{}}
	for k, val := range c {
		if k != "sub" && k != "scope" && k != "scp" {
			p.Claims[k] = val
		}
	}
	return p
}
