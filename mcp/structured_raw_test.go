package mcp_test

import (
	"context"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// Structured content a tool gives as raw JSON goes out on one line of the
// stdio transport however it was written, and raw bytes that are not JSON
// fail the call (an isError result), never a line the client cannot read;
// the server serves on.
func TestStructuredRawMessage(t *testing.T) {
	raw := func(name, text string) tool.Tool {
		return rawTool(name, func(context.Context, json.RawMessage) (*tool.Result, error) {
			return tool.StructuredResult(json.RawMessage(text))
		})
	}
	srv := newServer(t, nil, raw("pretty", "{\n  \"a\": 1,\r\n  \"b\": [1,\n 2]\n}"), raw("broken", `{"a":`), raw("plain", `{"a":1}`))
	for _, rev := range []string{protocol.LatestLegacy.String(), protocol.Latest.String()} {
		t.Run(rev, func(t *testing.T) {
			c := start(t, srv)
			if rev != protocol.Latest.String() {
				c.initialize(rev)
			}
			params := func(name string) map[string]any {
				p := map[string]any{"name": name, "arguments": map[string]any{}}
				if rev == protocol.Latest.String() {
					p["_meta"] = modernMeta(nil)
				}
				return p
			}
			r := c.request(jsonrpc.Int64ID(1), protocol.MethodCallTool, params("pretty"))
			var res protocol.CallToolResult
			if r.Error != nil || json.Unmarshal(r.Result, &res) != nil {
				t.Fatalf("pretty: %s, %v", r.Result, r.Error)
			}
			if got := string(res.StructuredContent); got != `{"a":1,"b":[1,2]}` {
				t.Errorf("pretty: structuredContent %s, want it compacted", got)
			}
			r = c.request(jsonrpc.Int64ID(2), protocol.MethodCallTool, params("broken"))
			if r.Error != nil || !strings.Contains(string(r.Result), `"isError":true`) || !strings.Contains(string(r.Result), "not valid JSON") {
				t.Errorf("broken: %s, %v; want an isError result naming the bad JSON", r.Result, r.Error)
			}
			r = c.request(jsonrpc.Int64ID(3), protocol.MethodCallTool, params("plain"))
			if r.Error != nil || !strings.Contains(string(r.Result), `"structuredContent":{"a":1}`) {
				t.Errorf("plain after broken: %s, %v", r.Result, r.Error)
			}
		})
	}
}
