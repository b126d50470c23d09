package apps_test

import (
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/apps"
	"github.com/mcpwire/mcpwire/protocol"
)

// FuzzPeerMeta feeds a peer's _meta.ui, as a host reads it from a server
// it did not write, to what reads it: never a panic, and a policy built
// from it has the ten directives and nothing that could start another.
func FuzzPeerMeta(f *testing.F) {
	f.Add([]byte(`{"csp":{"connectDomains":["https://a.com"],"resourceDomains":["https://*.b.com:443"]},"permissions":{"camera":{}},"prefersBorder":true}`))
	f.Add([]byte(`{"csp":{"frameDomains":["https://a.com; script-src *"]}}`))
	f.Add([]byte(`{"resourceUri":"ui://x","visibility":["app","model"]}`))
	f.Add([]byte(`{"csp":null,"domain":"x"}`))
	f.Fuzz(func(t *testing.T, data []byte) {
		var m apps.ResourceMeta
		if json.Unmarshal(data, &m) == nil {
			if p, err := m.CSP.Policy(); err == nil {
				if n := strings.Count(p, ";"); n != 9 {
					t.Fatalf("policy with %d separators: %q", n, p)
				}
				if strings.ContainsAny(p, "\r\n,\"") {
					t.Fatalf("policy with a separator inside: %q", p)
				}
			}
			if m.Permissions != nil {
				if a := m.Permissions.Allow(); strings.ContainsAny(a, "\"'=") {
					t.Fatalf("allow %q", a)
				}
			}
		}
		tl := &protocol.Tool{Name: "t", Meta: protocol.Meta{"ui": data, "ui/resourceUri": data}}
		if tm, err := apps.ToolMetaOf(tl); err == nil && tm.ResourceURI != "" && !strings.HasPrefix(tm.ResourceURI, "ui://") {
			t.Fatalf("ToolMetaOf accepted %q", tm.ResourceURI)
		}
	})
}
