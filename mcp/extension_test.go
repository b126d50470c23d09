package mcp_test

import (
	"context"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// greetParams and greetResult are the test extension's method's types.
type greetParams struct {
	Name  string `json:"name"`
	Times int    `json:"times"`
}

type greetResult struct {
	protocol.Envelope
	protocol.CacheHints
	Greeting string `json:"greeting"`
	Era      string `json:"era"`
}

const greetID = "com.example/greet"

// greetExtension adds greet/hello, cacheable and named by "name".
func greetExtension(requireClient, legacy bool) mcp.Extension {
	return mcp.Extension{
		ID: greetID, Capability: protocol.Object{"version": json.RawMessage(`1`)},
		RequireClient: requireClient, Legacy: legacy,
		Methods: []mcp.Method{{
			Name: "greet/hello", Named: "name", Cacheable: true,
			Handler: mcp.Handle(func(ctx context.Context, p *greetParams) (*greetResult, error) {
				if p.Name == "" {
					return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "name is required")
				}
				era := "legacy"
				if mcp.RequestFrom(ctx).Era == protocol.Modern {
					era = "modern"
				}
				return &greetResult{Greeting: strings.Repeat("hello "+p.Name+" ", max(p.Times, 1)), Era: era}, nil
			}),
		}},
	}
}

// An extension's capability is advertised in server/discover, and its
// method is served as a built-in one is: the modern envelope and cache
// hints filled in, params decoded strictly, the handler's error as sent.
func TestExtensionModern(t *testing.T) {
	c := start(t, newServer(t, &mcp.Options{Extensions: []mcp.Extension{greetExtension(false, false)}}))
	d := result(t, c.request(jsonrpc.Int64ID(1), "server/discover", map[string]any{"_meta": modernMeta(nil)}))
	ext, _ := d["capabilities"].(map[string]any)["extensions"].(map[string]any)
	if got, _ := ext[greetID].(map[string]any); got["version"] != 1.0 {
		t.Fatalf("discover's extensions = %v; want %s with its capability", ext, greetID)
	}
	r := result(t, c.request(jsonrpc.Int64ID(2), "greet/hello", map[string]any{"name": "ada", "_meta": modernMeta(nil)}))
	if r["greeting"] != "hello ada " || r["era"] != "modern" || r["resultType"] != "complete" || r["ttlMs"] == nil || r["cacheScope"] != "private" {
		t.Errorf("greet/hello = %v; want the greeting with resultType and cache hints", r)
	}
	if meta, _ := r["_meta"].(map[string]any); meta[protocol.MetaServerInfo] == nil {
		t.Errorf("greet/hello's _meta = %v; want the server's identity", r["_meta"])
	}
	bad := c.request(jsonrpc.Int64ID(3), "greet/hello", map[string]any{"name": "ada", "times": "two", "_meta": modernMeta(nil)})
	if bad.Error == nil || bad.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(bad.Error.Message, `"times"`) {
		t.Errorf("a string for times: %+v; want -32602 naming it", bad.Error)
	}
	none := c.request(jsonrpc.Int64ID(4), "greet/hello", map[string]any{"_meta": modernMeta(nil)})
	if none.Error == nil || none.Error.Message != "name is required" {
		t.Errorf("no name: %+v; want the handler's error", none.Error)
	}
}

// On a legacy session an extension without a legacy form does not exist:
// not advertised, its method unknown. With Legacy it is served and
// advertised under experimental.
func TestExtensionLegacy(t *testing.T) {
	for _, legacy := range []bool{false, true} {
		c := start(t, newServer(t, &mcp.Options{Extensions: []mcp.Extension{greetExtension(false, legacy)}}))
		init := result(t, c.request(jsonrpc.StringID("init"), "initialize", map[string]any{
			"protocolVersion": "2025-11-25", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"},
		}))
		c.send(&jsonrpc.Notification{Method: "notifications/initialized"})
		caps := init["capabilities"].(map[string]any)
		exp, _ := caps["experimental"].(map[string]any)
		if caps["extensions"] != nil || (exp[greetID] != nil) != legacy {
			t.Errorf("Legacy %v: initialize's capabilities = %v", legacy, caps)
		}
		r := c.request(jsonrpc.Int64ID(1), "greet/hello", map[string]any{"name": "ada"})
		switch {
		case !legacy && (r.Error == nil || r.Error.Code != jsonrpc.CodeMethodNotFound):
			t.Errorf("greet/hello on legacy: %+v; want -32601", r.Error)
		case legacy && (r.Error != nil || !strings.Contains(string(r.Result), `"era":"legacy"`) || strings.Contains(string(r.Result), "resultType")):
			t.Errorf("greet/hello on legacy with Legacy: %s %+v; want a legacy result", r.Result, r.Error)
		}
	}
}

