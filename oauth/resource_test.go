package oauth_test

import (
	"bytes"
	"context"
	"errors"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/oauth"
)

const (
	testResource = "https://mcp.example.com/mcp"
	testMetadata = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
)

func quiet() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// testTokens are the tokens of the tests: "reader" and "admin" hold the
// endpoint's scope, "outsider" does not; "stepped" is the reader's token
// after a step-up (the same subject, one scope more).
var testTokens = map[string]*auth.Principal{
	"reader":   {Subject: "ann", Scopes: []string{"mcp", "files:read"}},
	"stepped":  {Subject: "ann", Scopes: []string{"mcp", "files:read", "admin"}},
	"admin":    {Subject: "cy", Scopes: []string{"mcp", "admin"}},
	"outsider": {Subject: "eve", Scopes: []string{"files:read"}},
}

// testVerifier is StaticTokens, plus "outage" (the issuer's keys cannot be
// fetched) and "broken" (a verifier that answers nothing).
func testVerifier() oauth.Verifier {
	static := oauth.StaticTokens(testTokens)
	return oauth.VerifierFunc(func(ctx context.Context, token, resource string) (*auth.Principal, error) {
		switch token {
		case "outage":
			return nil, errors.New("fetching https://issuer.example/jwks: connection refused")
		case "broken":
			return nil, nil
		}
		if resource != testResource {
			return nil, errors.New("wrong resource " + resource)
		}
		return static.Verify(ctx, token, resource)
	})
}

func testOptions() oauth.Options {
	return oauth.Options{
		Resource:             testResource,
		AuthorizationServers: []string{"https://auth.example.com"},
		ScopesSupported:      []string{"mcp", "files:read", "admin"},
		RequiredScopes:       []string{"mcp"},
		ResourceName:         "Example MCP server",
		Logger:               quiet(),
	}
}

func newTestRS(t *testing.T) *oauth.ResourceServer {
	t.Helper()
	rs, err := oauth.NewResourceServer(testVerifier(), testOptions())
	if err != nil {
		t.Fatal(err)
	}
	return rs
}

