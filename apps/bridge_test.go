package apps_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/apps"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// hostOf connects a host to a's server and returns it with the descriptor
// of tool name.
func hostOf(t *testing.T, a *appServer, era protocol.Era, name string) (*client.Client, *protocol.Tool) {
	t.Helper()
	c := connect(t, a.srv, era, apps.Declare)
	for tl, err := range c.Tools(bounded(t)) {
		if err != nil {
			t.Fatal(err)
		}
		if tl.Name == name {
			return c, tl
		}
	}
	t.Fatalf("no tool %s", name)
	return nil, nil
}

// wire is one message posted to the view, decoded loosely.
type wire struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Params json.RawMessage `json:"params"`
	Result json.RawMessage `json:"result"`
	Error  *jsonrpc.Error  `json:"error"`
}

func decodeAll(t *testing.T, out []json.RawMessage) []wire {
	t.Helper()
	var ws []wire
	for _, m := range out {
		var w wire
		if err := json.Unmarshal(m, &w); err != nil {
			t.Fatalf("%s: %v", m, err)
		}
		ws = append(ws, w)
	}
	return ws
}

// one is the one response a request got.
func one(t *testing.T, b *apps.Bridge, msg string) wire {
	t.Helper()
	ws := decodeAll(t, b.Receive(bounded(t), []byte(msg)))
	if len(ws) != 1 {
		t.Fatalf("%s: %d messages back, want 1", msg, len(ws))
	}
	return ws[0]
}

func call(id int, name, args string) string {
	return fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":%q,"arguments":%s}}`, id, name, args)
}

