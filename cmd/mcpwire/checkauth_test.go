package main

import (
	"net/http"
	"strings"
	"testing"
)

// bearerOnly serves h to requests that carry Authorization: Bearer
// token and answers the rest 401 with a challenge naming the protected
// resource metadata, as an oauth.ResourceServer does.
func bearerOnly(token string) func(http.Handler) http.Handler {
	return func(h http.Handler) http.Handler {
		return http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			if r.Header.Get("Authorization") != "Bearer "+token {
				w.Header().Set("WWW-Authenticate", `Bearer resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"`)
				http.Error(w, "unauthorized", http.StatusUnauthorized)
				return
			}
			h.ServeHTTP(w, r)
		})
	}
}

// check --url with a token: a server that wants one and got none says
// so and names the flags and the resource metadata; one that refuses the
// token says that; one that accepts it is reviewed. The token's bytes
// appear on neither stdout nor stderr, in the table or in --json. Not
// parallel: it sets the environment.
func TestURLBearer(t *testing.T) {
	const good, bad = "tok-9f1c2e-accepted-secret", "tok-7a4b0d-refused-secret"
	u := inProcess(t, bearerOnly(good))
	t.Setenv("MCPWIRE_TEST_GOOD", good)
	t.Setenv("MCPWIRE_TEST_BAD", bad)
	const metadata = "https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	for _, c := range []struct {
		name string
		args []string
		exit int
		say  []string
	}{
		{"no token", []string{"--no-sign-in"}, exitNotRun, []string{"401 Unauthorized", "wants a token", "--bearer-env VAR", "--header 'Authorization: Bearer", metadata}},
		{"no token, modern", []string{"--no-sign-in", "--era", "modern"}, exitNotRun, []string{"401 Unauthorized", "wants a token", "--bearer-env", metadata}},
		{"refused token", []string{"--bearer-env", "MCPWIRE_TEST_BAD"}, exitNotRun, []string{"401 Unauthorized", "refused the credentials", metadata}},
		{"refused header", []string{"--header", "Authorization: Bearer " + bad}, exitNotRun, []string{"refused the credentials"}},
		{"accepted token", []string{"--bearer-env", "MCPWIRE_TEST_GOOD"}, exitOK, []string{"admitted"}},
		{"accepted header", []string{"--header", "X-Trace: 1", "--header", "Authorization: Bearer " + good}, exitOK, []string{"admitted"}},
	} {
		for _, format := range [][]string{{"--json"}, nil} {
			res := runCheckCmd(t, append(append(append([]string{"check"}, format...), c.args...), "--url", u)...)
			if res.exit != c.exit {
				t.Errorf("%s %q: exit %d, want %d\n%s\n%s", c.name, format, res.exit, c.exit, res.stdout, res.stderr)
			}
			for _, s := range c.say {
				if !strings.Contains(res.stdout, s) {
					t.Errorf("%s %q: the report does not say %q:\n%s", c.name, format, s, res.stdout)
				}
			}
			for _, tok := range []string{good, bad} {
				if strings.Contains(res.stdout, tok) || strings.Contains(res.stderr, tok) {
					t.Errorf("%s %q: a token is printed:\nstdout %s\nstderr %s", c.name, format, res.stdout, res.stderr)
				}
			}
		}
	}
}

// The command line of --header and --bearer-env: errors name the flag or
// the variable, never a value.
func TestURLAuthCommandLine(t *testing.T) {
	const secret = "tok-55e1-never-shown"
	t.Setenv("MCPWIRE_TEST_EMPTY", "")
	t.Setenv("MCPWIRE_TEST_TOKEN", secret)
	for _, c := range []struct {
		args []string
		say  string
	}{
		{[]string{"check", "--bearer-env", "MCPWIRE_TEST_EMPTY", "--url", "http://127.0.0.1:1/mcp"}, "--bearer-env MCPWIRE_TEST_EMPTY: the environment variable is unset or empty"},
		{[]string{"check", "--header", "Bearer " + secret, "--url", "http://127.0.0.1:1/mcp"}, "want 'Name: value'"},
		{[]string{"check", "--header", "Bad Name: " + secret, "--url", "http://127.0.0.1:1/mcp"}, "want 'Name: value'"},
		{[]string{"check", "--header", "Authorization: Bearer " + secret, "--bearer-env", "MCPWIRE_TEST_TOKEN", "--url", "http://127.0.0.1:1/mcp"}, "are exclusive"},
		{[]string{"check", "--bearer-env", "MCPWIRE_TEST_TOKEN", "--", "./server"}, "go with --url"},
	} {
		res := runCheckCmd(t, c.args...)
		if res.exit != exitNotRun || res.stdout != "" || !strings.Contains(res.stderr, c.say) {
			t.Errorf("mcpwire %q: exit %d, stdout %q, stderr %q; want 2 and %q", c.args, res.exit, res.stdout, res.stderr, c.say)
		}
		if strings.Contains(res.stderr, secret) {
			t.Errorf("mcpwire %q: the token is printed: %s", c.args, res.stderr)
		}
	}
}

// resourceMetadata reads the parameter quoted, bare, among others, or
// finds none.
func TestResourceMetadata(t *testing.T) {
	for in, want := range map[string]string{
		`Bearer resource_metadata="https://a.example/x"`:                    "https://a.example/x",
		`Bearer error="invalid_token", resource_metadata="https://a/\"q\""`: `https://a/"q"`,
		`Bearer resource_metadata=https://a.example/y, scope="read"`:        "https://a.example/y",
		`Bearer realm="x"`:                       "",
		`Bearer resource_metadata="unterminated`: "",
		``:                                       "",
	} {
		if got := resourceMetadata(in); got != want {
			t.Errorf("resourceMetadata(%q) = %q, want %q", in, got, want)
		}
	}
}
