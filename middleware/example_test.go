package middleware_test

import (
	"context"
	"fmt"
	"log/slog"
	"os"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/middleware"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// A server with an access log, a rate limit on tool calls, a timeout, and
// a policy that shows destructive tools to no one.
func Example() {
	readOnly := func(_ *auth.Principal, t *protocol.Tool) bool {
		return t.Annotations == nil || t.Annotations.DestructiveHint == nil || !*t.Annotations.DestructiveHint
	}
	logger := slog.New(slog.NewTextHandler(os.Stdout, &slog.HandlerOptions{
		ReplaceAttr: func(_ []string, a slog.Attr) slog.Attr {
			if a.Key == "time" || a.Key == "duration" { // keep the output stable
				return slog.Attr{}
			}
			return a
		},
	}))
	srv := mcp.NewServer(mcp.Implementation{Name: "files", Version: "1"}, &mcp.Options{Middleware: []mcp.Middleware{
		middleware.AccessLog(logger),
		middleware.RateLimit(10, "tools/call"),
		middleware.Timeout(30 * time.Second),
		middleware.FilterTools(readOnly),
	}})
	srv.AddTool(tool.New("delete_all", "Deletes everything.", func(context.Context, struct{}) (string, error) {
		return "gone", nil
	}, tool.Destructive(true)))

	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	go srv.Serve(context.Background(), serverEnd)
	ctx := context.Background()
	clientEnd.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(
		`{"name":"delete_all","arguments":{},"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{},"io.modelcontextprotocol/clientInfo":{"name":"c","version":"1"}}}`)})
	m, _ := clientEnd.Read(ctx)
	fmt.Println(m.(*jsonrpc.Response).Error.Message)
	// Output:
	// level=WARN msg="mcp: request" method=tools/call target=delete_all era=modern id=1 code=-32602 outcome=error
	// invalid params: unknown tool "delete_all"
}