// The handshake in the extension's order, then the view's calls: the
// app's tools reach the server, the model's alone and unknown ones do
// not, in both eras of the host's connection.
func TestBridge(t *testing.T) {
	for _, era := range eras {
		t.Run(era.String(), func(t *testing.T) {
			a := newAppServer(t)
			c, show := hostOf(t, a, era, "show")
			ctx := bounded(t)
			result, err := c.CallTool(ctx, "show", addArgs{2, 3})
			if err != nil {
				t.Fatal(err)
			}
			var notified []string
			b := apps.NewBridge(apps.BridgeOptions{
				Client: c, Tool: show, Arguments: json.RawMessage(`{"a":2,"b":3}`), Result: result,
				HostInfo:    protocol.Implementation{Name: "test-host", Version: "1"},
				HostContext: protocol.Object{"theme": json.RawMessage(`"dark"`)},
				Notify:      func(method string, _ json.RawMessage) { notified = append(notified, method) },
			})

			init := one(t, b, `{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":"2026-01-26","appInfo":{"name":"v","version":"1"},"appCapabilities":{}}}`)
			var ir struct {
				ProtocolVersion  string                     `json:"protocolVersion"`
				HostInfo         protocol.Implementation    `json:"hostInfo"`
				HostCapabilities map[string]json.RawMessage `json:"hostCapabilities"`
				HostContext      struct {
					Theme    string `json:"theme"`
					ToolInfo struct {
						Tool protocol.Tool `json:"tool"`
					} `json:"toolInfo"`
				} `json:"hostContext"`
			}
			if init.Error != nil || json.Unmarshal(init.Result, &ir) != nil || ir.ProtocolVersion != apps.ProtocolVersion ||
				ir.HostInfo.Name != "test-host" || ir.HostContext.Theme != "dark" || ir.HostContext.ToolInfo.Tool.Name != "show" ||
				ir.HostCapabilities["serverTools"] == nil {
				t.Fatalf("ui/initialize: %+v %s", init.Error, init.Result)
			}

			started := decodeAll(t, b.Receive(ctx, []byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized","params":{}}`)))
			if len(started) != 2 || started[0].Method != "ui/notifications/tool-input" || string(started[0].Params) != `{"arguments":{"a":2,"b":3}}` ||
				started[1].Method != "ui/notifications/tool-result" || !strings.Contains(string(started[1].Params), `"structuredContent":{"sum":5}`) ||
				strings.Contains(string(started[1].Params), "resultType") {
				t.Fatalf("after initialized: %+v", started)
			}
			if again := b.Receive(ctx, []byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)); len(again) != 0 {
				t.Fatalf("a second initialized sent %s", again)
			}

			if r := one(t, b, call(2, "add", `{"a":4,"b":5}`)); r.Error != nil || !strings.Contains(string(r.Result), `"structuredContent":{"sum":9}`) || a.calls["add"].Load() != 1 {
				t.Fatalf("add: %+v %s, %d calls", r.Error, r.Result, a.calls["add"].Load())
			}
			if r := one(t, b, call(3, "plain", `{"a":1,"b":1}`)); r.Error != nil {
				t.Fatalf("plain (no _meta.ui, visible to both): %v", r.Error)
			}
			for name, want := range map[string]string{"secret": "not visible to apps", "nope": "lists no tool"} {
				r := one(t, b, call(4, name, `{}`))
				if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, want) || string(r.ID) != "4" {
					t.Fatalf("%s: %+v, want -32602 saying %q", name, r.Error, want)
				}
			}
			if n := a.calls["secret"].Load(); n != 0 {
				t.Fatalf("secret reached its handler %d times", n)
			}

			if r := one(t, b, `{"jsonrpc":"2.0","id":"r","method":"resources/read","params":{"uri":"ui://calc/view.html"}}`); r.Error != nil ||
				!strings.Contains(string(r.Result), `"mimeType":"text/html;profile=mcp-app"`) || strings.Contains(string(r.Result), "ttlMs") {
				t.Fatalf("resources/read: %+v %s", r.Error, r.Result)
			}
			if r := one(t, b, `{"jsonrpc":"2.0","id":5,"method":"ping"}`); r.Error != nil || string(r.Result) != "{}" {
				t.Fatalf("ping: %+v %s", r.Error, r.Result)
			}
			if r := one(t, b, `{"jsonrpc":"2.0","id":6,"method":"ui/open-link","params":{"url":"https://example.com"}}`); r.Error == nil || r.Error.Code != jsonrpc.CodeMethodNotFound {
				t.Fatalf("ui/open-link without Handle: %+v", r)
			}
			b.Receive(ctx, []byte(`{"jsonrpc":"2.0","method":"ui/notifications/size-changed","params":{"height":200}}`))
			if fmt.Sprint(notified) != "[ui/notifications/size-changed]" {
				t.Fatalf("Notify heard %v", notified)
			}
		})
	}
}

// What is not a request the bridge can serve is answered, or dropped,
// and the bridge goes on.
func TestBridgeGarbage(t *testing.T) {
	a := newAppServer(t)
	c, show := hostOf(t, a, protocol.Modern, "show")
	b := apps.NewBridge(apps.BridgeOptions{Client: c, Tool: show,
		Handle: func(_ context.Context, method string, params json.RawMessage) (any, error) {
			if method == "ui/open-link" {
				return map[string]bool{"isError": false}, nil
			}
			return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "no %s", method)
		}})
	ctx := bounded(t)
	for _, msg := range []string{`not json`, `{"type":"resize"}`, `{"jsonrpc":"2.0","id":3,"result":{}}`, ``} {
		if out := b.Receive(ctx, []byte(msg)); len(out) != 0 {
			t.Errorf("%q: answered %s", msg, out)
		}
	}
	for msg, code := range map[string]int64{
		`{"jsonrpc":"2.0","id":9,"method":5}`:                                                jsonrpc.CodeInvalidRequest,
		`[{"jsonrpc":"2.0","id":1,"method":"ping"}]`:                                         jsonrpc.CodeInvalidRequest,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{}}`:                         jsonrpc.CodeInvalidParams,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":[]}`:                     jsonrpc.CodeInvalidParams,
		`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":"x"}`:                     jsonrpc.CodeInvalidRequest,
		`{"jsonrpc":"2.0","id":1,"method":"ui/initialize","params":{"protocolVersion":1}}`:   jsonrpc.CodeInvalidParams,
		`{"jsonrpc":"2.0","id":1,"method":"ui/message","params":{}}`:                         jsonrpc.CodeMethodNotFound,
		`{"jsonrpc":"2.0","id":1,"method":"resources/read","params":{"uri":"ui://nothing"}}`: jsonrpc.CodeInvalidParams,
	} {
		r := one(t, b, msg)
		if r.Error == nil || r.Error.Code != code {
			t.Errorf("%s: %+v, want %d", msg, r.Error, code)
		}
	}
	if r := one(t, b, `{"jsonrpc":"2.0","id":2,"method":"ui/open-link","params":{"url":"https://example.com"}}`); string(r.Result) != `{"isError":false}` {
		t.Fatalf("ui/open-link through Handle: %+v %s", r.Error, r.Result)
	}
	if out := b.Receive(ctx, []byte(strings.Repeat(" ", apps.MaxViewMessageBytes+1))); len(out) != 1 || !strings.Contains(string(out[0]), "-32600") {
		t.Fatalf("an oversized message: %s", out)
	}
	if r := one(t, b, `{"jsonrpc":"2.0","id":5,"method":"ping"}`); r.Error != nil {
		t.Fatalf("ping after garbage: %v", r.Error)
	}
}

