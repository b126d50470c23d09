package oauth_test

import (
	"context"
	"fmt"
	"io"
	"log"
	"net/http"
	"net/http/httptest"
	"strings"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/oauth"
	"github.com/mcpwire/mcpwire/tool"
)

// An MCP endpoint behind a ResourceServer: a request without a token is
// told where to get one; a request with one reaches the tool as its
// principal. StaticTokens stands in for a real verifier (package jwtauth)
// here, as it may in development and tests only.
func ExampleResourceServer_Protect() {
	srv := mcp.NewServer(mcp.Implementation{Name: "files", Version: "1"}, nil)
	srv.MustAddTool(tool.New("whoami", "Names the caller.", func(ctx context.Context, _ struct{}) (*tool.Result, error) {
		return tool.TextResult("hello, " + mcp.RequestFrom(ctx).Caller.Subject), nil
	}))
	srv.MustAddTool(tool.New("delete_file", "Deletes a file.", func(context.Context, struct{}) (*tool.Result, error) {
		return tool.TextResult("deleted"), nil
	}, tool.WithScopes("files:write"))) // hidden from, and refused to, tokens without files:write

	rs, err := oauth.NewResourceServer(oauth.StaticTokens(map[string]*auth.Principal{
		"dev-token": {Subject: "ada", Scopes: []string{"files:read"}},
	}), oauth.Options{
		Resource:             "https://mcp.example.com/mcp",
		AuthorizationServers: []string{"https://auth.example.com"},
		ScopesSupported:      []string{"files:read", "files:write"},
		RequiredScopes:       []string{"files:read"},
	})
	if err != nil {
		log.Fatal(err)
	}
	mux := http.NewServeMux()
	h := mcphttp.NewHandler(srv, nil)
	defer h.Close()
	rs.Mount(mux, h) // /mcp, and the metadata at both well-known paths
	ts := httptest.NewServer(mux)
	defer ts.Close()

	call := func(token, name string) {
		body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"` + name + `","_meta":{` +
			`"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}}`
		req, _ := http.NewRequest(http.MethodPost, ts.URL+"/mcp", strings.NewReader(body))
		req.Header.Set("Content-Type", "application/json")
		req.Header.Set("Accept", "application/json, text/event-stream")
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", "tools/call")
		req.Header.Set("Mcp-Name", name)
		if token != "" {
			req.Header.Set("Authorization", "Bearer "+token)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			log.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		if resp.StatusCode == http.StatusOK {
			fmt.Println(resp.StatusCode, strings.Contains(string(b), "hello, ada"))
			return
		}
		fmt.Println(resp.StatusCode, resp.Header.Get("WWW-Authenticate"))
	}
	call("", "whoami")
	call("dev-token", "whoami")
	call("dev-token", "delete_file")
	// Output:
	// 401 Bearer scope="files:read", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
	// 200 true
	// 403 Bearer error="insufficient_scope", error_description="the access token does not grant the scopes this operation needs", scope="files:read files:write", resource_metadata="https://mcp.example.com/.well-known/oauth-protected-resource/mcp"
}
