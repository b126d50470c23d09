package mcphttp_test

import (
	"context"
	"io"
	"net/http"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// needsElicitation refuses a client that did not declare elicitation.
func needsElicitation() tool.Tool {
	return rawTool("needs", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		if err := ask.Require(ctx, "elicitation"); err != nil {
			return nil, err
		}
		return tool.TextResult("ok"), nil
	})
}

// Every row of the status matrix (the status table of the 2026-07-28 Streamable HTTP transport), and the decoding errors.
func TestStatusMatrix(t *testing.T) {
	f := start(t, newServer(t, progressTool(), needsElicitation()), nil)
	call := func(name string) string { return modernBody(1, "tools/call", map[string]any{"name": name}, nil) }
	rows := []struct {
		name   string
		hd     http.Header
		body   string
		status int
		code   int64
	}{
		{"parse error", modernHeaders("tools/list", ""), `{"jsonrpc":"2.0",`, 400, -32700},
		{"invalid request", modernHeaders("tools/list", ""), `{"jsonrpc":"2.0","id":1}`, 400, -32600},
		{"batch", modernHeaders("tools/list", ""), `[` + modernBody(1, "tools/list", nil, nil) + `]`, 400, -32600},
		{"response outside a session", modernHeaders("tools/list", ""), `{"jsonrpc":"2.0","id":1,"result":{}}`, 400, -32600},
		{"missing _meta key", modernHeaders("tools/list", ""),
			modernBody(1, "tools/list", nil, map[string]any{"io.modelcontextprotocol/clientCapabilities": nil}), 400, -32602},
		{"missing _meta protocolVersion", modernHeaders("tools/list", ""),
			`{"jsonrpc":"2.0","id":1,"method":"tools/list","params":{"_meta":{"io.modelcontextprotocol/clientCapabilities":{}}}}`, 400, -32602},
		{"unsupported version", func() http.Header {
			hd := modernHeaders("tools/list", "")
			hd.Set("MCP-Protocol-Version", "2099-01-01")
			return hd
		}(), modernBody(1, "tools/list", nil, map[string]any{"io.modelcontextprotocol/protocolVersion": "2099-01-01"}), 400, -32022},
		{"unknown method", modernHeaders("nope/nope", ""), modernBody(1, "nope/nope", nil, nil), 404, -32601},
		{"missing client capability", modernHeaders("tools/call", "needs"), call("needs"), 400, -32021},
		{"unknown tool", modernHeaders("tools/call", "ghost"), call("ghost"), 400, -32602},
		{"header mismatch", modernHeaders("tools/call", "other"), call("steps"), 400, -32020},
		{"result", modernHeaders("tools/call", "steps"), call("steps"), 200, 0},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			r := f.postRead(row.hd, row.body)
			if r.status != row.status || r.errorCode() != row.code {
				t.Errorf("got %d %d, want %d %d: %s", r.status, r.errorCode(), row.status, row.code, r.body)
			}
			if row.code == -32022 {
				data, _ := r.msg["error"].(map[string]any)["data"].(map[string]any)
				if data["requested"] != "2099-01-01" || data["supported"] == nil {
					t.Errorf("-32022 data: %s", r.body)
				}
			}
		})
	}
}

// Safety refusals: Origin, Host, body size, methods.
func TestSafety(t *testing.T) {
	f := start(t, newServer(t, progressTool()), &mcphttp.Options{
		AllowedOrigins: []string{"https://app.example"},
		AllowedHosts:   []string{"mcp.example"},
		MaxBodyBytes:   1024,
	})
	list := modernBody(1, "tools/list", nil, nil)
	send := func(method string, mod func(*http.Request), body string) reply {
		req, _ := http.NewRequest(method, f.ts.URL, strings.NewReader(body))
		req.Header = modernHeaders("tools/list", "")
		if mod != nil {
			mod(req)
		}
		return readReply(t, f.do(req))
	}
	origin := func(o string) func(*http.Request) { return func(r *http.Request) { r.Header.Set("Origin", o) } }
	host := func(h string) func(*http.Request) { return func(r *http.Request) { r.Host = h } }
	rows := []struct {
		name   string
		method string
		mod    func(*http.Request)
		body   string
		status int
	}{
		{"no origin", "POST", nil, list, 200},
		{"loopback origin", "POST", origin("http://localhost:5173"), list, 200},
		{"loopback ip origin", "POST", origin("http://127.0.0.1:9"), list, 200},
		{"allowed origin", "POST", origin("https://app.example"), list, 200},
		{"foreign origin", "POST", origin("https://evil.example"), list, 403},
		{"null origin", "POST", origin("null"), list, 403},
		{"localhost lookalike origin", "POST", origin("http://localhost.evil.example"), list, 403},
		{"localhost host", "POST", host("localhost:8080"), list, 200},
		{"ipv6 host", "POST", host("[::1]:8080"), list, 200},
		{"allowed host", "POST", host("mcp.example:443"), list, 200},
		{"rebinding host", "POST", host("evil.example:8080"), list, 403},
		{"body too large", "POST", nil, list + strings.Repeat(" ", 2048), 413},
		{"chunked body too large", "POST", func(r *http.Request) {
			r.Body = io.NopCloser(io.MultiReader(strings.NewReader(list + strings.Repeat(" ", 4096))))
			r.ContentLength = -1
			r.GetBody = nil
		}, "", 413},
		{"PUT", "PUT", nil, list, 405},
		{"GET without a session", "GET", nil, "", 405},
		{"DELETE without a session", "DELETE", nil, "", 405},
	}
	for _, row := range rows {
		t.Run(row.name, func(t *testing.T) {
			r := send(row.method, row.mod, row.body)
			if r.status != row.status {
				t.Errorf("got %d, want %d: %s", r.status, row.status, r.body)
			}
			if r.status == 405 && r.header.Get("Allow") == "" {
				t.Error("405 without Allow")
			}
		})
	}
}
