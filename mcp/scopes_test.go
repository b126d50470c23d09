package mcp_test

import (
	"context"
	"errors"
	"slices"
	"strings"
	"sync"
	"sync/atomic"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// The callers of the scope tests.
var (
	reader = &auth.Principal{Subject: "ann", Scopes: []string{"files:read"}}
	writer = &auth.Principal{Subject: "bob", Scopes: []string{"files:read", "files:write"}}
	admin  = &auth.Principal{Subject: "cy", Scopes: []string{"files:write", "admin"}}
)

// scoped is a server with an item of each kind open to all and gated by
// scopes; runs counts the gated handlers that ran.
type scoped struct {
	srv  *mcp.Server
	runs atomic.Int32
}

func newScoped(t *testing.T, opts *mcp.Options, bare bool) *scoped {
	t.Helper()
	s := &scoped{srv: newServer(t, opts)}
	s.srv.MustAddTool(tool.Tool{Name: "open", Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
		return tool.TextResult("open"), nil
	}})
	s.srv.MustAddPrompt(mcp.Prompt{Name: "hello", Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("hi")}}, nil
	}})
	s.srv.MustAddResource(mcp.Resource{URI: "test://open", Name: "open", Read: mcp.StaticRead("o")})
	if !bare {
		s.gated()
	}
	s.srv.MustAddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://{kind}/{id}", Name: "any",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			return []mcp.ResourceContents{mcp.TextContents(uri, "", "any "+vars["kind"])}, nil
		},
		// A completion provider in the bare server too, so that both
		// declare completions.
		Complete: map[string]mcp.CompleteFunc{"kind": mcp.CompletePrefix("docs")}})
	return s
}

// gated adds the items that need scopes.
func (s *scoped) gated() {
	ran := func() { s.runs.Add(1) }
	text := func(s string) tool.Handler {
		return func(context.Context, json.RawMessage) (*tool.Result, error) { ran(); return tool.TextResult(s), nil }
	}
	s.srv.MustAddTool(tool.Tool{Name: "write", Scopes: []string{"files:write"}, Handler: text("written")})
	s.srv.MustAddTool(tool.New("wipe", "Wipes.", func(context.Context, struct{}) (*tool.Result, error) {
		ran()
		return tool.TextResult("wiped"), nil
	}, tool.WithScopes("admin", "files:write", "admin")))
	audit := mcp.NewPrompt("audit", "Audits.", func(context.Context, struct {
		Target string `json:"target"`
	}) (*mcp.PromptResult, error) {
		ran()
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("audit")}}, nil
	}, mcp.WithScopes("admin"))
	audit.Complete = map[string]mcp.CompleteFunc{"target": mcp.CompletePrefix("db", "web")}
	s.srv.MustAddPrompt(audit)
	s.srv.MustAddResource(mcp.Resource{URI: "test://secret", Name: "secret", Scopes: []string{"admin"},
		Read: func(context.Context, string) ([]mcp.ResourceContents, error) {
			ran()
			return []mcp.ResourceContents{mcp.TextContents("test://secret", "", "s")}, nil
		}})
	// Registered before "any": for an admin it answers test://docs/…,
	// for anyone else "any" does, as if this one were not there.
	s.srv.MustAddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://docs/{id}", Name: "docs", Scopes: []string{"admin"},
		Read: func(_ context.Context, uri string, _ map[string]string) ([]mcp.ResourceContents, error) {
			ran()
			return []mcp.ResourceContents{mcp.TextContents(uri, "", "docs")}, nil
		}})
}

// asker sends one request as a caller and returns its response.
type asker func(ctx context.Context, caller *auth.Principal, method string, params map[string]any) *jsonrpc.Response

