package apps_test

import (
	"errors"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/apps"
)

// The policy holds what was declared and nothing else, and the
// extension's restrictive default when nothing was.
func TestPolicy(t *testing.T) {
	for name, tc := range map[string]struct {
		csp  *apps.CSP
		want string
	}{
		"none": {nil, "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
			"font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'"},
		"empty": {&apps.CSP{}, "default-src 'none'; script-src 'self' 'unsafe-inline'; style-src 'self' 'unsafe-inline'; img-src 'self' data:; " +
			"font-src 'self'; media-src 'self' data:; connect-src 'none'; frame-src 'none'; object-src 'none'; base-uri 'self'"},
		"all": {&apps.CSP{
			ConnectDomains:  []string{"https://api.example.com", "wss://live.example.com:8443"},
			ResourceDomains: []string{"https://*.cdn.example.com"},
			FrameDomains:    []string{"https://www.youtube.com"},
			BaseURIDomains:  []string{"http://[::1]:8080"},
		}, "default-src 'none'; script-src 'self' 'unsafe-inline' https://*.cdn.example.com; style-src 'self' 'unsafe-inline' https://*.cdn.example.com; " +
			"img-src 'self' data: https://*.cdn.example.com; font-src 'self' https://*.cdn.example.com; media-src 'self' data: https://*.cdn.example.com; " +
			"connect-src https://api.example.com wss://live.example.com:8443; frame-src https://www.youtube.com; object-src 'none'; base-uri http://[::1]:8080"},
	} {
		t.Run(name, func(t *testing.T) {
			got, err := tc.csp.Policy()
			if err != nil || got != tc.want {
				t.Fatalf("Policy:\n got %q, %v\nwant %q", got, err, tc.want)
			}
		})
	}
}

// Anything but an origin is refused, so that no declared entry can add a
// directive or a keyword.
func TestPolicyRefusesWhatIsNotAnOrigin(t *testing.T) {
	good := []string{"https://a.com", "http://127.0.0.1:9000", "https://*.a.com", "wss://a.com:*", "https://[2001:db8::1]", "http://localhost:3000"}
	bad := []string{"", "*", "a.com", "https://", "https://a.com; script-src *", "https://a.com 'unsafe-eval'", "'self'", "data:",
		"https://a.com,b.com", "https://a.com/path", "javascript://a.com", "https://a..com", "https://a.com:", "https://a.com:123456",
		"https://*.", "https://a.*.com", "https://[::1", "https://[::1]x", "https://a.com\n", "https://a\"b.com", "https://ä.com"}
	for _, d := range good {
		if _, err := (&apps.CSP{ConnectDomains: []string{d}}).Policy(); err != nil {
			t.Errorf("%q refused: %v", d, err)
		}
	}
	for _, d := range bad {
		if p, err := (&apps.CSP{FrameDomains: []string{d}}).Policy(); err == nil {
			t.Errorf("%q accepted: %s", d, p)
		} else if !errors.Is(err, apps.ErrInvalidResource) && !strings.Contains(err.Error(), "not an origin") {
			t.Errorf("%q: %v", d, err)
		}
	}
}

// Permissions are empty objects on the wire and the allow attribute's
// features in a host.
func TestPermissions(t *testing.T) {
	p := apps.Permissions{Camera: true, ClipboardWrite: true}
	raw, err := json.Marshal(p)
	if err != nil || string(raw) != `{"camera":{},"clipboardWrite":{}}` {
		t.Fatalf("Marshal: %s, %v", raw, err)
	}
	if got := p.Allow(); got != "camera; clipboard-write" {
		t.Fatalf("Allow: %q", got)
	}
	var back apps.Permissions
	if err := json.Unmarshal([]byte(`{"microphone":{},"geolocation":true,"future":{},"camera":{"x":1}}`), &back); err != nil {
		t.Fatal(err)
	}
	if back != (apps.Permissions{Microphone: true, Camera: true}) {
		t.Fatalf("Unmarshal: %+v (a feature is granted by an object only)", back)
	}
	if (apps.Permissions{}).Allow() != "" || string(must(json.Marshal(apps.Permissions{}))) != "{}" {
		t.Fatal("no permissions")
	}
	if err := json.Unmarshal([]byte(`[]`), &back); err == nil {
		t.Fatal("an array decoded as permissions")
	}
}

func must[T any](v T, err error) T {
	if err != nil {
		panic(err)
	}
	return v
}
