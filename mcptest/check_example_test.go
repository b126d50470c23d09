package mcptest_test

import (
	"context"
	"fmt"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// The contract review in a test: one good tool, and one whose result
// carries structured content with no text block mirroring it, which
// clients that read only the text would show as nothing. Check fails the
// test once per finding, in each era of the table.
func ExampleCheck() {
	srv := mcp.NewServer(mcp.Implementation{Name: "stats", Version: "1"}, nil)
	srv.MustAddTool(tool.New("ping", "Answers pong.", func(context.Context, struct{}) (string, error) {
		return "pong", nil
	}, tool.ReadOnly(true)))
	srv.MustAddTool(tool.Tool{
		Name: "stats", Description: "Counts things.", Annotations: &tool.Annotations{ReadOnlyHint: new(true)},
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			return &tool.Result{Structured: json.RawMessage(`{"count":3}`)}, nil // no text block
		},
	})

	for _, era := range []struct {
		name string
		opts []mcptest.Option
	}{
		{"2025-06-18", []mcptest.Option{mcptest.WithClient(&client.Options{Era: protocol.Legacy, ProtocolVersion: "2025-06-18"})}},
		{"2026-07-28", nil}, // the default
	} {
		fmt.Println(era.name)
		test(func(t testing.TB) {
			mcptest.Check(t, srv, era.opts...)
		})
	}
	// Output:
	// 2025-06-18
	// error: mcptest.Check: tool "stats": consume structured-text-mirror at "/content": no text block holds the JSON serialisation of structuredContent, which clients that ignore structuredContent need
	// 2026-07-28
	// error: mcptest.Check: tool "stats": consume structured-text-mirror at "/content": no text block holds the JSON serialisation of structuredContent, which clients that ignore structuredContent need
}