// RequireClient refuses a client that did not declare the extension with
// -32021 naming it, in the shape the specification gives.
func TestExtensionRequireClient(t *testing.T) {
	c := start(t, newServer(t, &mcp.Options{Extensions: []mcp.Extension{greetExtension(true, false)}}))
	r := c.request(jsonrpc.Int64ID(1), "greet/hello", map[string]any{"name": "ada", "_meta": modernMeta(nil)})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMissingRequiredClientCapability {
		t.Fatalf("undeclared: %+v; want -32021", r.Error)
	}
	var data protocol.MissingRequiredClientCapabilityData
	if err := json.Unmarshal(r.Error.Data, &data); err != nil || data.RequiredCapabilities.Extensions[greetID] == nil {
		t.Errorf("-32021 data = %s (%v); want requiredCapabilities.extensions[%s]", r.Error.Data, err, greetID)
	}
	declared := modernMeta(map[string]any{protocol.MetaClientCapabilities: map[string]any{"extensions": map[string]any{greetID: map[string]any{}}}})
	if r := c.request(jsonrpc.Int64ID(2), "greet/hello", map[string]any{"name": "ada", "_meta": declared}); r.Error != nil {
		t.Errorf("declared: %+v", r.Error)
	}
}

// A malformed extension stops NewServer with a message naming the fault.
func TestExtensionRefused(t *testing.T) {
	ok := greetExtension(false, false)
	noHandler := ok
	noHandler.Methods = []mcp.Method{{Name: "greet/bye"}}
	builtin := ok
	builtin.Methods = []mcp.Method{{Name: "tools/list", Handler: ok.Methods[0].Handler}}
	note := ok
	note.Methods = []mcp.Method{{Name: "notifications/greet", Handler: ok.Methods[0].Handler}}
	other := ok
	other.ID = "com.example/other"
	for _, tc := range []struct {
		name string
		list []mcp.Extension
		want string
	}{
		{"no prefix", []mcp.Extension{{ID: "greet"}}, "not of the form"},
		{"undotted prefix", []mcp.Extension{{ID: "example/greet"}}, "not of the form"},
		{"twice", []mcp.Extension{ok, ok}, "given twice"},
		{"tasks", []mcp.Extension{{ID: mcp.TasksExtension}}, "built in"},
		{"no handler", []mcp.Extension{noHandler}, "no Handler"},
		{"a built-in method", []mcp.Extension{builtin}, `"tools/list" is defined already`},
		{"a notification", []mcp.Extension{note}, "notification"},
		{"a method of another extension", []mcp.Extension{ok, other}, `"greet/hello" is defined already`},
	} {
		t.Run(tc.name, func(t *testing.T) {
			defer func() {
				if p := recover(); p == nil || !strings.Contains(p.(error).Error(), tc.want) {
					t.Errorf("NewServer panicked with %v; want %q", p, tc.want)
				}
			}()
			newServer(t, &mcp.Options{Extensions: tc.list})
		})
	}
}

// Page pages an extension's list with the server's sealed cursors: every
// item once, in order; a tampered cursor and one from before the list
// changed are refused with -32602.
func TestExtensionPage(t *testing.T) {
	items := []string{"a", "b", "c", "d", "e"}
	version := "v1"
	type listParams struct {
		Cursor string `json:"cursor"`
	}
	type listResult struct {
		protocol.Envelope
		Items      []string `json:"items"`
		NextCursor *string  `json:"nextCursor,omitempty"`
	}
	ext := mcp.Extension{ID: "com.example/letters", Methods: []mcp.Method{{Name: "letters/list",
		Handler: mcp.Handle(func(ctx context.Context, p *listParams) (*listResult, error) {
			start, end, next, err := mcp.Page(ctx, "letters/list", version, p.Cursor, len(items))
			if err != nil {
				return nil, err
			}
			return &listResult{Items: items[start:end], NextCursor: next}, nil
		})}}}
	c := start(t, newServer(t, &mcp.Options{PageSize: 2, Extensions: []mcp.Extension{ext}}))
	list := func(id int64, cursor string) *jsonrpc.Response {
		return c.request(jsonrpc.Int64ID(id), "letters/list", map[string]any{"cursor": cursor, "_meta": modernMeta(nil)})
	}
	var got []string
	var cursors []string
	cursor := ""
	for i := int64(1); ; i++ {
		var page listResult
		if err := json.Unmarshal(list(i, cursor).Result, &page); err != nil {
			t.Fatal(err)
		}
		got = append(got, page.Items...)
		if page.NextCursor == nil {
			break
		}
		cursor = *page.NextCursor
		cursors = append(cursors, cursor)
	}
	if strings.Join(got, "") != "abcde" || len(cursors) != 2 {
		t.Fatalf("paged %v with cursors %v; want abcde over three pages", got, cursors)
	}
	tampered := []byte(cursors[0])
	tampered[len(tampered)-1] ^= 1
	if r := list(10, string(tampered)); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("a tampered cursor: %+v; want -32602", r.Error)
	}
	version = "v2"
	if r := list(11, cursors[0]); r.Error == nil || !strings.Contains(r.Error.Message, "stale cursor: the extension's list changed") {
		t.Errorf("a cursor from before a change: %+v; want the stale cursor", r.Error)
	}
}
