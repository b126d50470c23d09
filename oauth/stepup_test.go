package oauth_test

import (
	"bufio"
	"context"
	"io"
	"net/http"
	"net/http/httptest"
	"strconv"
	"strings"
	"sync/atomic"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/oauth"
	"github.com/mcpwire/mcpwire/tool"
)

// authServer is an MCP server behind the ResourceServer of the tests
// (StaticTokens): whoami and steps are open to every token, wipe, the
// prompt audit and the resource test://secret need the scope admin. runs
// counts the gated handlers that ran.
type authServer struct {
	rs     *oauth.ResourceServer
	url    string
	client *http.Client
	runs   *atomic.Int32
	stop   func()
}

func newAuthServer(t *testing.T) *authServer {
	t.Helper()
	runs := &atomic.Int32{}
	srv := mcp.NewServer(mcp.Implementation{Name: "auth-test", Version: "1"}, &mcp.Options{Logger: quiet()})
	srv.MustAddTool(tool.New("whoami", "Names the caller.", func(ctx context.Context, _ struct{}) (*tool.Result, error) {
		return tool.TextResult(mcp.RequestFrom(ctx).Caller.Subject), nil
	}))
	srv.MustAddTool(tool.New("steps", "Reports progress, then answers.", func(ctx context.Context, _ struct{}) (*tool.Result, error) {
		for i := range 3 {
			mcp.ReportProgress(ctx, float64(i+1), 3, "")
		}
		return tool.TextResult("done"), nil
	}))
	srv.MustAddTool(tool.New("wipe", "Wipes everything.", func(context.Context, struct{}) (*tool.Result, error) {
		runs.Add(1)
		return tool.TextResult("wiped"), nil
	}, tool.WithScopes("admin")))
	srv.MustAddPrompt(mcp.Prompt{Name: "audit", Scopes: []string{"admin"}, Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
		runs.Add(1)
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("audit")}}, nil
	}})
	srv.MustAddResource(mcp.Resource{URI: "test://secret", Name: "secret", Scopes: []string{"admin"},
		Read: func(context.Context, string) ([]mcp.ResourceContents, error) {
			runs.Add(1)
			return []mcp.ResourceContents{mcp.TextContents("test://secret", "text/plain", "s")}, nil
		}})
	rs := newTestRS(t)
	h := mcphttp.NewHandler(srv, &mcphttp.Options{Logger: quiet()})
	mux := http.NewServeMux()
	rs.Mount(mux, h)
	ts := httptest.NewServer(mux)
	return &authServer{rs: rs, url: ts.URL, client: ts.Client(), runs: runs, stop: func() { h.Close(); ts.Close() }}
}

// exchange is one POST's answer.
type exchange struct {
	status int
	header http.Header
	body   string
}

// post sends a JSON-RPC message to the endpoint with the token (none when
// empty), the session id (legacy) or the modern headers.
func (s *authServer) post(t *testing.T, token, sid, method, name, body string) exchange {
	t.Helper()
	req, _ := http.NewRequest(http.MethodPost, s.url+"/mcp", strings.NewReader(body))
	req.Header.Set("Accept", "application/json, text/event-stream")
	req.Header.Set("Content-Type", "application/json")
	if token != "" {
		req.Header.Set("Authorization", "Bearer "+token)
	}
	switch {
	case sid != "":
		req.Header.Set("Mcp-Session-Id", sid)
		req.Header.Set("MCP-Protocol-Version", "2025-11-25")
	case method != "initialize":
		req.Header.Set("MCP-Protocol-Version", "2026-07-28")
		req.Header.Set("Mcp-Method", method)
		if name != "" {
			req.Header.Set("Mcp-Name", name)
		}
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	b, _ := io.ReadAll(resp.Body)
	return exchange{resp.StatusCode, resp.Header, string(b)}
}

const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`

func modernCall(id int, method, params string) string {
	if params != "" {
		params += ","
	}
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":{` + params + modernMeta + `}}`
}

func legacyCall(id int, method, params string) string {
	return `{"jsonrpc":"2.0","id":` + strconv.Itoa(id) + `,"method":"` + method + `","params":{` + params + `}}`
}

// oneResponse decodes a body that must be exactly one JSON-RPC response.
func oneResponse(t *testing.T, body string) (id int, result json.RawMessage, data map[string]any) {
	t.Helper()
	dec := json.NewDecoder(strings.NewReader(body))
	var r struct {
		ID     int             `json:"id"`
		Result json.RawMessage `json:"result"`
		Error  *struct {
			Data map[string]any `json:"data"`
		} `json:"error"`
	}
	if err := dec.Decode(&r); err != nil {
		t.Fatalf("body %q: %v", body, err)
	}
	if dec.More() {
		t.Fatalf("more than one message in %q", body)
	}
	if r.Error != nil {
		data = r.Error.Data
	}
	return r.ID, r.Result, data
}

