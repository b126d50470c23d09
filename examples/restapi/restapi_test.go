package main

import (
	"context"
	"encoding/json"
	"io"
	"net"
	"net/http"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/oauth"
)

// The tokens the tests present: a reader's and a writer's.
const (
	readerToken = "reader-token"
	writerToken = "writer-token"
)

// start serves the example on a loopback port in front of api and returns
// its endpoint URL.
func start(t *testing.T, api string) string {
	t.Helper()
	ln, err := net.Listen("tcp", "127.0.0.1:0")
	if err != nil {
		t.Fatal(err)
	}
	endpoint := "http://" + ln.Addr().String() + "/mcp"
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		done <- serve(ctx, ln, config{
			API: api, Resource: endpoint, Issuer: "https://auth.example.com",
			Verifier: oauth.StaticTokens(map[string]*auth.Principal{
				readerToken: {Subject: "reader", Scopes: []string{"todos:read"}},
				writerToken: {Subject: "writer", Scopes: []string{"todos:read", "todos:write"}},
			}),
		})
	}()
	t.Cleanup(func() {
		cancel()
		if err := <-done; err != nil {
			t.Errorf("serve: %v", err)
		}
	})
	return endpoint
}

// reply is what the tests read of a tools/call response.
type reply struct {
	status    int
	challenge string
	Result    struct {
		StructuredContent json.RawMessage `json:"structuredContent"`
		IsError           bool            `json:"isError"`
		Content           []struct {
			Text string `json:"text"`
		} `json:"content"`
	} `json:"result"`
}

// callTool calls the tool name as a 2026-07-28 client does over HTTP:
// one stateless POST, its headers mirroring its body, with the bearer
// token when there is one.
func callTool(t *testing.T, endpoint, token, name string, args any) reply {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"name": name, "arguments": args, "_meta": map[string]any{
		"io.modelcontextprotocol/protocolVersion":    "2026-07-28",
		"io.modelcontextprotocol/clientCapabilities": map[string]any{},
	}})
	body := `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":` + string(params) + `}`
	req, _ := http.NewRequestWithContext(t.Context(), http.MethodPost, endpoint, strings.NewReader(body))
	for k, v := range map[string]string{
		"Content-Type": "application/json", "Accept": "application/json, text/event-stream",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": name,
	} {
		req.Header.Set(k, v)
	}
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	resp, err := http.DefaultClient.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	r := reply{status: resp.StatusCode, challenge: resp.Header.Get("WWW-Authenticate")}
	data, err := io.ReadAll(resp.Body)
	if err != nil {
		t.Fatalf("%s: %v", name, err)
	}
	if resp.StatusCode == http.StatusOK {
		if err := json.Unmarshal(data, &r); err != nil {
			t.Fatalf("%s: %v in %s", name, err, data)
		}
	}
	return r
}

func TestTools(t *testing.T) {
	endpoint := start(t, fakeAPI(t).URL)

	r := callTool(t, endpoint, readerToken, "list_todos", listArgs{Open: true})
	var list todoList
	if r.status != http.StatusOK || r.Result.IsError || json.Unmarshal(r.Result.StructuredContent, &list) != nil ||
		len(list.Todos) != 1 || list.Todos[0] != (todo{ID: 2, Title: "call the bank"}) {
		t.Fatalf("list_todos open: %+v", r)
	}

	r = callTool(t, endpoint, writerToken, "add_todo", addArgs{Title: "buy stamps"})
	var added todo
	if r.status != http.StatusOK || r.Result.IsError || json.Unmarshal(r.Result.StructuredContent, &added) != nil ||
		added != (todo{ID: 3, Title: "buy stamps"}) {
		t.Fatalf("add_todo: %d %+v", r.status, r.Result)
	}
	r = callTool(t, endpoint, readerToken, "list_todos", nil)
	if r.status != http.StatusOK || json.Unmarshal(r.Result.StructuredContent, &list) != nil || len(list.Todos) != 3 ||
		list.Todos[2].Title != "buy stamps" {
		t.Errorf("list_todos after add_todo: %+v", r)
	}
}

// TestAuthorization checks the token check: none is 401 with a challenge
// naming the metadata document, a bad one 401, and add_todo without
// todos:write a 403 naming that scope, the upstream unchanged.
func TestAuthorization(t *testing.T) {
	endpoint := start(t, fakeAPI(t).URL)
	metadata := strings.Replace(endpoint, "/mcp", "/.well-known/oauth-protected-resource/mcp", 1)
	for _, c := range []struct {
		token, name string
		status      int
		challenge   string
	}{
		{"", "list_todos", http.StatusUnauthorized, `resource_metadata="` + metadata + `"`},
		{"not-a-token", "list_todos", http.StatusUnauthorized, `error="invalid_token"`},
		{readerToken, "add_todo", http.StatusForbidden, `scope="todos:read todos:write"`},
	} {
		if r := callTool(t, endpoint, c.token, c.name, addArgs{Title: "sneaky"}); r.status != c.status || !strings.Contains(r.challenge, c.challenge) {
			t.Errorf("%s with token %q: %d %q, want %d and a challenge with %s", c.name, c.token, r.status, r.challenge, c.status, c.challenge)
		}
	}
	r := callTool(t, endpoint, readerToken, "list_todos", nil)
	if strings.Contains(string(r.Result.StructuredContent), "sneaky") {
		t.Errorf("a refused add_todo reached the API: %s", r.Result.StructuredContent)
	}
	resp, err := http.Get(metadata)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	var doc oauth.Metadata
	if err := json.NewDecoder(resp.Body).Decode(&doc); err != nil || doc.Resource != endpoint || len(doc.AuthorizationServers) != 1 {
		t.Errorf("metadata document: %v %+v", err, doc)
	}
}

// TestUpstreamFailure checks that the API's failures reach the model as
// isError results.
func TestUpstreamFailure(t *testing.T) {
	r := callTool(t, start(t, failingAPI(t).URL), readerToken, "list_todos", nil)
	if r.status != http.StatusOK || !r.Result.IsError || len(r.Result.Content) != 1 || !strings.Contains(r.Result.Content[0].Text, "503 Service Unavailable: maintenance") {
		t.Errorf("list_todos against a failing API: %+v", r)
	}
}
