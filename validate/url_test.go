package validate

import (
	"strings"
	"testing"
)

func TestURL(t *testing.T) {
	tests := []struct {
		s       string
		schemes []string
		errPart string // "" means valid
	}{
		{s: "https://example.com"},
		{s: "http://example.com:8080/a/b?c=d#e"},
		{s: "HTTPS://Example.com/"},
		{s: "https://[::1]:443/"},
		{s: "https://例え.jp/パス"},
		{s: "ws://localhost/socket", schemes: []string{"ws", "wss"}},
		{s: "mailto:someone@example.com", schemes: []string{"mailto"}},
		{s: "file:///tmp/x", schemes: []string{"file"}},
		{s: "", errPart: "URL is empty"},
		{s: "example.com/path", errPart: "has no scheme"},
		{s: "/relative/path", errPart: "has no scheme"},
		{s: "//example.com", errPart: "has no scheme"},
		{s: "javascript:alert(1)", errPart: `scheme "javascript"`},
		{s: "JavaScript:alert(1)", errPart: `scheme "javascript"`},
		{s: "data:text/html,<script>", errPart: `scheme "data"`},
		{s: "ftp://example.com/", errPart: `only "http", "https" are allowed`},
		{s: "https://example.com", schemes: []string{"wss"}, errPart: `only "wss" is allowed`},
		{s: "https:///path-only", errPart: "has no host"},
		{s: "http:opaque", errPart: "has no host"},
		{s: " https://example.com", errPart: "white space"},
		{s: "https://example.com\n", errPart: "white space"},
		{s: "https://exa mple.com", errPart: "does not parse"},
		{s: "http://[::1", errPart: "does not parse"},
		{s: "https://example.com/\x7f", errPart: "does not parse"},
	}
	for _, tt := range tests {
		t.Run(tt.s, func(t *testing.T) {
			u, err := URL(tt.s, tt.schemes...)
			if tt.errPart == "" {
				if err != nil || u == nil {
					t.Fatalf("URL(%q) = %v, %v; want valid", tt.s, u, err)
				}
				return
			}
			if err == nil || !strings.Contains(err.Error(), tt.errPart) {
				t.Fatalf("URL(%q) error = %v; want one containing %q", tt.s, err, tt.errPart)
			}
		})
	}
}
