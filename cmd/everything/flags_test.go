package main

import (
	"flag"
	"io"
	"os"
	"slices"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
)

func TestParseCaller(t *testing.T) {
	for _, tt := range []struct {
		spec    string
		want    *auth.Principal
		wantErr string
	}{
		{"", nil, ""},
		{"  ", nil, ""},
		{"ada", &auth.Principal{Subject: "ada"}, ""},
		{"ada:", &auth.Principal{Subject: "ada"}, ""},
		{"ada:operator", &auth.Principal{Subject: "ada", Scopes: []string{"operator"}}, ""},
		{" ada : operator, auditor ,", &auth.Principal{Subject: "ada", Scopes: []string{"operator", "auditor"}}, ""},
		{":operator", nil, "has no name before the colon"},
	} {
		got, err := parseCaller(tt.spec)
		switch {
		case tt.wantErr != "":
			if err == nil || !strings.Contains(err.Error(), tt.wantErr) {
				t.Errorf("parseCaller(%q) = %v, %v; want an error with %q", tt.spec, got, err, tt.wantErr)
			}
		case err != nil:
			t.Errorf("parseCaller(%q): %v", tt.spec, err)
		case (got == nil) != (tt.want == nil) ||
			got != nil && (got.Subject != tt.want.Subject || !slices.Equal(got.Scopes, tt.want.Scopes)):
			t.Errorf("parseCaller(%q) = %+v, want %+v", tt.spec, got, tt.want)
		}
	}
}

// The caller comes from -caller, else from $MCPWIRE_CALLER; a -caller
// given empty means no caller, whatever the environment says.
func TestCallerFlagAndEnvironment(t *testing.T) {
	for _, tt := range []struct {
		env     string
		args    []string
		subject string // "" for no caller
	}{
		{"", nil, ""},
		{"ada:operator", nil, "ada"},
		{"ada:operator", []string{"-caller", "bob"}, "bob"},
		{"ada:operator", []string{"-caller", ""}, ""},
	} {
		t.Setenv(callerEnv, tt.env)
		s, err := parseFlags(tt.args, io.Discard)
		if err != nil {
			t.Fatalf("env %q, args %v: %v", tt.env, tt.args, err)
		}
		got := ""
		if s.caller != nil {
			got = s.caller.Subject
		}
		if got != tt.subject {
			t.Errorf("env %q, args %v: caller %q, want %q", tt.env, tt.args, got, tt.subject)
		}
	}
}

func TestParseFlagsRefuses(t *testing.T) {
	for _, args := range [][]string{
		{"-watch-interval", "-1s"},
		{"-completion-rate", "-1"},
		{"-input-state-ttl", "0s"},
		{"-input-state-ttl", "-1m"},
		{"-client-request-timeout", "0s"},
		{"-client-request-timeout", "soon"},
		{"-task-ttl", "0s"},
		{"-task-ttl", "-1h"},
		{"-task-ttl", "forever"},
		{"-caller", ":operator"},
		{"-http", ""},
		{"-http", "127.0.0.1"},
		{"-http", "http://127.0.0.1:8080/mcp"},
		{"-auth", "dev"},
		{"-auth", "prod", "-http", "127.0.0.1:0"},
		{"-auth", "dev", "-http", "0.0.0.0:8080"},
		{"-auth", "dev", "-http", "example.com:8080"},
		{"stray"},
		{"-no-such-flag"},
	} {
		var out strings.Builder
		if _, err := parseFlags(args, &out); err == nil {
			t.Errorf("parseFlags(%q) succeeded", args)
		} else if !strings.Contains(out.String(), "Usage: everything [flags]") {
			t.Errorf("parseFlags(%q) printed no usage: %q", args, out.String())
		}
	}
	s, err := parseFlags(nil, io.Discard)
	if err != nil || s.watchInterval != defaultWatchInterval || s.pageSize != 10 || s.completionRate != 0 || s.fixtures ||
		s.inputStateTTL != 15*time.Minute || s.clientRequestTimeout != 5*time.Minute ||
		s.taskTTL != time.Hour || s.serverOptions(nil).TaskTTL != time.Hour {
		t.Errorf("defaults: %+v, %v", s, err)
	}
	s, err = parseFlags([]string{"-input-state-ttl", "250ms", "-client-request-timeout", "2s", "-task-ttl", "1500ms"}, io.Discard)
	if err != nil || s.inputStateTTL != 250*time.Millisecond || s.clientRequestTimeout != 2*time.Second ||
		s.taskTTL != 1500*time.Millisecond || s.serverOptions(nil).TaskTTL != 1500*time.Millisecond {
		t.Errorf("-input-state-ttl 250ms -client-request-timeout 2s -task-ttl 1500ms: %+v, %v", s, err)
	}
	if _, err := parseFlags([]string{"-h"}, io.Discard); err != flag.ErrHelp {
		t.Errorf("-h: %v, want flag.ErrHelp", err)
	}
}