// The token check, case by case: the status, the challenge (exactly), the
// body's error code, and whether the protected handler ran with the
// token's principal.
func TestProtect(t *testing.T) {
	rs := newTestRS(t)
	var seen *auth.Principal
	var ran bool
	next := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ran, seen = true, auth.PrincipalFrom(r.Context())
		if auth.ChallengeScopes(context.Background(), nil) {
			t.Error("a challenge outside the request's context")
		}
		w.Write([]byte("ok"))
	})
	h := rs.Protect(next)
	missing := `Bearer scope="mcp", resource_metadata="` + testMetadata + `"`
	invalid := func(why string) string {
		return `Bearer error="invalid_token", error_description="` + why + `", scope="mcp", resource_metadata="` + testMetadata + `"`
	}
	badRequest := func(why string) string {
		return `Bearer error="invalid_request", error_description="` + why + `", scope="mcp", resource_metadata="` + testMetadata + `"`
	}
	for _, tt := range []struct {
		name    string
		auth    []string // Authorization headers
		query   string
		status  int
		www     string // the WWW-Authenticate challenge; "" for none
		code    string // the body's "error"
		subject string // the principal next saw; "" when next must not run
	}{
		{"no header", nil, "", 401, missing, "unauthorized", ""},
		{"wrong scheme", []string{"Basic YWxhZGRpbjpvcGVuc2VzYW1l"}, "", 401, missing, "unauthorized", ""},
		{"scheme alone", []string{"Bearer"}, "", 401, invalid("the bearer token is empty"), "invalid_token", ""},
		{"empty token", []string{"Bearer   "}, "", 401, invalid("the bearer token is empty"), "invalid_token", ""},
		{"malformed token", []string{"Bearer two words"}, "", 401, invalid("the bearer token is malformed"), "invalid_token", ""},
		{"bad characters", []string{`Bearer a"b`}, "", 401, invalid("the bearer token is malformed"), "invalid_token", ""},
		{"invalid token", []string{"Bearer nope"}, "", 401, invalid("invalid token: not a token this server knows"), "invalid_token", ""},
		{"two headers", []string{"Bearer reader", "Bearer reader"}, "", 400, badRequest("more than one Authorization header"), "invalid_request", ""},
		{"token in the query", nil, "access_token=reader", 400,
			badRequest("access tokens are not accepted in the URL query; send them in the Authorization header"), "invalid_request", ""},
		{"token in the query and the header", []string{"Bearer reader"}, "x=1&access_token=reader", 400,
			badRequest("access tokens are not accepted in the URL query; send them in the Authorization header"), "invalid_request", ""},
		{"insufficient scope", []string{"Bearer outsider"}, "", 403,
			`Bearer error="insufficient_scope", error_description="the access token does not grant the scopes this resource needs", scope="mcp", resource_metadata="` + testMetadata + `"`,
			"insufficient_scope", ""},
		{"verifier outage", []string{"Bearer outage"}, "", 503, "", "temporarily_unavailable", ""},
		{"verifier answers nothing", []string{"Bearer broken"}, "", 503, "", "temporarily_unavailable", ""},
		{"valid", []string{"Bearer reader"}, "", 200, "", "", "ann"},
		{"scheme in any case", []string{"bEARER admin"}, "", 200, "", "", "cy"},
		{"several spaces", []string{"Bearer    reader"}, "", 200, "", "", "ann"},
		{"padded token", []string{"Bearer nope=="}, "", 401, invalid("invalid token: not a token this server knows"), "invalid_token", ""},
		{"other query", []string{"Bearer reader"}, "access=1", 200, "", "", "ann"},
	} {
		t.Run(tt.name, func(t *testing.T) {
			ran, seen = false, nil
			target := "/mcp"
			if tt.query != "" {
				target += "?" + tt.query
			}
			req := httptest.NewRequest(http.MethodPost, target, strings.NewReader("{}"))
			for _, a := range tt.auth {
				req.Header.Add("Authorization", a)
			}
			rec := httptest.NewRecorder()
			h.ServeHTTP(rec, req)
			if rec.Code != tt.status {
				t.Errorf("status %d, want %d", rec.Code, tt.status)
			}
			if got := rec.Header().Get("WWW-Authenticate"); got != tt.www {
				t.Errorf("WWW-Authenticate:\n got %s\nwant %s", got, tt.www)
			}
			if tt.subject != "" {
				if !ran || seen == nil || seen.Subject != tt.subject {
					t.Errorf("next ran %v with %+v, want %s", ran, seen, tt.subject)
				}
				return
			}
			if ran {
				t.Error("the protected handler ran")
			}
			var body struct {
				Error       string `json:"error"`
				Description string `json:"error_description"`
			}
			if err := json.Unmarshal(rec.Body.Bytes(), &body); err != nil || body.Error != tt.code || body.Description == "" {
				t.Errorf("body %s (%v), want error %q with a description", rec.Body, err, tt.code)
			}
			if ct := rec.Header().Get("Content-Type"); ct != "application/json" {
				t.Errorf("Content-Type %q", ct)
			}
			if tt.status == 503 {
				if rec.Header().Get("Retry-After") == "" || bytes.Contains(rec.Body.Bytes(), []byte("issuer")) {
					t.Errorf("outage: Retry-After %q, body %s", rec.Header().Get("Retry-After"), rec.Body)
				}
			}
		})
	}
}

// A verifier failure is logged (never the token), not sent.
func TestProtectLogsOutage(t *testing.T) {
	var logs bytes.Buffer
	opts := testOptions()
	opts.Logger = slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelDebug}))
	rs, err := oauth.NewResourceServer(testVerifier(), opts)
	if err != nil {
		t.Fatal(err)
	}
	h := rs.Protect(http.NotFoundHandler())
	for _, tok := range []string{"outage", "nope", "outsider"} {
		req := httptest.NewRequest(http.MethodPost, "/mcp", nil)
		req.Header.Set("Authorization", "Bearer "+tok)
		h.ServeHTTP(httptest.NewRecorder(), req)
	}
	out := logs.String()
	if !strings.Contains(out, "connection refused") || !strings.Contains(out, "level=ERROR") {
		t.Errorf("the outage is not logged as an error:\n%s", out)
	}
	for _, tok := range []string{"nope", "outsider"} {
		if strings.Contains(out, tok+" ") || strings.Contains(out, "Bearer "+tok) {
			t.Errorf("a token reached the log:\n%s", out)
		}
	}
}