// eras serve a server in both eras, the caller coming from the request's
// context as an HTTP middleware puts it (auth.WithPrincipal): a stateless
// 2026-07-28 endpoint and a legacy session.
func eras(t *testing.T, srv *mcp.Server) map[string]asker {
	modern := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	t.Cleanup(modern.Close)
	legacy := srv.NewEndpoint(mcp.EndpointOptions{})
	t.Cleanup(legacy.Close)
	init := newExchange()
	legacy.Handle(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(0), Method: "initialize",
		Params: json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"t","version":"1"}}`)}, init.send)
	init.wait(t)
	legacy.Handle(context.Background(), &jsonrpc.Notification{Method: "notifications/initialized"}, nil)
	var id atomic.Int64
	send := func(ep *mcp.Endpoint, isModern bool) asker {
		return func(ctx context.Context, caller *auth.Principal, method string, params map[string]any) *jsonrpc.Response {
			t.Helper()
			p := map[string]any{}
			for k, v := range params {
				p[k] = v
			}
			if isModern {
				p["_meta"] = modernMeta(nil)
			}
			raw, _ := json.Marshal(p)
			x := newExchange()
			ep.Handle(auth.WithPrincipal(ctx, caller), &jsonrpc.Request{ID: jsonrpc.Int64ID(id.Add(1)), Method: method, Params: raw}, x.send)
			msgs := x.wait(t)
			return msgs[len(msgs)-1].(*jsonrpc.Response)
		}
	}
	return map[string]asker{"2026-07-28": send(modern, true), "2025-11-25": send(legacy, false)}
}

// names lists the names (or URIs) of a list result's items, every page.
func names(t *testing.T, ask asker, caller *auth.Principal, method, key, field string) []string {
	t.Helper()
	var out []string
	params := map[string]any{}
	for range 20 {
		res := result(t, ask(context.Background(), caller, method, params))
		for _, it := range res[key].([]any) {
			out = append(out, it.(map[string]any)[field].(string))
		}
		next, ok := res["nextCursor"].(string)
		if !ok {
			return out
		}
		params = map[string]any{"cursor": next}
	}
	t.Fatalf("%s never ended", method)
	return nil
}

// Lists hold what the caller holds the scopes of, in both eras, paged
// over what the caller sees; the scopes themselves are never sent.
func TestScopesFilterLists(t *testing.T) {
	s := newScoped(t, &mcp.Options{PageSize: 1}, false)
	for era, ask := range eras(t, s.srv) {
		for _, tt := range []struct {
			caller                               *auth.Principal
			tools, prompts, resources, templates string
		}{
			{nil, "open", "hello", "test://open", "test://{kind}/{id}"},
			{reader, "open", "hello", "test://open", "test://{kind}/{id}"},
			{writer, "open write", "hello", "test://open", "test://{kind}/{id}"},
			{admin, "open write wipe", "hello audit", "test://open test://secret", "test://docs/{id} test://{kind}/{id}"},
		} {
			who := "anonymous"
			if tt.caller != nil {
				who = tt.caller.Subject
			}
			for _, l := range []struct{ method, key, field, want string }{
				{"tools/list", "tools", "name", tt.tools},
				{"prompts/list", "prompts", "name", tt.prompts},
				{"resources/list", "resources", "uri", tt.resources},
				{"resources/templates/list", "resourceTemplates", "uriTemplate", tt.templates},
			} {
				if got := strings.Join(names(t, ask, tt.caller, l.method, l.key, l.field), " "); got != l.want {
					t.Errorf("%s %s as %s: %s, want %s", era, l.method, who, got, l.want)
				}
			}
		}
		r := ask(context.Background(), admin, "tools/list", map[string]any{})
		if strings.Contains(string(r.Result), "files:write") || strings.Contains(string(r.Result), "scopes") {
			t.Errorf("%s: scopes on the wire: %s", era, r.Result)
		}
	}
}

// A page counts only what the caller sees, and its cursor leads to the
// caller's next page.
func TestScopesPaging(t *testing.T) {
	srv := newServer(t, &mcp.Options{PageSize: 2})
	for i, sc := range [][]string{nil, {"x"}, nil, {"x"}, nil} {
		srv.MustAddTool(tool.Tool{Name: "t" + string(rune('0'+i)), Scopes: sc, Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return tool.TextResult(""), nil
		}})
	}
	for era, ask := range eras(t, srv) {
		for _, tt := range []struct {
			caller *auth.Principal
			pages  []string
		}{
			{&auth.Principal{Subject: "a"}, []string{"t0 t2", "t4"}},
			{&auth.Principal{Subject: "b", Scopes: []string{"x"}}, []string{"t0 t1", "t2 t3", "t4"}},
		} {
			var pages []string
			params := map[string]any{}
			for {
				res := result(t, ask(context.Background(), tt.caller, "tools/list", params))
				var page []string
				for _, it := range res["tools"].([]any) {
					page = append(page, it.(map[string]any)["name"].(string))
				}
				pages = append(pages, strings.Join(page, " "))
				next, ok := res["nextCursor"].(string)
				if !ok || len(pages) > 5 {
					break
				}
				params = map[string]any{"cursor": next}
			}
			if !slices.Equal(pages, tt.pages) {
				t.Errorf("%s as %s: pages %q, want %q", era, tt.caller.Subject, pages, tt.pages)
			}
		}
	}
}

// Without a scope challenge in the context (stdio, or HTTP authenticated
// some other way) an item the caller lacks the scopes of does not exist:
// the error is byte for byte the one a server without it answers, and
// nothing of it runs.
func TestScopesRefusedAsUnknown(t *testing.T) {
	s := newScoped(t, nil, false)
	bare := newScoped(t, nil, true)
	uses := []struct {
		method string
		params map[string]any
	}{
		{"tools/call", map[string]any{"name": "wipe"}},
		{"tools/call", map[string]any{"name": "write"}},
		{"prompts/get", map[string]any{"name": "audit", "arguments": map[string]any{"target": "db"}}},
		{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "audit"}, "argument": map[string]any{"name": "target", "value": ""}}},
		{"resources/read", map[string]any{"uri": "test://secret"}},
	}
	scopedEras, bareEras := eras(t, s.srv), eras(t, bare.srv)
	for era, ask := range scopedEras {
		for _, u := range uses {
			got := ask(context.Background(), reader, u.method, u.params)
			want := bareEras[era](context.Background(), reader, u.method, u.params)
			gotJSON, _ := json.Marshal(got.Error)
			wantJSON, _ := json.Marshal(want.Error)
			if got.Error == nil || string(gotJSON) != string(wantJSON) {
				t.Errorf("%s %s %v: %s, want %s", era, u.method, u.params, gotJSON, wantJSON)
			}
		}
		// A template the caller may not use does not answer: the next
		// one that matches does.
		r := result(t, ask(context.Background(), reader, "resources/read", map[string]any{"uri": "test://docs/1"}))
		if text := r["contents"].([]any)[0].(map[string]any)["text"]; text != "any docs" {
			t.Errorf("%s: test://docs/1 read as %v, want the open template's answer", era, text)
		}
	}
	if n := s.runs.Load(); n != 0 {
		t.Errorf("%d gated handlers ran", n)
	}
	// The holders of the scopes use them all.
	for era, ask := range scopedEras {
		for _, u := range uses {
			if r := ask(context.Background(), admin, u.method, u.params); r.Error != nil {
				t.Errorf("%s %s as admin: %+v", era, u.method, r.Error)
			}
		}
		r := result(t, ask(context.Background(), admin, "resources/read", map[string]any{"uri": "test://docs/1"}))
		if text := r["contents"].([]any)[0].(map[string]any)["text"]; text != "docs" {
			t.Errorf("%s: test://docs/1 read as %v by an admin", era, text)
		}
	}
}

// The same over stdio, where the caller is Options.Caller.
func TestScopesStdio(t *testing.T) {
	for _, tt := range []struct {
		caller *auth.Principal
		tools  string
		wipe   string // the error of calling wipe, "" for none
	}{
		{nil, "open", `invalid params: unknown tool "wipe"`},
		{writer, "open write", `invalid params: unknown tool "wipe"`},
		{admin, "open write wipe", ""},
	} {
		s := newScoped(t, &mcp.Options{Caller: tt.caller}, false)
		c := start(t, s.srv)
		c.initialize("2025-11-25")
		var got []string
		for _, it := range result(t, c.request(jsonrpc.Int64ID(1), "tools/list", nil))["tools"].([]any) {
			got = append(got, it.(map[string]any)["name"].(string))
		}
		if strings.Join(got, " ") != tt.tools {
			t.Errorf("caller %v: tools %v, want %s", tt.caller, got, tt.tools)
		}
		r := c.request(jsonrpc.Int64ID(2), "tools/call", map[string]any{"name": "wipe"})
		switch {
		case tt.wipe == "" && r.Error != nil:
			t.Errorf("caller %v: wipe: %+v", tt.caller, r.Error)
		case tt.wipe != "" && (r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || r.Error.Message != tt.wipe):
			t.Errorf("caller %v: wipe: %+v, want -32602 %s", tt.caller, r.Error, tt.wipe)
		}
	}
}

// With a scope challenge in the context (HTTP behind package oauth) the
// refusal tells the transport what the operation needs (every scope of
// the item, once each) and says so in its one answer; nothing runs.
func TestScopesChallenge(t *testing.T) {
	s := newScoped(t, nil, false)
	for era, ask := range eras(t, s.srv) {
		for _, tt := range []struct {
			method string
			params map[string]any
			scopes []string
		}{
			{"tools/call", map[string]any{"name": "wipe"}, []string{"admin", "files:write"}},
			{"tools/call", map[string]any{"name": "write"}, []string{"files:write"}},
			{"prompts/get", map[string]any{"name": "audit", "arguments": map[string]any{"target": "db"}}, []string{"admin"}},
			{"completion/complete", map[string]any{"ref": map[string]any{"type": "ref/prompt", "name": "audit"}, "argument": map[string]any{"name": "nope", "value": ""}}, []string{"admin"}},
			{"resources/read", map[string]any{"uri": "test://secret"}, []string{"admin"}},
		} {
			var mu sync.Mutex
			var got [][]string
			ctx := auth.WithScopeChallenge(context.Background(), func(scopes []string) {
				mu.Lock()
				defer mu.Unlock()
				got = append(got, scopes)
			})
			r := ask(ctx, reader, tt.method, tt.params)
			mu.Lock()
			if len(got) != 1 || !slices.Equal(got[0], tt.scopes) {
				t.Errorf("%s %s: challenged %v, want %v once", era, tt.method, got, tt.scopes)
			}
			mu.Unlock()
			var data struct {
				Reason string   `json:"reason"`
				Scopes []string `json:"scopes"`
			}
			if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError || json.Unmarshal(r.Error.Data, &data) != nil ||
				data.Reason != "insufficient_scope" || !slices.Equal(data.Scopes, tt.scopes) || !strings.Contains(r.Error.Message, "insufficient scope") {
				t.Errorf("%s %s: %+v", era, tt.method, r.Error)
			}
		}
		// A caller holding the scopes is never challenged; an unknown item
		// is unknown, challenge or not.
		ctx := auth.WithScopeChallenge(context.Background(), func([]string) { t.Errorf("%s: challenged", era) })
		if r := ask(ctx, admin, "tools/call", map[string]any{"name": "wipe"}); r.Error != nil {
			t.Errorf("%s: wipe as admin: %+v", era, r.Error)
		}
		if r := ask(ctx, reader, "tools/call", map[string]any{"name": "nope"}); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
			t.Errorf("%s: unknown tool: %+v", era, r.Error)
		}
	}
	if n := s.runs.Load(); n != 2 {
		t.Errorf("%d gated handlers ran, want the admin's two wipes", n)
	}
}

// A list some item is gated in varies by caller: its cacheScope is
// private whatever Options.CacheHints says, and so is a gated read.
func TestScopesCachePrivate(t *testing.T) {
	public := map[string]mcp.CacheHint{}
	for _, m := range []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list", "resources/read"} {
		public[m] = mcp.CacheHint{Public: true}
	}
	for _, tt := range []struct {
		bare bool
		want string
	}{{true, "public"}, {false, "private"}} {
		s := newScoped(t, &mcp.Options{CacheHints: public}, tt.bare)
		ask := eras(t, s.srv)["2026-07-28"]
		for _, m := range []string{"tools/list", "prompts/list", "resources/list", "resources/templates/list"} {
			if got := result(t, ask(context.Background(), admin, m, map[string]any{}))["cacheScope"]; got != tt.want {
				t.Errorf("bare %v: %s cacheScope %v, want %s", tt.bare, m, got, tt.want)
			}
		}
		if tt.bare {
			continue
		}
		for uri, want := range map[string]string{"test://open": "public", "test://secret": "private", "test://docs/1": "private"} {
			if got := result(t, ask(context.Background(), admin, "resources/read", map[string]any{"uri": uri}))["cacheScope"]; got != want {
				t.Errorf("read %s: cacheScope %v, want %s", uri, got, want)
			}
		}
	}
}

// Options.ToolCallRate bounds each caller's tool calls (bursts of twice
// the rate), with -32603 rate_limited before the tool runs; another caller
// has a budget of its own.
func TestToolCallRate(t *testing.T) {
	var runs atomic.Int32
	srv := newServer(t, &mcp.Options{ToolCallRate: 1}, rawTool("count", func(context.Context, json.RawMessage) (*tool.Result, error) {
		runs.Add(1)
		return tool.TextResult("ok"), nil
	}))
	for era, ask := range eras(t, srv) {
		runs.Store(0)
		who := &auth.Principal{Subject: "rate-" + era}
		var limited int
		for range 4 {
			r := ask(context.Background(), who, "tools/call", map[string]any{"name": "count"})
			if r.Error != nil {
				if r.Error.Code != jsonrpc.CodeInternalError || string(r.Error.Data) != `{"reason":"rate_limited"}` || !strings.Contains(r.Error.Message, "too many tool calls") {
					t.Errorf("%s: %+v", era, r.Error)
				}
				limited++
			}
		}
		if limited < 1 || runs.Load() != int32(4-limited) {
			t.Errorf("%s: %d of 4 calls limited, %d ran", era, limited, runs.Load())
		}
		if r := ask(context.Background(), &auth.Principal{Subject: "other-" + era}, "tools/call", map[string]any{"name": "count"}); r.Error != nil {
			t.Errorf("%s: another caller: %+v", era, r.Error)
		}
	}
	// No rate, no limit.
	srv = newServer(t, nil, rawTool("count", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("ok"), nil }))
	ask := eras(t, srv)["2026-07-28"]
	for i := range 50 {
		if r := ask(context.Background(), reader, "tools/call", map[string]any{"name": "count"}); r.Error != nil {
			t.Fatalf("call %d without a rate: %+v", i, r.Error)
		}
	}
}

// A scope that could not stand in a challenge is refused at registration.
func TestScopesRegistration(t *testing.T) {
	srv := newServer(t, nil)
	h := func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }
	for _, sc := range []string{"", "two words", `q"uote`, `back\slash`, "é"} {
		if err := srv.AddTool(tool.Tool{Name: "t", Handler: h, Scopes: []string{sc}}); !errors.Is(err, mcp.ErrInvalidTool) {
			t.Errorf("tool scope %q: %v", sc, err)
		}
		if err := srv.AddPrompt(mcp.Prompt{Name: "p", Scopes: []string{sc}, Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) { return nil, nil }}); !errors.Is(err, mcp.ErrInvalidPrompt) {
			t.Errorf("prompt scope %q: %v", sc, err)
		}
		if err := srv.AddResource(mcp.Resource{URI: "test://r", Name: "r", Scopes: []string{sc}, Read: mcp.StaticRead("")}); !errors.Is(err, mcp.ErrInvalidResource) {
			t.Errorf("resource scope %q: %v", sc, err)
		}
		if err := srv.AddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://{x}", Name: "r", Scopes: []string{sc}, Read: func(context.Context, string, map[string]string) ([]mcp.ResourceContents, error) { return nil, nil }}); !errors.Is(err, mcp.ErrInvalidResource) {
			t.Errorf("template scope %q: %v", sc, err)
		}
	}
	// The server keeps its own copy.
	scopes := []string{"a"}
	srv.MustAddTool(tool.Tool{Name: "mine", Handler: h, Scopes: scopes})
	scopes[0] = "b"
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"mine","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`)}
	ctx := auth.WithPrincipal(context.Background(), &auth.Principal{Scopes: []string{"a"}})
	if resp := callEndpoint(srv, ctx, req); resp.Error != nil {
		t.Errorf("changing the caller's slice changed the registered scopes: %v", resp.Error)
	}
}

