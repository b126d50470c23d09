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

// tenantKey is the context key under which the middleware below puts the
// caller's tenant.
type tenantKey struct{}

// The values of the HTTP request's context reach the handler's context,
// in both eras: a middleware in front of the Handler can hand a tool what
// it learnt from the request (a tenant, an authenticated principal), and
// the tool reads it with ctx.Value.
func ExampleHandler_contextValues() {
	quiet := slog.New(slog.NewTextHandler(io.Discard, nil))
	srv := mcp.NewServer(mcp.Implementation{Name: "demo", Version: "1.0.0"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("whoami", "Names the caller's tenant.", func(ctx context.Context, _ struct{}) (*tool.Result, error) {
		tenant, _ := ctx.Value(tenantKey{}).(string)
		return tool.TextResult("tenant " + tenant), nil
	}))
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet})
	defer h.Close()
	withTenant := http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
		ctx := context.WithValue(r.Context(), tenantKey{}, r.Header.Get("X-Tenant"))
		h.ServeHTTP(w, r.WithContext(ctx))
	})
	ts := httptest.NewServer(withTenant)
	defer ts.Close()

	call := func(hd map[string]string, body string) string {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("X-Tenant", "acme")
		for k, v := range hd {
			req.Header.Set(k, v)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			panic(err)
		}
		defer resp.Body.Close()
		var m struct {
			Result struct {
				Content []struct {
					Text string `json:"text"`
				} `json:"content"`
			} `json:"result"`
		}
		_ = json.NewDecoder(resp.Body).Decode(&m)
		if len(m.Result.Content) > 0 {
			return m.Result.Content[0].Text
		}
		return resp.Header.Get("Mcp-Session-Id")
	}

	fmt.Println("2026-07-28:", call(map[string]string{"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "whoami"},
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"whoami","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`))
	sid := call(nil, `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"example","version":"1"}}}`)
	session := map[string]string{"Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-11-25"}
	call(session, `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	fmt.Println("2025-11-25:", call(session, `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"whoami"}}`))
	// Output:
	// 2026-07-28: tenant acme
	// 2025-11-25: tenant acme
}
