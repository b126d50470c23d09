package mcp_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// BenchmarkToolsListOne asks for the one page of a one-tool list over a
// pipe, as the stdio load run's list phase does.
func BenchmarkToolsListOne(b *testing.B) {
	t := &testing.T{}
	srv := newServer(t, nil, echoTool())
	c := startBench(b, srv)
	initialize(b, c)
	params := json.RawMessage(`{}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i + 1)), Method: "tools/list", Params: params}); err != nil {
			b.Fatal(err)
		}
		m, err := c.Read(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if r, ok := m.(*jsonrpc.Response); !ok || r.Error != nil {
			b.Fatalf("unexpected reply %#v", m)
		}
	}
}
