package oauth

import (
	"errors"
	"log/slog"
	"net/http"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/dpop"
)

// ResourceServer makes an HTTP endpoint an OAuth 2.1 resource server: it
// checks the bearer token of every request with a Verifier, refuses
// requests without a usable one with the challenges the MCP authorization
// spec asks for, and serves the Protected Resource Metadata document that
// tells clients where to get a token. Its methods are safe for concurrent
// use.
type ResourceServer struct {
	v        Verifier
	c        *checked
	required []string
	scope401 string // the scope of a 401 challenge, "" for none
	log      *slog.Logger

	dpop         *dpop.Checker // nil: Bearer tokens only
	dpopRequired bool          // DPoP tokens only
}

// NewResourceServer returns a resource server that checks tokens with v.
// It fails, wrapping ErrInvalidOptions, for options the metadata document
// or the challenges could not carry (see Options).
func NewResourceServer(v Verifier, opts Options) (*ResourceServer, error) {
	if v == nil {
		return nil, errors.New("oauth: NewResourceServer: no Verifier")
	}
	c, err := opts.check()
	if err != nil {
		return nil, err
	}
	rs := &ResourceServer{v: v, c: c, required: slices.Clone(opts.RequiredScopes), log: opts.Logger,
		dpop: opts.DPoP, dpopRequired: opts.DPoPRequired}
	if rs.log == nil {
		rs.log = slog.Default()
	}
	first := opts.RequiredScopes
	if len(first) == 0 {
		first = opts.ScopesSupported
	}
	rs.scope401 = strings.Join(first, " ")
	return rs, nil
}

// Resource returns the canonical URI of the protected endpoint, the one a
// Verifier gets with every token.
func (rs *ResourceServer) Resource() string { return rs.c.resource }

// MetadataURL returns the URL of the metadata document that every
// challenge names as resource_metadata: the well-known URI RFC 9728 §3.1
// builds for the resource (its path appended to WellKnownPath), which
// clients also try first when a challenge names none.
func (rs *ResourceServer) MetadataURL() string { return rs.c.metadataURL }

// Protect returns next behind the bearer-token check, for every method
// (POST, GET, DELETE alike: the MCP authorization spec wants a token on
// every request):
//
//   - no Authorization header, or one of another scheme: 401 with
//     WWW-Authenticate: Bearer resource_metadata="…", scope="…" (no error
//     code, as RFC 6750 asks of a request without credentials);
//   - an empty or malformed token, or one the Verifier refuses with
//     ErrInvalidToken: 401 with error="invalid_token" and an
//     error_description;
//   - two Authorization headers, or access_token in the URL query: 400
//     with error="invalid_request" (a token is only ever read from the
//     header);
//   - a valid token lacking one of Options.RequiredScopes: 403 with
//     error="insufficient_scope" and scope naming them;
//   - a Verifier failure of any other kind (the issuer's keys could not
//     be fetched): 503 with Retry-After and no challenge, since the token
//     may well be good; the error is logged, never sent.
//
// Every refusal has a JSON body, {"error": code, "error_description":
// why}, with the code "unauthorized" when the challenge has none.
//
// A request that passes reaches next with the Verifier's principal in its
// context (auth.WithPrincipal), which package mcp gives every handler, and
// with a scope challenge (auth.WithScopeChallenge): when the server
// refuses an operation because the principal lacks the scopes of a tool,
// prompt or resource, the response is sent as 403 insufficient_scope
// whose scope names what that operation needs (Options.RequiredScopes and
// the item's own), its body being the server's one JSON-RPC answer. The
// status is decided when next first writes: a response already under way
// (a stream) cannot become a 403, and its JSON-RPC error says the same.
//
// With Options.DPoP set, a request may instead carry Authorization: DPoP
// and the token, with exactly one DPoP header holding a proof (RFC 9449
// §7.1); every challenge then has a DPoP one, algs="ES256 RS256", after
// the Bearer one (none with Options.DPoPRequired), the error code going
// on the challenge of the scheme the request used. The token's principal
// must carry its confirmation, Principal.Claims["cnf"] a map with "jkt"
// (RFC 9449 §6.1, as package jwtauth leaves it), and the proof must be
// for this request (method, and URL: the resource's scheme and host with
// the request's path), for the token (ath) and by the key of that
// thumbprint:
//
//   - no DPoP header, or a proof the checker refuses (dpop.ErrInvalidProof):
//     401 with error="invalid_dpop_proof";
//   - two DPoP headers: 400 with error="invalid_request";
//   - a DPoP token without cnf.jkt: 401 with error="invalid_token";
//   - a proof without the server's current nonce, when the checker
//     requires one (dpop.ErrUseNonce): 401 with error="use_dpop_nonce"
//     and a DPoP-Nonce header holding a fresh one (RFC 9449 §9);
//   - a token with cnf.jkt sent as a Bearer token: 401 with
//     error="invalid_token" (RFC 9449 §7.2: a bound token is never
//     accepted as a bearer one);
//   - with Options.DPoPRequired, a Bearer token: 401 as for a request
//     without credentials;
//   - a replay cache that fails: 503, as for a verifier failure.
//
// A request that passes with DPoP gets the current nonce in a DPoP-Nonce
// header of its response.
func (rs *ResourceServer) Protect(next http.Handler) http.Handler {
	return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		p, scheme, ok := rs.authenticate(w, r)
		if !ok {
			return
		}
		up := &stepUp{}
		ctx := auth.WithPrincipal(auth.WithScopeChallenge(r.Context(), up.add), p)
		cw := &challengeWriter{ResponseWriter: w, rs: rs, up: up, scheme: scheme}
		next.ServeHTTP(cw, r.WithContext(ctx))
		if !cw.wrote && up.challenged() {
			cw.WriteHeader(http.StatusOK) // becomes the 403
		}
	})
}

