package mcp_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// resourceServer serves a text resource, a binary one, a template and a
// few that fail in each way a read can.
func resourceServer(t *testing.T, opts *mcp.Options) *mcp.Server {
	t.Helper()
	srv := newServer(t, opts)
	size := int64(4)
	srv.MustAddResource(mcp.Resource{
		URI: "test://static-text", Name: "static-text", Title: "Static text", MimeType: "text/plain",
		Icons:       []protocol.Icon{{Src: "https://example.com/i.png"}},
		Annotations: &protocol.Annotations{Audience: []protocol.Role{"user"}, LastModified: "2025-01-12T15:00:58Z"},
		Meta:        map[string]any{"com.example/k": "v"},
		Read:        mcp.StaticRead("hello"),
	})
	srv.MustAddResource(mcp.Resource{
		URI: "test://static-binary", Name: "static-binary", MimeType: "image/png", Size: &size,
		Cache: &mcp.CacheHint{TTL: time.Second, Public: true},
		Read:  mcp.StaticRead([]byte{1, 2, 3, 4}),
	})
	failing := func(err error) mcp.ResourceFunc {
		return func(context.Context, string) ([]mcp.ResourceContents, error) { return nil, err }
	}
	srv.MustAddResource(mcp.Resource{URI: "test://gone", Name: "gone", Read: failing(mcp.ErrResourceNotFound)})
	srv.MustAddResource(mcp.Resource{URI: "test://broken", Name: "broken", Read: failing(errors.New("disk full"))})
	srv.MustAddResource(mcp.Resource{URI: "test://rpc", Name: "rpc", Read: failing(jsonrpc.NewError(-32001, "on purpose"))})
	srv.MustAddResource(mcp.Resource{URI: "test://empty", Name: "empty", Read: failing(nil)})
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{
		URITemplate: "test://template/{id}/data", Name: "data", MimeType: "application/json",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			if vars["id"] == "missing" {
				return nil, mcp.ErrResourceNotFound
			}
			return []mcp.ResourceContents{mcp.TextContents(uri, "application/json", `{"id":"`+vars["id"]+`"}`)}, nil
		},
	})
	return srv
}

func TestResourcesList(t *testing.T) {
	c := start(t, resourceServer(t, &mcp.Options{PageSize: 4}))
	c.initialize("2025-11-25")
	page := result(t, c.request(jsonrpc.Int64ID(1), "resources/list", nil))
	list := page["resources"].([]any)
	if len(list) != 4 || list[0].(map[string]any)["uri"] != "test://static-text" || page["nextCursor"] == nil {
		t.Fatalf("first page: %v", page)
	}
	next := result(t, c.request(jsonrpc.Int64ID(2), "resources/list", map[string]any{"cursor": page["nextCursor"]}))
	if rest := next["resources"].([]any); len(rest) != 2 || next["nextCursor"] != nil {
		t.Errorf("second page: %v", next)
	}
	// A cursor of one list is not a cursor of another.
	r := c.request(jsonrpc.Int64ID(3), "tools/list", map[string]any{"cursor": page["nextCursor"]})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("resources cursor for tools/list: %+v", r)
	}
	tmpl := result(t, c.request(jsonrpc.Int64ID(4), "resources/templates/list", map[string]any{"cursor": ""}))
	if ts := tmpl["resourceTemplates"].([]any); len(ts) != 1 || ts[0].(map[string]any)["uriTemplate"] != "test://template/{id}/data" {
		t.Errorf("templates: %v", tmpl)
	}
}

// Each revision gets the fields it defines.
func TestResourceDescriptorPerRevision(t *testing.T) {
	srv := resourceServer(t, nil)
	for _, tt := range []struct {
		version string
		want    string
	}{
		{"2024-11-05", `{"uri":"test://static-text","name":"static-text","mimeType":"text/plain","annotations":{"audience":["user"]}}`},
		{"2025-06-18", `{"uri":"test://static-text","name":"static-text","title":"Static text","mimeType":"text/plain","annotations":{"audience":["user"],"lastModified":"2025-01-12T15:00:58Z"},"_meta":{"com.example/k":"v"}}`},
		{"2025-11-25", `{"uri":"test://static-text","name":"static-text","title":"Static text","mimeType":"text/plain","icons":[{"src":"https://example.com/i.png"}],"annotations":{"audience":["user"],"lastModified":"2025-01-12T15:00:58Z"},"_meta":{"com.example/k":"v"}}`},
	} {
		c := start(t, srv)
		c.initialize(tt.version)
		r := c.request(jsonrpc.Int64ID(1), "resources/list", nil)
		var res struct {
			Resources []json.RawMessage `json:"resources"`
		}
		if err := json.Unmarshal(r.Result, &res); err != nil || len(res.Resources) == 0 {
			t.Fatalf("%s: %s", tt.version, r.Result)
		}
		if string(res.Resources[0]) != tt.want {
			t.Errorf("%s:\n got %s\nwant %s", tt.version, res.Resources[0], tt.want)
		}
	}
}