// Over HTTP behind the ResourceServer, an operation on an item the token
// lacks the scopes of is answered once, with 403 and an
// insufficient_scope challenge naming what that operation needs (the
// endpoint's scope and the item's), the body being the server's one
// JSON-RPC answer; nothing of the item runs. In a legacy session the
// client that got a token with more scopes goes on in the same session.
func TestStepUp(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	s := newAuthServer(t)
	defer s.stop()
	challenge := `Bearer error="insufficient_scope", error_description="the access token does not grant the scopes this operation needs", scope="mcp admin", resource_metadata="` + testMetadata + `"`
	refused := func(what string, x exchange, id int) {
		t.Helper()
		if x.status != http.StatusForbidden || x.header.Get("WWW-Authenticate") != challenge || x.header.Get("Content-Type") != "application/json" {
			t.Errorf("%s: %d %v", what, x.status, x.header)
		}
		gotID, _, data := oneResponse(t, x.body)
		if gotID != id || data["reason"] != "insufficient_scope" {
			t.Errorf("%s: body %s", what, x.body)
		}
	}
	granted := func(what string, x exchange, want string) {
		t.Helper()
		if x.status != http.StatusOK || x.header.Get("WWW-Authenticate") != "" || !strings.Contains(x.body, want) {
			t.Errorf("%s: %d %v %s", what, x.status, x.header, x.body)
		}
	}

	// 2026-07-28, stateless.
	refused("modern tools/call", s.post(t, "reader", "", "tools/call", "wipe", modernCall(1, "tools/call", `"name":"wipe"`)), 1)
	refused("modern prompts/get", s.post(t, "reader", "", "prompts/get", "audit", modernCall(2, "prompts/get", `"name":"audit"`)), 2)
	refused("modern resources/read", s.post(t, "reader", "", "resources/read", "test://secret", modernCall(3, "resources/read", `"uri":"test://secret"`)), 3)
	if n := s.runs.Load(); n != 0 {
		t.Fatalf("%d gated handlers ran for a token without their scope", n)
	}
	list := s.post(t, "reader", "", "tools/list", "", modernCall(4, "tools/list", ""))
	if list.status != 200 || strings.Contains(list.body, "wipe") || !strings.Contains(list.body, "whoami") || !strings.Contains(list.body, `"cacheScope":"private"`) {
		t.Errorf("reader's tools/list: %d %s", list.status, list.body)
	}
	granted("modern tools/list as admin", s.post(t, "admin", "", "tools/list", "", modernCall(5, "tools/list", "")), "wipe")
	granted("modern tools/call as admin", s.post(t, "admin", "", "tools/call", "wipe", modernCall(6, "tools/call", `"name":"wipe"`)), "wiped")
	granted("modern whoami", s.post(t, "reader", "", "tools/call", "whoami", modernCall(7, "tools/call", `"name":"whoami"`)), `"text":"ann"`)

	// A legacy session, opened with the reader's token.
	init := s.post(t, "reader", "", "initialize", "", legacyCall(1, "initialize", `"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}`))
	sid := init.header.Get("Mcp-Session-Id")
	if init.status != 200 || sid == "" {
		t.Fatalf("initialize: %d %v %s", init.status, init.header, init.body)
	}
	if x := s.post(t, "reader", sid, "", "", `{"jsonrpc":"2.0","method":"notifications/initialized"}`); x.status != 202 {
		t.Fatalf("initialized: %d %s", x.status, x.body)
	}
	list = s.post(t, "reader", sid, "", "", legacyCall(2, "tools/list", ""))
	if list.status != 200 || strings.Contains(list.body, "wipe") {
		t.Errorf("legacy reader's tools/list: %d %s", list.status, list.body)
	}
	refused("legacy tools/call", s.post(t, "reader", sid, "", "", legacyCall(3, "tools/call", `"name":"wipe"`)), 3)
	refused("legacy prompts/get", s.post(t, "reader", sid, "", "", legacyCall(4, "prompts/get", `"name":"audit"`)), 4)
	refused("legacy resources/read", s.post(t, "reader", sid, "", "", legacyCall(5, "resources/read", `"uri":"test://secret"`)), 5)
	if n := s.runs.Load(); n != 1 {
		t.Fatalf("%d gated handlers ran, want the admin's one wipe", n)
	}
	// Stepped up: the same session, the same subject's token with more
	// scopes. Another subject's token, however strong, finds no session.
	granted("legacy tools/call stepped up", s.post(t, "stepped", sid, "", "", legacyCall(6, "tools/call", `"name":"wipe"`)), "wiped")
	granted("legacy whoami stepped up", s.post(t, "stepped", sid, "", "", legacyCall(7, "tools/call", `"name":"whoami"`)), `"text":"ann"`)
	if x := s.post(t, "admin", sid, "", "", legacyCall(9, "tools/call", `"name":"whoami"`)); x.status != 404 {
		t.Errorf("another subject in ann's session: %d %s", x.status, x.body)
	}
	// Without a token, the session is no way in.
	if x := s.post(t, "", sid, "", "", legacyCall(8, "tools/call", `"name":"whoami"`)); x.status != 401 {
		t.Errorf("legacy without a token: %d %s", x.status, x.body)
	}
}

