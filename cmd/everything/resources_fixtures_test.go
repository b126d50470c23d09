package main

import (
	"strings"
	"testing"
)

// The fixture template test://items/{n} is served only with -fixtures,
// like the fault fixtures: a host shows it to users.
func TestItemsTemplateOnlyWithFixtures(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"-fixtures"}, true}} {
		s := startRaw(t, append(tt.args, "-watch-interval", "0")...)
		s.initialize()
		s.send(`{"jsonrpc":"2.0","id":"t","method":"resources/templates/list"}`)
		line := s.next()
		if got := strings.Contains(line, `"uriTemplate":"test://items/{n}"`); got != tt.want {
			t.Errorf("args %v: test://items/{n} listed = %v, want %v: %s", tt.args, got, tt.want, line)
		}
		if !strings.Contains(line, `"uriTemplate":"test://template/{id}/data"`) {
			t.Errorf("args %v: the conformance template is not listed: %s", tt.args, line)
		}
	}
}