func TestResourcesRead(t *testing.T) {
	c := start(t, resourceServer(t, nil))
	c.initialize("2025-11-25")
	read := func(id int64, uri string) *jsonrpc.Response {
		return c.request(jsonrpc.Int64ID(id), "resources/read", map[string]any{"uri": uri})
	}
	if r := read(1, "test://static-text"); string(r.Result) != `{"contents":[{"uri":"test://static-text","mimeType":"text/plain","text":"hello"}]}` {
		t.Errorf("text: %s %v", r.Result, r.Error)
	}
	if r := read(2, "test://static-binary"); string(r.Result) != `{"contents":[{"uri":"test://static-binary","mimeType":"image/png","blob":"AQIDBA=="}]}` {
		t.Errorf("blob: %s %v", r.Result, r.Error)
	}
	if r := read(3, "test://template/123/data"); !strings.Contains(string(r.Result), `"text":"{\"id\":\"123\"}"`) {
		t.Errorf("template: %s %v", r.Result, r.Error)
	}
	for _, tt := range []struct {
		uri  string
		code int64
		text string
	}{
		{"test://nonexistent", jsonrpc.CodeResourceNotFound, `resource not found: "test://nonexistent"`},
		{"test://template/1/2/data", jsonrpc.CodeResourceNotFound, "resource not found"}, // {id} never spans "/"
		{"test://template/missing/data", jsonrpc.CodeResourceNotFound, "resource not found"},
		{"test://gone", jsonrpc.CodeResourceNotFound, "resource not found"},
		{"test://broken", jsonrpc.CodeInternalError, `internal error: reading "test://broken": disk full`},
		{"test://rpc", -32001, "on purpose"},
		{"test://empty", jsonrpc.CodeInternalError, "the read returned no contents"},
	} {
		r := read(10, tt.uri)
		if r.Error == nil || r.Error.Code != tt.code || !strings.Contains(r.Error.Message, tt.text) {
			t.Errorf("%s: %+v, want %d %q", tt.uri, r.Error, tt.code, tt.text)
			continue
		}
		if tt.code == jsonrpc.CodeResourceNotFound && !strings.Contains(string(r.Error.Data), `"uri":"`+tt.uri+`"`) {
			t.Errorf("%s: data %s lacks the uri", tt.uri, r.Error.Data)
		}
	}
	if r := c.request(jsonrpc.Int64ID(20), "resources/read", map[string]any{}); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("no uri: %+v", r.Error)
	}
}

// In 2026-07-28 a missing resource is -32602 with data.uri, and reads carry
// cache hints: the method's, or the resource's own.
func TestResourcesReadModern(t *testing.T) {
	c := start(t, resourceServer(t, &mcp.Options{CacheHints: map[string]mcp.CacheHint{"resources/read": {TTL: time.Minute}}}))
	read := func(id int64, uri string) *jsonrpc.Response {
		return c.request(jsonrpc.Int64ID(id), "resources/read", map[string]any{"uri": uri, "_meta": modernMeta(nil)})
	}
	r := read(1, "test://nonexistent")
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || string(r.Error.Data) != `{"uri":"test://nonexistent"}` {
		t.Errorf("modern not found: %+v", r.Error)
	}
	res := result(t, read(2, "test://static-text"))
	if res["resultType"] != "complete" || res["ttlMs"] != 60000.0 || res["cacheScope"] != "private" {
		t.Errorf("method hint: %v", res)
	}
	res = result(t, read(3, "test://static-binary"))
	if res["ttlMs"] != 1000.0 || res["cacheScope"] != "public" {
		t.Errorf("resource's own hint: %v", res)
	}
}

func TestResourceSubscriptionsLegacy(t *testing.T) {
	srv := resourceServer(t, nil)
	c := start(t, srv)
	c.initialize("2025-11-25")
	if r := c.request(jsonrpc.Int64ID(1), "resources/subscribe", map[string]any{"uri": "test://static-text"}); string(r.Result) != "{}" {
		t.Fatalf("subscribe: %s %v", r.Result, r.Error)
	}
	srv.ResourceUpdated("test://static-binary") // not followed: nothing
	srv.ResourceUpdated("test://static-text")
	n, ok := c.next(time.Second).(*jsonrpc.Notification)
	if !ok || n.Method != "notifications/resources/updated" || string(n.Params) != `{"uri":"test://static-text"}` {
		t.Fatalf("updated: %+v", n)
	}
	c.request(jsonrpc.Int64ID(2), "resources/unsubscribe", map[string]any{"uri": "test://static-text"})
	srv.ResourceUpdated("test://static-text")
	c.quiet(50 * time.Millisecond)
	// Modern clients subscribe through listen: the legacy methods are not theirs.
	r := c.request(jsonrpc.Int64ID(3), "resources/subscribe", map[string]any{"uri": "test://x", "_meta": modernMeta(nil)})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("modern resources/subscribe: %+v", r.Error)
	}
}