// A result that comes after the bridge was made goes out once the view
// has started, whichever comes first, and once.
func TestBridgeSetResult(t *testing.T) {
	a := newAppServer(t)
	c, show := hostOf(t, a, protocol.Modern, "show")
	r, err := c.CallTool(bounded(t), "show", addArgs{1, 1})
	if err != nil {
		t.Fatal(err)
	}
	initialized := []byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`)
	methods := func(out []json.RawMessage) string {
		var ms []string
		for _, w := range decodeAll(t, out) {
			ms = append(ms, w.Method)
		}
		return strings.Join(ms, " ")
	}

	late := apps.NewBridge(apps.BridgeOptions{Client: c, Tool: show})
	if got := methods(late.Receive(bounded(t), initialized)); got != "ui/notifications/tool-input" {
		t.Fatalf("started without a result: %s", got)
	}
	if got := methods(late.SetResult(r)); got != "ui/notifications/tool-result" {
		t.Fatalf("SetResult after the start: %s", got)
	}
	if got := late.SetResult(r); len(got) != 0 {
		t.Fatalf("a second SetResult: %s", got)
	}

	early := apps.NewBridge(apps.BridgeOptions{Client: c, Tool: show})
	if got := early.SetResult(r); len(got) != 0 {
		t.Fatalf("SetResult before the start sent %s", got)
	}
	if got := methods(early.Receive(bounded(t), initialized)); got != "ui/notifications/tool-input ui/notifications/tool-result" {
		t.Fatalf("started after SetResult: %s", got)
	}
}

// A view's calls may overlap: each gets its own answer.
func TestBridgeConcurrent(t *testing.T) {
	a := newAppServer(t)
	c, show := hostOf(t, a, protocol.Modern, "show")
	b := apps.NewBridge(apps.BridgeOptions{Client: c, Tool: show})
	var wg sync.WaitGroup
	errs := make(chan error, 32)
	for i := range 32 {
		wg.Go(func() {
			if i%8 == 0 {
				b.Receive(bounded(t), []byte(`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`))
				return
			}
			out := b.Receive(bounded(t), []byte(call(i, "add", fmt.Sprintf(`{"a":%d,"b":1}`, i))))
			want := fmt.Sprintf(`"structuredContent":{"sum":%d}}}`, i+1)
			if len(out) != 1 || !strings.HasPrefix(string(out[0]), fmt.Sprintf(`{"jsonrpc":"2.0","id":%d,`, i)) || !strings.HasSuffix(string(out[0]), want) {
				errs <- fmt.Errorf("call %d: %s", i, out)
			}
		})
	}
	wg.Wait()
	close(errs)
	for err := range errs {
		t.Error(err)
	}
	if n := a.calls["add"].Load(); n != 28 {
		t.Fatalf("%d calls reached add, want 28", n)
	}
}
