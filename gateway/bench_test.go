package gateway_test

import (
	"context"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

func echoServer() *mcp.Server {
	srv := mcp.NewServer(mcp.Implementation{Name: "echo", Version: "1"}, &mcp.Options{Logger: quiet})
	srv.MustAddTool(tool.New("echo", "Echoes.", func(_ context.Context, in text) (string, error) { return in.Text, nil }))
	return srv
}

// BenchmarkCall is one echo call through the gateway in front of an
// in-process upstream, beside the same call made directly, in each era.
func BenchmarkCall(b *testing.B) {
	args := json.RawMessage(`{"text":"hello"}`)
	for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
		direct := pipeclientConnect(b, echoServer(), era)
		g, err := gateway.New(context.Background(), &gateway.Config{NoNamespace: true,
			Upstreams: []gateway.Upstream{{Name: "echo", Server: echoServer()}}}, &gateway.Options{Logger: quiet})
		if err != nil {
			b.Fatal(err)
		}
		b.Cleanup(func() { g.Close() })
		via := pipeclientConnect(b, g.Server(), era)
		for name, c := range map[string]*client.Client{"direct": direct, "gateway": via} {
			b.Run(era.String()+"/"+name, func(b *testing.B) {
				ctx := context.Background()
				b.ReportAllocs()
				for b.Loop() {
					if _, err := c.CallTool(ctx, "echo", args); err != nil {
						b.Fatal(err)
					}
				}
			})
		}
	}
}