// authenticate checks r's token (and proof) and returns its principal
// and scheme, or answers r.
func (rs *ResourceServer) authenticate(w http.ResponseWriter, r *http.Request) (*auth.Principal, string, bool) {
	c, ref := rs.credentialsOf(r)
	if ref != nil {
		level := slog.LevelInfo
		if ref.code == "" {
			level = slog.LevelDebug
		}
		rs.log.Log(r.Context(), level, "oauth: request refused", "status", ref.status, "error", ref.code, "reason", ref.why)
		rs.refuse(w, ref, rs.scope401)
		return nil, "", false
	}
	p, err := rs.v.Verify(r.Context(), c.token, rs.c.resource)
	switch {
	case err == nil && p == nil:
		err = errors.New("the verifier returned neither a principal nor an error")
		fallthrough
	case err != nil && !errors.Is(err, ErrInvalidToken):
		rs.unavailable(w, r, "oauth: the token could not be checked", err)
		return nil, "", false
	case err != nil:
		rs.log.Info("oauth: token refused", "status", http.StatusUnauthorized, "reason", err.Error())
		rs.refuse(w, &refusal{http.StatusUnauthorized, codeInvalidToken, err.Error(), c.scheme}, rs.scope401)
		return nil, "", false
	}
	if rs.dpop != nil {
		ref, err := rs.checkBinding(w, r, c, p)
		if err != nil {
			rs.unavailable(w, r, "oauth: the DPoP proof could not be checked", err)
			return nil, "", false
		}
		if ref != nil {
			rs.log.Info("oauth: token refused", "status", ref.status, "error", ref.code, "reason", ref.why)
			rs.refuse(w, ref, rs.scope401)
			return nil, "", false
		}
	}
	if missing := lacking(p, rs.required); len(missing) > 0 {
		rs.log.Info("oauth: token refused", "status", http.StatusForbidden, "subject", p.Subject, "missing", strings.Join(missing, " "))
		rs.refuse(w, &refusal{http.StatusForbidden, codeInsufficientScope, "the access token does not grant the scopes this resource needs", c.scheme},
			strings.Join(rs.required, " "))
		return nil, "", false
	}
	return p, c.scheme, true
}

