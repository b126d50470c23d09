package mcp_test

import (
	"context"
	"fmt"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// benchList asks for the middle page of a list over a pipe: the cursor is
// opened and the next one made, on every request.
func benchList(b *testing.B, srv *mcp.Server, method string) {
	c := startBench(b, srv)
	ask := func(id int64, params json.RawMessage) map[string]any {
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: method, Params: params}); err != nil {
			b.Fatal(err)
		}
		m, err := c.Read(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		r, ok := m.(*jsonrpc.Response)
		if !ok || r.Error != nil {
			b.Fatalf("unexpected reply %#v", m)
		}
		var out map[string]any
		json.Unmarshal(r.Result, &out)
		return out
	}
	initialize(b, c)
	first := ask(1, json.RawMessage(`{}`))
	params, _ := json.Marshal(map[string]any{"cursor": first["nextCursor"]})
	if next, _ := ask(2, params)["nextCursor"].(string); next == "" {
		b.Fatalf("the middle page has no nextCursor: %v", first)
	}
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		ask(int64(i+3), params)
	}
}

func initialize(b *testing.B, c *transport.Stream) {
	params := json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}`)
	if err := c.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.StringID("init"), Method: "initialize", Params: params}); err != nil {
		b.Fatal(err)
	}
	if _, err := c.Read(context.Background()); err != nil {
		b.Fatal(err)
	}
	c.Write(context.Background(), &jsonrpc.Notification{Method: "notifications/initialized"})
}

// BenchmarkToolsListCursor pages 150 tools 50 at a time.
func BenchmarkToolsListCursor(b *testing.B) {
	t := &testing.T{}
	srv := newServer(t, &mcp.Options{StateKey: []byte("a benchmark key of thirty-two bytes")})
	for i := range 150 {
		tl := echoTool()
		tl.Name = fmt.Sprintf("echo_%03d", i)
		srv.MustAddTool(tl)
	}
	benchList(b, srv, "tools/list")
}

// BenchmarkResourcesListCursorFiltered pages 150 resources 50 at a time
// for a caller who sees two thirds of them.
func BenchmarkResourcesListCursorFiltered(b *testing.B) {
	t := &testing.T{}
	srv := newServer(t, &mcp.Options{PageSize: 50, StateKey: []byte("a benchmark key of thirty-two bytes")})
	for i := range 225 {
		uri := fmt.Sprintf("test://r/%03d", i)
		r := mcp.Resource{URI: uri, Name: uri, Read: mcp.StaticRead("x")}
		if i%3 == 2 {
			r.Visible = func(c *auth.Principal) bool { return c.HasScope("operator") }
		}
		srv.MustAddResource(r)
	}
	benchList(b, srv, "resources/list")
}
