package main

import (
	"errors"
	"fmt"
	"net/http"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/internal/clip"
)

// headerFlags collects --header 'Name: value', repeatable. Its String
// never shows a value: a value may be a token.
type headerFlags struct {
	h   http.Header
	err error // the first malformed --header, reported after parsing
}

// String implements flag.Value, naming the headers only.
func (f *headerFlags) String() string {
	if f == nil || len(f.h) == 0 {
		return ""
	}
	names := make([]string, 0, len(f.h))
	for k := range f.h {
		names = append(names, k)
	}
	return strings.Join(names, ", ")
}

// Set implements flag.Value. A malformed header is noted in f.err, not
// returned: package flag would quote it, and it may hold a token.
func (f *headerFlags) Set(s string) error {
	name, value, ok := strings.Cut(s, ":")
	name, value = strings.TrimSpace(name), strings.TrimSpace(value)
	if !ok || !validHeaderName(name) || strings.ContainsAny(value, "\r\n") {
		if f.err == nil {
			f.err = errors.New("--header: want 'Name: value' (the argument is not shown: it may hold a token)")
		}
		return nil
	}
	if f.h == nil {
		f.h = make(http.Header)
	}
	f.h.Add(name, value)
	return nil
}

// validHeaderName reports whether name is an HTTP field name (an RFC 9110
// token).
func validHeaderName(name string) bool {
	if name == "" {
		return false
	}
	for _, r := range name {
		if r > 0x7e || r <= ' ' || strings.ContainsRune(`"(),/:;<=>?@[\]{}`, r) {
			return false
		}
	}
	return true
}

// authHeader returns the headers of --header with --bearer-env's token
// as Authorization: Bearer; nil when neither was given. Errors name the
// variable, never the token.
func authHeader(headers http.Header, bearerEnv string) (http.Header, error) {
	if bearerEnv == "" {
		return headers, nil
	}
	token := strings.TrimSpace(os.Getenv(bearerEnv))
	switch {
	case token == "":
		return nil, fmt.Errorf("--bearer-env %s: the environment variable is unset or empty", bearerEnv)
	case strings.ContainsAny(token, "\r\n"):
		return nil, fmt.Errorf("--bearer-env %s: the token holds a line break", bearerEnv)
	case headers.Get("Authorization") != "":
		return nil, errors.New("--bearer-env and --header 'Authorization: …' are exclusive")
	}
	h := headers.Clone()
	if h == nil {
		h = make(http.Header)
	}
	h.Set("Authorization", "Bearer "+token)
	return h, nil
}

// unauthorizedHint says what a 401 means to check's user: the endpoint
// wants a token (or refused the one sent), how to pass one, and where the
// server's protected resource metadata is when its WWW-Authenticate
// challenge named it (the specification's Authorization section,
// "Authorization Server Discovery").
func unauthorizedHint(challenge string, sent bool) string {
	var b strings.Builder
	if sent {
		b.WriteString("the endpoint refused the credentials sent (HTTP 401): check the token of --bearer-env or the --header values")
	} else {
		b.WriteString("the endpoint wants a token (HTTP 401): pass one with --bearer-env VAR (a bearer token read from the environment variable VAR) or --header 'Authorization: Bearer …'")
	}
	if u := resourceMetadata(challenge); u != "" {
		b.WriteString("; its protected resource metadata, which names the authorization server to get a token from, is at " + clip.String(u))
	}
	return b.String()
}

// resourceMetadata returns the resource_metadata parameter of a
// WWW-Authenticate challenge (RFC 9728 §5.1), "" when there is none.
func resourceMetadata(challenge string) string {
	const param = "resource_metadata="
	i := strings.Index(strings.ToLower(challenge), param)
	if i < 0 {
		return ""
	}
	rest := challenge[i+len(param):]
	if v, ok := strings.CutPrefix(rest, `"`); ok {
		var b strings.Builder
		for j := 0; j < len(v); j++ {
			switch {
			case v[j] == '\\' && j+1 < len(v):
				j++
				b.WriteByte(v[j])
			case v[j] == '"':
				return b.String()
			default:
				b.WriteByte(v[j])
			}
		}
		return "" // unterminated
	}
	if j := strings.IndexAny(rest, ", \t"); j >= 0 {
		rest = rest[:j]
	}
	return rest
}

// openAuthorization shows the user the authorization URL of a sign-in;
// nil opens the default browser (tests replace it).
var openAuthorization func(authorizationURL string) error

// signInWrap returns what signs check in to the endpoint when it answers
// 401: the authorization code flow of package signin, with the browser's
// redirect taken on a loopback port (RFC 8252), registering dynamically.
// stop closes the loopback listener.
func signInWrap(endpoint string) (wrap func(http.RoundTripper) http.RoundTripper, stop func(), err error) {
	lb, err := signin.ListenLoopback()
	if err != nil {
		return nil, nil, err
	}
	lb.Open = openAuthorization
	flow, err := signin.New(signin.Config{RedirectURL: lb.RedirectURL(), Authorize: lb.Authorize, ClientName: "mcpwire check"})
	if err != nil {
		lb.Close()
		return nil, nil, err
	}
	if _, err := flow.Wrap(endpoint, nil); err != nil {
		lb.Close()
		return nil, nil, err
	}
	return func(base http.RoundTripper) http.RoundTripper {
		rt, _ := flow.Wrap(endpoint, base)
		return rt
	}, func() { lb.Close() }, nil
}