// callEndpoint answers req on a stateless endpoint of srv, with ctx's
// caller.
func callEndpoint(srv *mcp.Server, ctx context.Context, req *jsonrpc.Request) *jsonrpc.Response {
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true, RunOnCaller: true})
	defer ep.Close()
	var resp *jsonrpc.Response
	ep.Handle(ctx, req, func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Response); ok {
			resp = r
		}
	})
	return resp
}

// A routed tools/call hides a tool the caller of the context lacks the
// scopes of, so that an HTTP transport's header checks cannot tell it
// from none.
func TestRoutedHidesTools(t *testing.T) {
	s := newScoped(t, &mcp.Options{Caller: writer}, false)
	annotated := json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)
	h := func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }
	s.srv.MustAddTool(tool.Tool{Name: "write_h", Description: "d", Scopes: []string{"files:write"}, InputSchema: annotated, Handler: h})
	s.srv.MustAddTool(tool.Tool{Name: "wipe_h", Description: "d", Scopes: []string{"admin", "files:write"}, InputSchema: annotated, Handler: h})
	for _, tt := range []struct {
		ctx  context.Context
		name string
		ok   bool
	}{
		{context.Background(), "write", true}, // Options.Caller holds files:write
		{context.Background(), "wipe", false},
		{auth.WithPrincipal(context.Background(), reader), "write", false},
		{auth.WithPrincipal(context.Background(), admin), "wipe", true},
		{auth.WithPrincipal(context.Background(), admin), "nope", false},
	} {
		if got := routedCall(t, s.srv, tt.ctx, tt.name+"_h"); (got.Headers != nil) != tt.ok {
			t.Errorf("%s: annotations %v, want %v", tt.name, got.Headers, tt.ok)
		}
	}
}