func TestResourceSubscriptionsListen(t *testing.T) {
	srv := resourceServer(t, nil)
	c := start(t, srv)
	c.send(&jsonrpc.Request{ID: jsonrpc.StringID("L"), Method: "subscriptions/listen", Params: mustJSON(t, map[string]any{
		"_meta": modernMeta(nil),
		"notifications": map[string]any{
			"resourcesListChanged": true, "promptsListChanged": true,
			"resourceSubscriptions": []string{"test://static-text", "test://template/9/data", "test://unknown"},
		},
	})})
	ack := c.next(time.Second).(*jsonrpc.Notification)
	want := `{"notifications":{"resourcesListChanged":true,"resourceSubscriptions":["test://static-text","test://template/9/data"]},"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}`
	if ack.Method != "notifications/subscriptions/acknowledged" || string(ack.Params) != want {
		t.Fatalf("ack: %s %s", ack.Method, ack.Params)
	}
	srv.ResourceUpdated("test://unknown")
	srv.ResourceUpdated("test://template/9/data")
	n := c.next(time.Second).(*jsonrpc.Notification)
	if n.Method != "notifications/resources/updated" || string(n.Params) != `{"uri":"test://template/9/data","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}` {
		t.Errorf("updated on the stream: %s %s", n.Method, n.Params)
	}
	srv.MustAddResource(mcp.Resource{URI: "test://new", Name: "new", Read: mcp.StaticRead("x")})
	n = c.next(time.Second).(*jsonrpc.Notification)
	if n.Method != "notifications/resources/list_changed" || !strings.Contains(string(n.Params), `subscriptionId":"L"`) {
		t.Errorf("list_changed on the stream: %s %s", n.Method, n.Params)
	}
}

// Without resources, the capability is not declared and the methods do
// not exist; the first registration declares it and tells legacy clients
// that declared... nothing: they had no capability to be told about.
func TestResourcesCapability(t *testing.T) {
	srv := newServer(t, nil, rawTool("t", func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }))
	c := start(t, srv)
	r := c.request(jsonrpc.StringID("init"), "initialize", map[string]any{
		"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"},
	})
	if strings.Contains(string(r.Result), `"resources"`) {
		t.Errorf("resources declared without any: %s", r.Result)
	}
	c.send(&jsonrpc.Notification{Method: "notifications/initialized"})
	if r := c.request(jsonrpc.Int64ID(1), "resources/list", nil); r.Error == nil || r.Error.Code != jsonrpc.CodeMethodNotFound {
		t.Errorf("resources/list without resources: %+v", r.Error)
	}
	srv.MustAddResource(mcp.Resource{URI: "test://a", Name: "a", Read: mcp.StaticRead("a")})
	c.quiet(50 * time.Millisecond) // no list_changed: this session was never told of resources
	if r := c.request(jsonrpc.Int64ID(2), "resources/list", nil); r.Error != nil {
		t.Errorf("resources/list once one is registered: %+v", r.Error)
	}
	d := c.request(jsonrpc.Int64ID(3), "server/discover", map[string]any{"_meta": modernMeta(nil)})
	if !strings.Contains(string(d.Result), `"resources":{"subscribe":true,"listChanged":true}`) {
		t.Errorf("discover: %s", d.Result)
	}
}

