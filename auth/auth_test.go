package auth_test

import (
	"testing"

	"github.com/mcpwire/mcpwire/auth"
)

func TestHasScopes(t *testing.T) {
	p := &auth.Principal{Scopes: []string{"a", "b"}}
	var none *auth.Principal
	for _, tt := range []struct {
		p      *auth.Principal
		scopes []string
		want   bool
	}{
		{p, nil, true}, {p, []string{"a"}, true}, {p, []string{"a", "b"}, true}, {p, []string{"a", "c"}, false},
		{none, nil, true}, {none, []string{"a"}, false},
	} {
		if got := tt.p.HasScopes(tt.scopes...); got != tt.want {
			t.Errorf("%v has %v: %v", tt.p, tt.scopes, got)
		}
	}
}

func TestValidScope(t *testing.T) {
	for s, want := range map[string]bool{
		"files:read": true, "mcp": true, "a!#$%&'()*+,-./:;<=>?@[]^_`{|}~": true,
		"": false, "two words": false, `q"uote`: false, `back\slash`: false, "tab\t": false, "é": false, "\x7f": false,
	} {
		if got := auth.ValidScope(s); got != want {
			t.Errorf("%q: %v, want %v", s, got, want)
		}
	}
}