// NewResourceServer refuses options the metadata or the challenges could
// not carry.
func TestNewResourceServerRefuses(t *testing.T) {
	for _, tt := range []struct {
		name string
		edit func(*oauth.Options)
	}{
		{"no resource", func(o *oauth.Options) { o.Resource = "" }},
		{"relative resource", func(o *oauth.Options) { o.Resource = "/mcp" }},
		{"other scheme", func(o *oauth.Options) { o.Resource = "ftp://mcp.example.com/mcp" }},
		{"fragment", func(o *oauth.Options) { o.Resource = "https://mcp.example.com/mcp#x" }},
		{"query", func(o *oauth.Options) { o.Resource = "https://mcp.example.com/mcp?tenant=1" }},
		{"user info", func(o *oauth.Options) { o.Resource = "https://me@mcp.example.com/mcp" }},
		{"pattern characters", func(o *oauth.Options) { o.Resource = "https://mcp.example.com/{x}" }},
		{"no authorization server", func(o *oauth.Options) { o.AuthorizationServers = nil }},
		{"bad authorization server", func(o *oauth.Options) { o.AuthorizationServers = []string{"auth.example.com"} }},
		{"bad scope", func(o *oauth.Options) { o.ScopesSupported = []string{"two words"} }},
		{"quoted scope", func(o *oauth.Options) { o.RequiredScopes = []string{`a"b`} }},
		{"scope twice", func(o *oauth.Options) { o.ScopesSupported = []string{"mcp", "mcp"} }},
		{"offline_access", func(o *oauth.Options) { o.ScopesSupported = []string{"mcp", "offline_access"} }},
		{"bad documentation URL", func(o *oauth.Options) { o.ResourceDocumentation = "docs" }},
	} {
		opts := testOptions()
		tt.edit(&opts)
		if _, err := oauth.NewResourceServer(testVerifier(), opts); !errors.Is(err, oauth.ErrInvalidOptions) {
			t.Errorf("%s: %v", tt.name, err)
		}
	}
	if _, err := oauth.NewResourceServer(nil, testOptions()); err == nil {
		t.Error("no verifier: accepted")
	}
}

// The resource's scheme and host are canonical (lower case); the metadata
// URL is the RFC 9728 well-known URI of the resource, path appended.
func TestMetadataURL(t *testing.T) {
	for _, tt := range []struct{ resource, canonical, metadata, endpoint string }{
		{"https://mcp.example.com/mcp", "https://mcp.example.com/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/mcp", "/mcp"},
		{"HTTPS://MCP.Example.COM/public/mcp", "https://mcp.example.com/public/mcp", "https://mcp.example.com/.well-known/oauth-protected-resource/public/mcp", "/public/mcp"},
		{"https://mcp.example.com", "https://mcp.example.com", "https://mcp.example.com/.well-known/oauth-protected-resource", "/"},
		{"https://mcp.example.com/", "https://mcp.example.com/", "https://mcp.example.com/.well-known/oauth-protected-resource", "/"},
		{"http://127.0.0.1:8080/mcp/", "http://127.0.0.1:8080/mcp/", "http://127.0.0.1:8080/.well-known/oauth-protected-resource/mcp/", "/mcp/"},
	} {
		opts := testOptions()
		opts.Resource = tt.resource
		rs, err := oauth.NewResourceServer(testVerifier(), opts)
		if err != nil {
			t.Fatal(err)
		}
		if rs.Resource() != tt.canonical || rs.MetadataURL() != tt.metadata || rs.EndpointPath() != tt.endpoint {
			t.Errorf("%s: resource %s, metadata %s, endpoint %s", tt.resource, rs.Resource(), rs.MetadataURL(), rs.EndpointPath())
		}
	}
}