func TestAddResourceRefuses(t *testing.T) {
	srv := newServer(t, nil)
	read := mcp.StaticRead("a")
	tread := func(context.Context, string, map[string]string) ([]mcp.ResourceContents, error) { return nil, nil }
	for _, tt := range []struct {
		name string
		err  error
		want string
	}{
		{"relative uri", srv.AddResource(mcp.Resource{URI: "a.txt", Name: "a", Read: read}), "is not an absolute URI"},
		{"empty uri", srv.AddResource(mcp.Resource{Name: "a", Read: read}), "resource URI is empty"},
		{"no name", srv.AddResource(mcp.Resource{URI: "test://a", Read: read}), "has no name"},
		{"no read", srv.AddResource(mcp.Resource{URI: "test://a", Name: "a"}), "has no read function"},
		{"bad template", srv.AddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://{id", Name: "t", Read: tread}), "unclosed expression"},
		{"template without read", srv.AddResourceTemplate(mcp.ResourceTemplate{URITemplate: "test://{id}", Name: "t"}), "has no read function"},
	} {
		if !errors.Is(tt.err, mcp.ErrInvalidResource) || !strings.Contains(tt.err.Error(), tt.want) {
			t.Errorf("%s: %v, want ErrInvalidResource with %q", tt.name, tt.err, tt.want)
		}
	}
	srv.MustAddResource(mcp.Resource{URI: "test://a", Name: "a", Read: read})
	if err := srv.AddResource(mcp.Resource{URI: "test://a", Name: "b", Read: read}); !errors.Is(err, mcp.ErrDuplicateResource) {
		t.Errorf("duplicate: %v", err)
	}
	if !srv.RemoveResource("test://a") || srv.RemoveResource("test://a") {
		t.Error("RemoveResource")
	}
}

func mustJSON(t *testing.T, v any) json.RawMessage {
	t.Helper()
	b, err := json.Marshal(v)
	if err != nil {
		t.Fatal(err)
	}
	return b
}

// A resource a caller may not see is neither listed nor read for them,
// and a listen stream does not honour a subscription to it.
func TestResourceVisibility(t *testing.T) {
	operatorOnly := func(c *auth.Principal) bool { return c.HasScope("operator") }
	for _, tt := range []struct {
		caller  *auth.Principal
		visible bool
	}{
		{nil, false},
		{&auth.Principal{Subject: "bob"}, false},
		{&auth.Principal{Subject: "ada", Scopes: []string{"operator"}}, true},
	} {
		srv := newServer(t, &mcp.Options{Caller: tt.caller, PageSize: 1})
		srv.MustAddResource(mcp.Resource{URI: "test://public", Name: "public", Read: mcp.StaticRead("p")})
		srv.MustAddResource(mcp.Resource{URI: "test://secret", Name: "secret", Visible: operatorOnly,
			Read: mcp.StaticRead("s")})
		srv.MustAddResource(mcp.Resource{URI: "test://public2", Name: "public2", Read: mcp.StaticRead("q")})
		c := start(t, srv)
		c.initialize("2025-11-25")
		var uris []string
		cursor := ""
		for i := 0; i < 5; i++ {
			params := map[string]any{}
			if cursor != "" {
				params["cursor"] = cursor
			}
			page := result(t, c.request(jsonrpc.Int64ID(int64(i)), "resources/list", params))
			for _, r := range page["resources"].([]any) {
				uris = append(uris, r.(map[string]any)["uri"].(string))
			}
			next, _ := page["nextCursor"].(string)
			if next == "" {
				break
			}
			cursor = next
		}
		listed := strings.Contains(strings.Join(uris, " "), "test://secret")
		r := c.request(jsonrpc.Int64ID(9), "resources/read", map[string]any{"uri": "test://secret"})
		read := r.Error == nil
		if listed != tt.visible || read != tt.visible || len(uris) != 2+map[bool]int{true: 1}[tt.visible] {
			t.Errorf("caller %+v: listed %v (%v), read %v (%+v); want %v", tt.caller, listed, uris, read, r.Error, tt.visible)
		}
		if !tt.visible && (r.Error.Code != jsonrpc.CodeResourceNotFound || strings.Contains(r.Error.Message, "visible")) {
			t.Errorf("hidden read: %+v, want plain not found", r.Error)
		}
	}
}

// The resource's MimeType goes only to a contents item at its URI that
// names none, and the contents a read function returns are not written to.
func TestResourceReadMimeTypeDefault(t *testing.T) {
	shared := []mcp.ResourceContents{
		mcp.TextContents("test://doc", "", "body"),
		mcp.TextContents("test://doc", "text/markdown", "own"),
		mcp.BlobContents("test://doc#part", "", []byte{1}),
	}
	srv := newServer(t, nil)
	srv.MustAddResource(mcp.Resource{URI: "test://doc", Name: "doc", MimeType: "text/plain",
		Read: func(context.Context, string) ([]mcp.ResourceContents, error) { return shared, nil }})
	c := start(t, srv)
	c.initialize("2025-11-25")
	want := `{"contents":[{"uri":"test://doc","mimeType":"text/plain","text":"body"},` +
		`{"uri":"test://doc","mimeType":"text/markdown","text":"own"},{"uri":"test://doc#part","blob":"AQ=="}]}`
	for id := range int64(2) {
		if r := c.request(jsonrpc.Int64ID(id+1), "resources/read", map[string]any{"uri": "test://doc"}); string(r.Result) != want {
			t.Errorf("read %d:\n got %s %v\nwant %s", id+1, r.Result, r.Error, want)
		}
	}
	if shared[0].Text.MimeType != "" {
		t.Errorf("the read function's contents were written to: %+v", shared[0].Text)
	}
}
