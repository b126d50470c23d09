package scenario

import (
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// transcript builds a wire transcript from lines prefixed "> " (client) or
// "< " (server).
func transcript(lines ...string) []harness.Line {
	var w harness.Wire
	for _, l := range lines {
		d := harness.ClientToServer
		if strings.HasPrefix(l, "< ") {
			d = harness.ServerToClient
		}
		w.Feed(d, []byte(l[2:]+"\n"))
	}
	return w.Lines()
}

const (
	legacyCall = `> {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo"}}`
	modernCall = `> {"jsonrpc":"2.0","id":5,"method":"tools/call","params":{"name":"echo","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
)

func TestWireProblem(t *testing.T) {
	tests := []struct {
		name   string
		modern bool
		lines  []string
		want   string // a part of the problem, or "" for none
	}{
		{"legacy result", false, []string{legacyCall, `< {"jsonrpc":"2.0","id":5,"result":{"content":[]}}`}, ""},
		{"legacy result with resultType", false, []string{legacyCall, `< {"jsonrpc":"2.0","id":5,"result":{"content":[],"resultType":"complete"}}`}, `legacy result carries "resultType"`},
		{"legacy result with ttlMs", false, []string{legacyCall, `< {"jsonrpc":"2.0","id":5,"result":{"tools":[],"ttlMs":0}}`}, `"ttlMs"`},
		{"modern result", true, []string{modernCall, `< {"jsonrpc":"2.0","id":5,"result":{"content":[],"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}`}, ""},
		{"modern result without resultType", true, []string{modernCall, `< {"jsonrpc":"2.0","id":5,"result":{"content":[],"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}`}, "without resultType"},
		{"modern result without serverInfo", true, []string{modernCall, `< {"jsonrpc":"2.0","id":5,"result":{"content":[],"resultType":"complete"}}`}, "serverInfo"},
		{"modern input_required for a call", true, []string{modernCall, `< {"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","inputRequests":{"k":{"method":"roots/list"}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}`}, ""},
		{"modern input_required for a list", true, []string{`> {"jsonrpc":"2.0","id":5,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`, `< {"jsonrpc":"2.0","id":5,"result":{"resultType":"input_required","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"s","version":"1"}}}}`}, "cannot take one"},
		{"error responses are not results", true, []string{modernCall, `< {"jsonrpc":"2.0","id":5,"error":{"code":-32602,"message":"x"}}`}, ""},
		{"answer to nothing", false, []string{`< {"jsonrpc":"2.0","id":9,"result":{}}`}, "never sent"},
		{"not JSON", false, []string{`< hello`}, "not JSON-RPC 2.0"},
		{"wrong jsonrpc", false, []string{`< {"jsonrpc":"1.0","method":"x"}`}, "not JSON-RPC 2.0"},
		{"request to a modern client", true, []string{`< {"jsonrpc":"2.0","id":1,"method":"roots/list"}`}, "request to a modern client"},
		{"request to a legacy client", false, []string{`< {"jsonrpc":"2.0","id":1,"method":"roots/list"}`}, ""},
		{"progress notification", true, []string{`< {"jsonrpc":"2.0","method":"notifications/progress","params":{"progressToken":1,"progress":1}}`}, ""},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			err := wireProblem(transcript(tt.lines...), tt.modern)
			switch {
			case tt.want == "" && err != nil:
				t.Errorf("unexpected problem: %v", err)
			case tt.want != "" && (err == nil || !strings.Contains(err.Error(), tt.want)):
				t.Errorf("problem %v, want one mentioning %q", err, tt.want)
			}
		})
	}
}

func TestDescribeHandshake(t *testing.T) {
	tests := []struct {
		name  string
		lines []string
		want  string
	}{
		{"nothing", nil, "(the client wrote nothing)"},
		{"fallback", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			`< {"jsonrpc":"2.0","id":1,"error":{"code":-32601,"message":"method not found"}}`,
			`> {"jsonrpc":"2.0","id":2,"method":"initialize","params":{"protocolVersion":"2025-11-25"}}`,
			`< {"jsonrpc":"2.0","id":2,"result":{"protocolVersion":"2025-11-25"}}`,
			`> {"jsonrpc":"2.0","method":"notifications/initialized"}`,
			`> {"jsonrpc":"2.0","id":3,"method":"tools/list"}`,
			`> {"jsonrpc":"2.0","id":4,"method":"initialize","params":{"protocolVersion":"1999"}}`,
		}, `server/discover [2026-07-28] → error -32601 "method not found"; initialize [2025-11-25] → 2025-11-25; notifications/initialized`},
		{"modern", []string{
			`> {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28"}}}`,
			`< {"jsonrpc":"2.0","id":1,"result":{"supportedVersions":["2026-07-28","2025-11-25"]}}`,
		}, "server/discover [2026-07-28] → supportedVersions 2026-07-28,2025-11-25"},
		{"silence", []string{`> {"jsonrpc":"2.0","id":1,"method":"server/discover","params":{}}`}, "server/discover → no answer"},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := describeHandshake(transcript(tt.lines...)); got != tt.want {
				t.Errorf("got  %s\nwant %s", got, tt.want)
			}
		})
	}
}
