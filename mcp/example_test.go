package mcp_test

import (
	"context"
	"fmt"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// A server with one typed tool, served over an in-memory pipe and called by
// a legacy client: initialize, then tools/call.
func ExampleServer_Serve() {
	type greetArgs struct {
		Name string `json:"name"`
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "greeter", Version: "1.0.0"}, nil)
	srv.MustAddTool(tool.New("greet", "Greets someone.",
		func(_ context.Context, in greetArgs) (*tool.Result, error) {
			return tool.TextResult("Hello, " + in.Name + "!"), nil
		}))

	serverEnd, client := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), serverEnd) }()

	call := func(id int64, method, params string) {
		client.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: json.RawMessage(params)})
		msg, _ := client.Read(context.Background())
		line, _ := jsonrpc.Marshal(msg)
		fmt.Println(string(line))
	}
	call(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1"}}`)
	call(2, "tools/call", `{"name":"greet","arguments":{"name":"Ada"}}`)

	client.Close() // the server sees EOF, finishes and returns nil
	fmt.Println("Serve returned:", <-done)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{"protocolVersion":"2025-06-18","capabilities":{"logging":{},"tools":{"listChanged":true}},"serverInfo":{"name":"greeter","version":"1.0.0"}}}
	// {"jsonrpc":"2.0","id":2,"result":{"content":[{"type":"text","text":"Hello, Ada!"}]}}
	// Serve returned: <nil>
}

// The same server answers a modern (2026-07-28) client, which sends no
// initialize: every request carries its own version and capabilities.
func ExampleServer_Serve_modern() {
	// The discover result names no user, so any cache may keep it for an hour
	// (ttlMs 3600000, cacheScope "public"). Methods without a hint get one
	// minute, private.
	srv := mcp.NewServer(mcp.Implementation{Name: "greeter", Version: "1.0.0"},
		&mcp.Options{CacheHints: map[string]mcp.CacheHint{
			"server/discover": {TTL: time.Hour, Public: true},
		}})
	serverEnd, client := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), serverEnd) }()

	params := `{"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`
	client.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.StringID("d"), Method: "server/discover", Params: json.RawMessage(params)})
	msg, _ := client.Read(context.Background())
	line, _ := jsonrpc.Marshal(msg)
	fmt.Println(string(line))

	client.Close()
	<-done
	// Output:
	// {"jsonrpc":"2.0","id":"d","result":{"resultType":"complete","_meta":{"io.modelcontextprotocol/serverInfo":{"name":"greeter","version":"1.0.0"}},"ttlMs":3600000,"cacheScope":"public","supportedVersions":["2026-07-28","2025-11-25","2025-06-18","2025-03-26","2024-11-05"],"capabilities":{"logging":{}}}}
}

// An endpoint serves messages that arrive one by one, each with its own way
// back, as HTTP POSTs do: here one stateless 2026-07-28 request whose
// progress and response go to its exchange.
func ExampleEndpoint() {
	srv := mcp.NewServer(mcp.Implementation{Name: "counter", Version: "1.0.0"}, nil)
	srv.MustAddTool(tool.New("count", "Counts to two.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			mcp.ReportProgress(ctx, 1, 2, "one")
			mcp.ReportProgress(ctx, 2, 2, "two")
			return tool.TextResult("counted"), nil
		}))
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()

	done := make(chan struct{})
	send := func(m jsonrpc.Message) {
		switch m := m.(type) {
		case *jsonrpc.Notification:
			fmt.Println("notification:", m.Method)
		case *jsonrpc.Response:
			var r struct {
				ResultType string `json:"resultType"`
			}
			json.Unmarshal(m.Result, &r)
			fmt.Println("response:", r.ResultType)
			close(done)
		}
	}
	ep.Handle(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(
		`{"name":"count","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28",` +
			`"io.modelcontextprotocol/clientCapabilities":{},"progressToken":"p"}}`)}, send)
	<-done
	// Output:
	// notification: notifications/progress
	// notification: notifications/progress
	// response: complete
}
