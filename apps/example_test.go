package apps_test

import (
	"context"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/apps"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// A server serves a view and links two tools to it: one the model calls
// to show the view, one only the view calls. A host loads the view, builds
// its policy, and relays the view's messages through a Bridge.
func Example() {
	view := apps.Resource{
		URI: "ui://counter/view.html", Name: "counter",
		HTML: `<!doctype html><html><body><button id="more">+1</button><script>/* postMessage JSON-RPC */</script></body></html>`,
		Meta: apps.ResourceMeta{PrefersBorder: new(true)},
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "counter", Version: "1"}, nil)
	if err := apps.Add(srv, view); err != nil {
		fmt.Println(err)
		return
	}
	type count struct {
		N int `json:"n"`
	}
	n := 0
	srv.AddTool(view.Link(tool.New("show_counter", "Shows the counter.", func(context.Context, struct{}) (count, error) {
		return count{n}, nil
	})))
	srv.AddTool(view.Link(tool.New("increment", "Adds one.", func(context.Context, struct{}) (count, error) {
		n++
		return count{n}, nil
	}), apps.VisibleToApp))

	serverEnd, hostEnd := transport.Pipe(transport.Options{})
	go srv.Serve(context.Background(), serverEnd)
	ctx := context.Background()
	host, err := client.Connect(ctx, client.Conn{Conn: hostEnd}, &client.Options{Extensions: []client.Extension{apps.Declare}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer host.Close()

	var show *protocol.Tool
	for t, err := range host.Tools(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		m, _ := apps.ToolMetaOf(t)
		fmt.Printf("%s: view %s, the model sees it: %v\n", t.Name, m.ResourceURI, m.Visible(apps.VisibleToModel))
		if t.Name == "show_counter" {
			show = t
		}
	}
	v, err := apps.Load(ctx, host, "ui://counter/view.html")
	if err != nil {
		fmt.Println(err)
		return
	}
	policy, _ := v.Meta.CSP.Policy()
	fmt.Println("policy starts:", policy[:40])

	b := apps.NewBridge(apps.BridgeOptions{Client: host, Tool: show, HostInfo: protocol.Implementation{Name: "my-host", Version: "1"}})
	for _, msg := range []string{
		`{"jsonrpc":"2.0","method":"ui/notifications/initialized"}`,
		`{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"increment","arguments":{}}}`,
	} {
		for _, out := range b.Receive(ctx, json.RawMessage(msg)) {
			fmt.Println("to the view:", string(out))
		}
	}
	// Output:
	// show_counter: view ui://counter/view.html, the model sees it: true
	// increment: view ui://counter/view.html, the model sees it: false
	// policy starts: default-src 'none'; script-src 'self' 'u
	// to the view: {"jsonrpc":"2.0","method":"ui/notifications/tool-input","params":{"arguments":{}}}
	// to the view: {"jsonrpc":"2.0","id":1,"result":{"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"counter","version":"1"}},"content":[{"type":"text","text":"{\"n\":1}"}],"structuredContent":{"n":1}}}
}