// A streamed response goes through the ResourceServer's writer: each
// event flushed as it comes (http.Flusher, http.ResponseController).
func TestStepUpKeepsStreams(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	s := newAuthServer(t)
	defer s.stop()
	body := strings.Replace(modernCall(1, "tools/call", `"name":"steps"`), `"_meta":{`, `"_meta":{"progressToken":"p",`, 1)
	req, _ := http.NewRequest(http.MethodPost, s.url+"/mcp", strings.NewReader(body))
	for k, v := range map[string]string{
		"Authorization": "Bearer reader", "Accept": "application/json, text/event-stream", "Content-Type": "application/json",
		"MCP-Protocol-Version": "2026-07-28", "Mcp-Method": "tools/call", "Mcp-Name": "steps",
	} {
		req.Header.Set(k, v)
	}
	resp, err := s.client.Do(req)
	if err != nil {
		t.Fatal(err)
	}
	defer resp.Body.Close()
	if resp.StatusCode != 200 || resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %v", resp.StatusCode, resp.Header)
	}
	var data []string
	sc := bufio.NewScanner(resp.Body)
	for sc.Scan() {
		if d, ok := strings.CutPrefix(sc.Text(), "data: "); ok {
			data = append(data, d)
		}
	}
	if len(data) != 4 || !strings.Contains(data[0], "notifications/progress") || !strings.Contains(data[3], `"text":"done"`) {
		t.Errorf("events: %q", data)
	}
}

// A 2025-03-26 batch with a refused call is 403 as a whole, its body
// holding every call's answer; the refused one did not run.
func TestStepUpBatch(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	s := newAuthServer(t)
	defer s.stop()
	init := s.post(t, "reader", "", "initialize", "", legacyCall(1, "initialize", `"protocolVersion":"2025-03-26","capabilities":{},"clientInfo":{"name":"t","version":"1"}`))
	sid := init.header.Get("Mcp-Session-Id")
	if sid == "" {
		t.Fatalf("initialize: %d %s", init.status, init.body)
	}
	post := func(token, body string) exchange {
		req, _ := http.NewRequest(http.MethodPost, s.url+"/mcp", strings.NewReader(body))
		for k, v := range map[string]string{"Authorization": "Bearer " + token, "Accept": "application/json, text/event-stream",
			"Content-Type": "application/json", "Mcp-Session-Id": sid, "MCP-Protocol-Version": "2025-03-26"} {
			req.Header.Set(k, v)
		}
		resp, err := s.client.Do(req)
		if err != nil {
			t.Fatal(err)
		}
		defer resp.Body.Close()
		b, _ := io.ReadAll(resp.Body)
		return exchange{resp.StatusCode, resp.Header, string(b)}
	}
	post("reader", `{"jsonrpc":"2.0","method":"notifications/initialized"}`)
	x := post("reader", "["+legacyCall(2, "tools/call", `"name":"wipe"`)+","+legacyCall(3, "tools/call", `"name":"whoami"`)+"]")
	var answers []map[string]any
	if err := json.Unmarshal([]byte(x.body), &answers); err != nil || len(answers) != 2 {
		t.Fatalf("body %s: %v", x.body, err)
	}
	if x.status != http.StatusForbidden || !strings.Contains(x.header.Get("WWW-Authenticate"), `scope="mcp admin"`) ||
		!strings.Contains(x.body, "insufficient_scope") || !strings.Contains(x.body, `"text":"ann"`) {
		t.Errorf("%d %v %s", x.status, x.header, x.body)
	}
	if n := s.runs.Load(); n != 0 {
		t.Errorf("the refused call ran")
	}
}
