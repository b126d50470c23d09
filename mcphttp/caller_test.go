package mcphttp

import (
	"net/http"
	"testing"
)

func TestRemoteAddr(t *testing.T) {
	for _, tc := range []struct {
		name    string
		trusted []string
		peer    string
		headers map[string][]string
		want    string
	}{
		{"direct peer", nil, "192.0.2.1:5000", nil, "192.0.2.1"},
		{"forwarding ignored from an untrusted peer", []string{"10.0.0.1"}, "192.0.2.1:5000",
			map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "192.0.2.1"},
		{"forwarding ignored without trusted proxies", nil, "10.0.0.1:5000",
			map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "10.0.0.1"},
		{"X-Forwarded-For from a trusted proxy", []string{"10.0.0.1"}, "10.0.0.1:5000",
			map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "198.51.100.7"},
		{"the rightmost untrusted hop, not a spoofed left one", []string{"10.0.0.0/8"}, "10.0.0.1:5000",
			map[string][]string{"X-Forwarded-For": {"6.6.6.6, 198.51.100.7, 10.0.0.9"}}, "198.51.100.7"},
		{"several header lines are one list", []string{"10.0.0.0/8"}, "10.0.0.1:5000",
			map[string][]string{"X-Forwarded-For": {"6.6.6.6", "198.51.100.7"}}, "198.51.100.7"},
		{"Forwarded wins over X-Forwarded-For", []string{"10.0.0.1"}, "10.0.0.1:5000",
			map[string][]string{"Forwarded": {`for=198.51.100.8;proto=https`}, "X-Forwarded-For": {"198.51.100.7"}}, "198.51.100.8"},
		{"Forwarded IPv6 with brackets and port", []string{"::1"}, "[::1]:5000",
			map[string][]string{"Forwarded": {`for="[2001:db8::17]:4711"`}}, "2001:db8::17"},
		{"Forwarded hops", []string{"10.0.0.0/8"}, "10.0.0.1:5000",
			map[string][]string{"Forwarded": {`for=6.6.6.6, for=198.51.100.9;by=10.0.0.2, for=10.0.0.3`}}, "198.51.100.9"},
		{"a garbled hop stops at the last trusted one", []string{"10.0.0.0/8"}, "10.0.0.1:5000",
			map[string][]string{"X-Forwarded-For": {"198.51.100.7, garbage, 10.0.0.5"}}, "10.0.0.5"},
		{"Forwarded obfuscated identifier", []string{"10.0.0.1"}, "10.0.0.1:5000",
			map[string][]string{"Forwarded": {`for=_hidden`}}, "10.0.0.1"},
		{"every hop trusted", []string{"10.0.0.0/8"}, "10.0.0.1:5000",
			map[string][]string{"X-Forwarded-For": {"10.0.0.4"}}, "10.0.0.4"},
		{"IPv4-mapped peer", []string{"127.0.0.1"}, "[::ffff:127.0.0.1]:5000",
			map[string][]string{"X-Forwarded-For": {"198.51.100.7"}}, "198.51.100.7"},
		{"not an IP peer", nil, "@", nil, "@"},
	} {
		t.Run(tc.name, func(t *testing.T) {
			proxies, err := parseTrustedProxies(tc.trusted)
			if err != nil {
				t.Fatal(err)
			}
			h := &Handler{proxies: proxies}
			r := &http.Request{RemoteAddr: tc.peer, Header: http.Header{}}
			for k, vs := range tc.headers {
				for _, v := range vs {
					r.Header.Add(k, v)
				}
			}
			if got := h.remoteAddr(r); got != tc.want {
				t.Errorf("remoteAddr = %q, want %q", got, tc.want)
			}
		})
	}
}

func TestParseTrustedProxiesRefusesGarbage(t *testing.T) {
	if _, err := parseTrustedProxies([]string{"10.0.0.0/8", "nginx"}); err == nil {
		t.Fatal("a host name was accepted as a trusted proxy")
	}
}