// The metadata document, at both well-known paths: public, cacheable,
// readable from any origin; GET and HEAD only.
func TestMetadataHandler(t *testing.T) {
	rs := newTestRS(t)
	mux := http.NewServeMux()
	rs.Mount(mux, http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) { w.Write([]byte("endpoint")) }))
	want := `{"resource":"https://mcp.example.com/mcp","authorization_servers":["https://auth.example.com"],` +
		`"scopes_supported":["mcp","files:read","admin"],"bearer_methods_supported":["header"],"resource_name":"Example MCP server"}`
	for _, path := range []string{"/.well-known/oauth-protected-resource/mcp", "/.well-known/oauth-protected-resource"} {
		for _, tt := range []struct {
			method string
			status int
			body   string
		}{
			{http.MethodGet, 200, want},
			{http.MethodHead, 200, ""},
			{http.MethodOptions, 204, ""},
			{http.MethodPost, 405, `{"error":"method_not_allowed","error_description":"the metadata document is read with GET"}` + "\n"},
			{http.MethodDelete, 405, `{"error":"method_not_allowed","error_description":"the metadata document is read with GET"}` + "\n"},
		} {
			rec := httptest.NewRecorder()
			mux.ServeHTTP(rec, httptest.NewRequest(tt.method, path, nil))
			h := rec.Header()
			if rec.Code != tt.status || rec.Body.String() != tt.body || h.Get("Access-Control-Allow-Origin") != "*" {
				t.Errorf("%s %s: %d %q %v", tt.method, path, rec.Code, rec.Body, h)
			}
			switch tt.status {
			case 200:
				if h.Get("Content-Type") != "application/json" || h.Get("Cache-Control") != "public, max-age=3600" || h.Get("Content-Length") != strconv.Itoa(len(want)) {
					t.Errorf("%s %s: headers %v", tt.method, path, h)
				}
			case 204:
				if !strings.Contains(h.Get("Access-Control-Allow-Methods"), "GET") {
					t.Errorf("preflight: %v", h)
				}
			case 405:
				if h.Get("Allow") != "GET, HEAD, OPTIONS" {
					t.Errorf("%s: Allow %q", tt.method, h.Get("Allow"))
				}
			}
		}
	}
	// The endpoint needs a token; the metadata does not; other paths are
	// not the endpoint.
	for path, status := range map[string]int{"/mcp": 401, "/mcp/x": 404, "/": 404, "/.well-known/oauth-protected-resource/other": 404} {
		rec := httptest.NewRecorder()
		mux.ServeHTTP(rec, httptest.NewRequest(http.MethodPost, path, nil))
		if rec.Code != status {
			t.Errorf("POST %s: %d, want %d", path, rec.Code, status)
		}
	}
}

// StaticTokens knows its tokens and nothing else, and hands out copies.
func TestStaticTokens(t *testing.T) {
	v := oauth.StaticTokens(map[string]*auth.Principal{"t1": {Subject: "ann", Scopes: []string{"a"}}, "anon": nil})
	p, err := v.Verify(context.Background(), "t1", "https://any.example/mcp")
	if err != nil || p.Subject != "ann" || !p.HasScope("a") {
		t.Fatalf("t1: %+v %v", p, err)
	}
	p.Scopes[0] = "changed"
	if p2, _ := v.Verify(context.Background(), "t1", ""); !p2.HasScope("a") {
		t.Error("a caller changed the registered principal")
	}
	if p, err := v.Verify(context.Background(), "anon", ""); err != nil || p == nil || p.Subject != "" {
		t.Errorf("anon: %+v %v", p, err)
	}
	for _, tok := range []string{"", "t2", "T1", "t1 "} {
		if _, err := v.Verify(context.Background(), tok, ""); !errors.Is(err, oauth.ErrInvalidToken) || tok != "" && strings.Contains(err.Error(), tok) {
			t.Errorf("%q: %v", tok, err)
		}
	}
}
