package gateway_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// Two servers served as one: their tools namespaced, each call routed to
// its upstream.
func Example() {
	server := func(name string) *mcp.Server {
		srv := mcp.NewServer(mcp.Implementation{Name: name, Version: "1"}, nil)
		srv.MustAddTool(tool.New("hello", "Says hello.", func(context.Context, struct{}) (string, error) {
			return "hello from " + name, nil
		}))
		return srv
	}
	ctx := context.Background()
	g, err := gateway.New(ctx, &gateway.Config{Upstreams: []gateway.Upstream{
		{Name: "files", Server: server("files")},
		{Name: "notes", Server: server("notes")},
	}}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer g.Close()

	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	go g.Server().Serve(ctx, serverEnd)
	c, err := client.Connect(ctx, client.Conn{Conn: clientEnd}, nil)
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for t, err := range c.Tools(ctx) {
		if err != nil {
			fmt.Println(err)
			return
		}
		r, _ := c.CallTool(ctx, t.Name, nil)
		fmt.Printf("%s: %s\n", t.Name, r.Content[0].Text.Text)
	}
	// Output:
	// files_hello: hello from files
	// notes_hello: hello from notes
}
