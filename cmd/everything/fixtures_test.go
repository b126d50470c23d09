package main

import (
	"strings"
	"testing"
)

// The fault fixtures are listed only with -fixtures: a host shows every
// listed tool to its model, and the model would call them.
func TestFixturesOnlyOnRequest(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want bool
	}{{nil, false}, {[]string{"-fixtures"}, true}} {
		s := startRaw(t, append(tt.args, "-page-size", "100")...)
		s.initialize()
		s.send(`{"jsonrpc":"2.0","id":"l","method":"tools/list"}`)
		line := s.next()
		for _, name := range []string{`"name":"panic"`, `"name":"broken_contract"`} {
			if got := strings.Contains(line, name); got != tt.want {
				t.Errorf("args %v: %s listed = %v, want %v", tt.args, name, got, tt.want)
			}
		}
		if !strings.Contains(line, `"name":"echo"`) {
			t.Errorf("args %v: echo is not listed: %.300s", tt.args, line)
		}
	}
}
