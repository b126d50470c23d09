package mcphttp

import (
	"net/http/httptest"
	"testing"
)

// mayBeModern lets a message go straight to its legacy session only when
// the server's routing could not find it modern.
func TestMayBeModern(t *testing.T) {
	for _, tt := range []struct {
		sid, header, params string
		want                bool
	}{
		{"s", "2025-06-18", `{"name":"echo","arguments":{}}`, false},
		{"", "", `{"name":"echo"}`, false},
		{"", "2025-06-18", `{"name":"echo"}`, false},
		{"", "2026-07-28", `{"name":"echo"}`, true}, // the header decides without a session
		{"s", "2026-07-28", `{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}`, true},
		{"s", "", `{"_meta":{"io.modelcontextprotocol\/protocolVersion":"2026-07-28"}}`, true},  // an escape may spell the key
		{"s", "", `{"arguments":{"text":"\"io.modelcontextprotocol/protocolVersion\""}}`, true}, // routing tells
	} {
		r := httptest.NewRequest("POST", "/", nil)
		if tt.header != "" {
			r.Header.Set(hdrProtocolVersion, tt.header)
		}
		if got := mayBeModern(r, tt.sid, []byte(tt.params)); got != tt.want {
			t.Errorf("%q %q %s: %v, want %v", tt.sid, tt.header, tt.params, got, tt.want)
		}
	}
}
