// Package exampleclient runs one tool call through a real server for the
// runnable examples of packages tool and probe: the tool is registered on
// an mcp.Server, called once by a 2025-06-18 client over an in-memory
// pipe, and the result the client receives is printed.
package exampleclient

import (
	"context"
	"fmt"
	"io"
	"log/slog"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// CallTool registers t, calls it with the arguments args (a JSON object)
// and meta as the request's _meta ("" for none), and prints the result the
// client receives, or the whole response when it is an error.
func CallTool(t tool.Tool, meta, args string) {
	srv := mcp.NewServer(mcp.Implementation{Name: "example", Version: "1"},
		&mcp.Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	if err := srv.AddTool(t); err != nil {
		fmt.Println(err)
		return
	}
	serverEnd, client := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), serverEnd) }()
	defer func() { client.Close(); <-done }()
	ctx := context.Background()
	send := func(id int64, method, params string) jsonrpc.Message {
		client.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: json.RawMessage(params)})
		msg, _ := client.Read(ctx)
		return msg
	}
	send(1, "initialize", `{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"example","version":"1"}}`)
	client.Write(ctx, &jsonrpc.Notification{Method: "notifications/initialized"})
	params := `{"name":"` + t.Name + `","arguments":` + args
	if meta != "" {
		params += `,"_meta":` + meta
	}
	msg := send(2, "tools/call", params+"}")
	if res, ok := msg.(*jsonrpc.Response); ok && res.Error == nil {
		fmt.Println(string(res.Result))
		return
	}
	line, _ := jsonrpc.Marshal(msg)
	fmt.Println(string(line))
}
