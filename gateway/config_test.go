package gateway_test

import (
	"strings"
	"testing"

	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/gateway"
)

// The minimal form of the configuration, exactly as documented, with
// ${VAR} expanded from the environment.
func TestParseConfig(t *testing.T) {
	t.Setenv("REMOTE_TOKEN", "s3cret")
	cfg, err := gateway.ParseConfig([]byte(`upstreams:
  - name: files                      # namespace: its tools appear as files_<tool>, prompts as files_<prompt>
    command: ["./files-server", "--root", "."]
    env: {LOG_LEVEL: debug}          # optional
  - name: remote
    url: http://127.0.0.1:9000/mcp   # Streamable HTTP, either era
    headers: {Authorization: "Bearer ${REMOTE_TOKEN}"}   # optional; ${VAR} from the environment
`))
	if err != nil {
		t.Fatal(err)
	}
	want := &gateway.Config{Upstreams: []gateway.Upstream{
		{Name: "files", Command: []string{"./files-server", "--root", "."}, Env: map[string]string{"LOG_LEVEL": "debug"}},
		{Name: "remote", URL: "http://127.0.0.1:9000/mcp", Headers: map[string]string{"Authorization": "Bearer s3cret"}},
	}}
	if diff := cmp.Diff(want, cfg); diff != "" {
		t.Fatalf("(-want +got):\n%s", diff)
	}
	json, err := gateway.ParseConfig([]byte(`{"upstreams":[{"name":"a","command":["x"]}],"separator":".","noNamespace":false}`))
	if err != nil || json.Separator != "." {
		t.Fatalf("JSON: %+v, %v", json, err)
	}
}

func TestParseConfigRefuses(t *testing.T) {
	for name, tc := range map[string]struct{ config, say string }{
		"unset":                     {"upstreams:\n  - name: r\n    url: http://x/${NOT_SET_ANYWHERE}\n", "NOT_SET_ANYWHERE"},
		"unknown":                   {"upstreams:\n  - name: r\n    url: http://x\n    header: {}\n", "header"},
		"bad name":                  {"upstreams:\n  - name: \"a b\"\n    command: [x]\n", `name "a b"`},
		"twice":                     {"upstreams:\n  - name: a\n    command: [x]\n  - name: a\n    command: [y]\n", `"a" is listed twice`},
		"neither":                   {"upstreams:\n  - name: a\n", "exactly one of command and url"},
		"headers":                   {"upstreams:\n  - name: a\n    command: [x]\n    headers: {A: b}\n", "headers need a url"},
		"not a list":                {"upstreams: 3\n", "configuration"},
		"credentials without a url": {"upstreams:\n  - name: a\n    command: [x]\n    clientCredentials: {clientId: c, clientSecret: s}\n", "a sign-in needs a url"},
		"credentials without an id": {"upstreams:\n  - name: a\n    url: http://x\n    clientCredentials: {clientSecret: s}\n", "needs a clientId"},
		"secret and key":            {"upstreams:\n  - name: a\n    url: http://x\n    clientCredentials: {clientId: c, clientSecret: s, privateKeyFile: k.pem}\n", "exactly one of clientSecret and privateKeyFile"},
		"neither secret nor key":    {"upstreams:\n  - name: a\n    url: http://x\n    clientCredentials: {clientId: c}\n", "exactly one of clientSecret and privateKeyFile"},
		"credentials unknown field": {"upstreams:\n  - name: a\n    url: http://x\n    clientCredentials: {clientId: c, secret: s}\n", "secret"},
	} {
		t.Run(name, func(t *testing.T) {
			if _, err := gateway.ParseConfig([]byte(tc.config)); err == nil || !strings.Contains(err.Error(), tc.say) {
				t.Fatalf("ParseConfig: %v, want an error saying %q", err, tc.say)
			}
		})
	}
}