// unavailable answers 503 for a check that could not be made, logging
// why (never sent: it may name internal hosts).
func (rs *ResourceServer) unavailable(w http.ResponseWriter, r *http.Request, msg string, err error) {
	level := slog.LevelError
	if r.Context().Err() != nil {
		level = slog.LevelDebug // the client left while its token was checked
	}
	rs.log.Log(r.Context(), level, msg, "error", err.Error())
	w.Header().Set("Retry-After", "5")
	writeBody(w, http.StatusServiceUnavailable, "temporarily_unavailable", "the access token could not be checked right now; try again later")
}

// lacking returns the scopes of want that p does not hold.
func lacking(p *auth.Principal, want []string) []string {
	var out []string
	for _, s := range want {
		if !p.HasScope(s) {
			out = append(out, s)
		}
	}
	return out
}

// refuse answers with ref's status, its challenges and its JSON body.
func (rs *ResourceServer) refuse(w http.ResponseWriter, ref *refusal, scope string) {
	rs.setChallenges(w.Header(), ref.scheme, ref.code, ref.why, scope)
	code := ref.code
	if code == "" {
		code = "unauthorized"
	}
	writeBody(w, ref.status, code, ref.why)
}

// setChallenges sets the WWW-Authenticate challenges of a refusal: a
// Bearer one unless DPoP is required, and a DPoP one when DPoP is on,
// each in a header field of its own. The error code goes on the
// challenge of scheme, the scheme of the request's credentials, or on
// every challenge when scheme is "".
func (rs *ResourceServer) setChallenges(h http.Header, scheme, code, why, scope string) {
	h.Del("WWW-Authenticate")
	for _, s := range []string{schemeBearer, schemeDPoP} {
		if s == schemeBearer && rs.dpopRequired || s == schemeDPoP && rs.dpop == nil {
			continue
		}
		c := code
		if scheme != "" && scheme != s {
			c = ""
		}
		h.Add("WWW-Authenticate", rs.challenge(s, c, why, scope))
	}
}

// challenge builds a challenge of scheme (RFC 6750 §3, RFC 9449 §7.1):
// for DPoP the algorithms first, the error code and its description when
// there is a code, the scope when there is one, and always
// resource_metadata (RFC 9728 §5.1).
func (rs *ResourceServer) challenge(scheme, code, why, scope string) string {
	var b strings.Builder
	b.WriteString(scheme + " ")
	start := b.Len()
	param := func(name, value string) {
		if b.Len() > start {
			b.WriteString(", ")
		}
		b.WriteString(name + `="` + value + `"`)
	}
	if scheme == schemeDPoP {
		param("algs", strings.Join(dpop.Algorithms(), " "))
	}
	if code != "" {
		param("error", code)
		param("error_description", description(why))
	}
	if scope != "" {
		param("scope", scope)
	}
	param("resource_metadata", rs.c.metadataURL)
	return b.String()
}

// maxDescription bounds an error_description.
const maxDescription = 200

// description makes text fit an error_description (RFC 6750 §3: printable
// ASCII other than '"' and '\'), at most maxDescription bytes.
func description(text string) string {
	b := []byte(text)
	if len(b) > maxDescription {
		b = append(b[:maxDescription-3], "..."...)
	}
	for i, c := range b {
		switch {
		case c == '"':
			b[i] = '\''
		case c == '\\':
			b[i] = '/'
		case c < 0x20 || c > 0x7e:
			b[i] = '?'
		}
	}
	return string(b)
}

// writeBody writes a refusal's JSON body.
func writeBody(w http.ResponseWriter, status int, code, why string) {
	body, _ := json.Marshal(struct {
		Error       string `json:"error"`
		Description string `json:"error_description"`
	}{code, why})
	h := w.Header()
	h.Set("Content-Type", "application/json")
	h.Set("Cache-Control", "no-store")
	w.WriteHeader(status)
	w.Write(append(body, '\n'))
}