// The usage in doc.go names every flag, and -h describes each.
func TestDocNamesEveryFlag(t *testing.T) {
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	fs, _, _ := flagSet()
	fs.SetOutput(io.Discard)
	fs.VisitAll(func(f *flag.Flag) {
		if !strings.Contains(string(doc), "[-"+f.Name) {
			t.Errorf("doc.go's usage lacks -%s", f.Name)
		}
		if f.Usage == "" {
			t.Errorf("-%s has no usage text", f.Name)
		}
	})
	if d := defaultWatchInterval; !strings.Contains(string(doc), "-watch-interval "+d.String()) {
		t.Errorf("doc.go does not give -watch-interval's default %s", d)
	}
}

// -http takes HOST:PORT (port 0 for a free one); without it the server
// serves stdio.
func TestHTTPFlag(t *testing.T) {
	for _, tt := range []struct {
		args []string
		want string
	}{
		{nil, ""},
		{[]string{"-http", "127.0.0.1:0"}, "127.0.0.1:0"},
		{[]string{"-http", "127.0.0.1:8080"}, "127.0.0.1:8080"},
		{[]string{"-http", "[::1]:8080"}, "[::1]:8080"},
		{[]string{"-http=localhost:9000", "-fixtures"}, "localhost:9000"},
	} {
		s, err := parseFlags(tt.args, io.Discard)
		if err != nil {
			t.Errorf("parseFlags(%q): %v", tt.args, err)
			continue
		}
		if s.httpAddr != tt.want {
			t.Errorf("parseFlags(%q): -http %q, want %q", tt.args, s.httpAddr, tt.want)
		}
	}
	doc, err := os.ReadFile("doc.go")
	if err != nil {
		t.Fatal(err)
	}
	if !strings.Contains(string(doc), "[-http 127.0.0.1:PORT]") {
		t.Error("doc.go's usage does not give -http a loopback address, [-http 127.0.0.1:PORT]")
	}
}

// The deployment settings: each from its flag or, when the flag is not
// given, its environment variable; values a deployment cannot use are
// refused with the flag's name.
func TestDeploymentFlags(t *testing.T) {
	key := strings.Repeat("k", mcp.MinStateKeyLen)
	t.Setenv(instanceEnv, "env1")
	t.Setenv(stateKeyEnv, key)
	t.Setenv(redisEnv, "127.0.0.1:6379")
	s, err := parseFlags(nil, io.Discard)
	if err != nil || s.instance != "env1" || s.stateKey != key || s.redis != "127.0.0.1:6379" || !s.deployed() || s.sessionIDPrefix() != "env1." {
		t.Fatalf("from the environment: %+v, %v", s, err)
	}
	s, err = parseFlags([]string{"-instance", "i2", "-redis", ""}, io.Discard)
	if err != nil || s.instance != "i2" || s.redis != "" || string(s.serverOptions(nil).StateKey) != key {
		t.Fatalf("flags over the environment: %+v, %v", s, err)
	}
	for _, tc := range []struct {
		args []string
		want string
	}{
		{[]string{"-instance", "has space"}, "-instance"},
		{[]string{"-instance", strings.Repeat("a", 17)}, "-instance"},
		{[]string{"-state-key", "short"}, "-state-key"},
		{[]string{"-redis", "localhost"}, "-redis"},
		{[]string{"-trusted-proxies", "127.0.0.1,nginx"}, "-trusted-proxies"},
	} {
		if _, err := parseFlags(tc.args, io.Discard); err == nil || !strings.Contains(err.Error(), tc.want) {
			t.Errorf("%q: %v, want an error naming %s", tc.args, err, tc.want)
		}
	}
	t.Setenv(proxiesEnv, "10.0.0.0/8, 127.0.0.1")
	if s, err := parseFlags(nil, io.Discard); err != nil || strings.Join(s.trustedProxies, " ") != "10.0.0.0/8 127.0.0.1" {
		t.Errorf("$%s: %+v, %v", proxiesEnv, s, err)
	}
	if s, err := parseFlags([]string{"-trusted-proxies", "::1"}, io.Discard); err != nil || strings.Join(s.trustedProxies, " ") != "::1" {
		t.Errorf("-trusted-proxies over the environment: %+v, %v", s, err)
	}
	t.Setenv(proxiesEnv, "")
	t.Setenv(instanceEnv, "")
	t.Setenv(redisEnv, "")
	if s, err := parseFlags(nil, io.Discard); err != nil || s.deployed() || s.sessionIDPrefix() != "" {
		t.Errorf("no deployment: %+v, %v", s, err)
	}
}
