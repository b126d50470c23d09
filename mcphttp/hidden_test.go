package mcphttp_test

import (
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// The header checks of a tool the caller may not see cannot tell it from a
// tool that does not exist: a wrong Mcp-Param header on a hidden tool gets
// the answer an unknown tool gets, never -32020, which would say the tool
// is there and has that annotation.
func TestHiddenToolHeaders(t *testing.T) {
	gated := tool.Tool{Name: "deploy", Description: "Deploys.", Scopes: []string{"ops"},
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`),
		Handler:     func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("deployed"), nil }}
	h := mcphttp.NewHandler(newServer(t, gated), nil)
	defer h.Close()
	as := func(p *auth.Principal) *httptest.Server {
		return httptest.NewServer(http.HandlerFunc(func(w http.ResponseWriter, r *http.Request) {
			h.ServeHTTP(w, r.WithContext(auth.WithPrincipal(r.Context(), p)))
		}))
	}
	call := func(ts *httptest.Server, name string) (int, string) {
		hd := modernHeaders("tools/call", name)
		hd.Set("Mcp-Param-Region", "mars") // the body says eu
		body := modernBody(1, "tools/call", map[string]any{"name": name, "arguments": map[string]any{"region": "eu"}}, nil)
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header = hd
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return resp.StatusCode, string(b)
	}
	guest, ops := as(&auth.Principal{Subject: "guest"}), as(&auth.Principal{Subject: "ada", Scopes: []string{"ops"}})
	defer guest.Close()
	defer ops.Close()
	if status, body := call(ops, "deploy"); status != http.StatusBadRequest || !strings.Contains(body, "-32020") {
		t.Errorf("a caller who sees the tool: %d %s, want 400 -32020", status, body)
	}
	hiddenStatus, hidden := call(guest, "deploy")
	missingStatus, missing := call(guest, "no_such_tool")
	if hiddenStatus != missingStatus || strings.Contains(hidden, "-32020") ||
		strings.ReplaceAll(hidden, "deploy", "X") != strings.ReplaceAll(missing, "no_such_tool", "X") {
		t.Errorf("hidden tool: %d %s\nunknown tool: %d %s", hiddenStatus, hidden, missingStatus, missing)
	}
}

// A legacy session belongs to the caller who opened it: another caller
// presenting its id gets 404, as for a session that does not exist, and
// so does one presenting no identity at all.
func TestSessionOwner(t *testing.T) {
	h := mcphttp.NewHandler(newServer(t, progressTool()), nil)
	defer h.Close()
	ts := asCaller(t, h)
	post := func(who string, hd http.Header, body string) (int, http.Header) {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(body))
		req.Header = hd
		if who != "" {
			req.Header.Set("X-Test-Caller", who)
		}
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		io.Copy(io.Discard, resp.Body)
		resp.Body.Close()
		return resp.StatusCode, resp.Header
	}
	open := func(who string) string {
		status, hd := post(who, legacyHeaders(""), `{"jsonrpc":"2.0","id":1,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
		if status != http.StatusOK || hd.Get("Mcp-Session-Id") == "" {
			t.Fatalf("initialize as %q: %d", who, status)
		}
		return hd.Get("Mcp-Session-Id")
	}
	list := `{"jsonrpc":"2.0","id":2,"method":"tools/list"}`
	ada, anon := open("ada"), open("")
	for _, tc := range []struct {
		who, sid string
		want     int
	}{
		{"ada", ada, http.StatusOK},
		{"eve", ada, http.StatusNotFound},
		{"", ada, http.StatusNotFound},
		{"", anon, http.StatusOK},
		{"eve", anon, http.StatusNotFound},
	} {
		if status, _ := post(tc.who, legacyHeaders(tc.sid), list); status != tc.want {
			t.Errorf("%q using a session of %q: %d, want %d", tc.who, map[string]string{ada: "ada", anon: ""}[tc.sid], status, tc.want)
		}
	}
}
