package mcphttp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"net/http/httptest"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// One endpoint, both eras: a 2026-07-28 tools/call stands alone, with the
// headers that mirror its body; a legacy client opens a session with
// initialize and names it in later requests.
func ExampleNewHandler() {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "demo", Version: "1.0.0"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("echo", "Echoes its text.", func(_ context.Context, in struct {
		Text string `json:"text"`
	}) (string, error) {
		return in.Text, nil
	}))
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	ts := httptest.NewServer(h) // in production: http.Server{Addr: "127.0.0.1:8080", Handler: h}
	defer ts.Close()
	defer h.Close() // with an http.Server: RegisterOnShutdown(h.Close)

	post := func(hd map[string]string, body string) *http.Response {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		for k, v := range hd {
			req.Header.Set(k, v)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			panic(err)
		}
		return resp
	}
	show := func(resp *http.Response) {
		defer resp.Body.Close()
		var m struct {
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
				ProtocolVersion string `json:"protocolVersion"`
			} `json:"result"`
			Error *struct {
				Code    int    `json:"code"`
				Message string `json:"message"`
			} `json:"error"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&m)
		fmt.Print(resp.StatusCode)
		if ct := resp.Header.Get("Content-Type"); ct != "" {
			fmt.Print(" ", ct)
		}
		switch {
		case m.Error != nil:
			fmt.Print(" error ", m.Error.Code, ": ", m.Error.Message)
		case len(m.Result.Content) > 0:
			fmt.Print(" text ", m.Result.Content[0].Text)
		case m.Result.ProtocolVersion != "":
			fmt.Print(" protocolVersion ", m.Result.ProtocolVersion, ", session id set: ", resp.Header.Get("Mcp-Session-Id") != "")
		}
		fmt.Println()
	}

	// 2026-07-28: no session; the headers mirror the body.
	show(post(map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "echo"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},
		"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
	// The same call with a header that disagrees with the body.
	show(post(map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "other"},
		`{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hi"},
		"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))

	// Legacy: initialize opens a session, whose id later requests carry.
	resp := post(nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}}`)
	sid := resp.Header.Get("Mcp-Session-Id")
	show(resp)
	session := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	show(post(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`))
	show(post(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`))
	show(post(nil, `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`))
	// Output:
	// 200 application/json text hi
	// 400 application/json error -32020: header mismatch: the Mcp-Name header does not match the body
	// 200 application/json protocolVersion 2025-11-25, session id set: true
	// 202
	// 200 application/json text hello
	// 400 application/json error -32600: invalid request: missing Mcp-Session-Id header: send initialize to open a legacy session, or a 2026-07-28 request with params._meta["io.modelcontextprotocol/protocolVersion"]
}
