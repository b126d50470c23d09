package client_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
)

const echoID = "com.example/echo"

// echoParams and echoResult are the types of echo/say, a method of an
// extension the server serves to clients that declare it.
type echoParams struct {
	Name string `json:"name"`
}

type echoResult struct {
	protocol.Envelope
	Said string `json:"said"`
}

// echoServer serves the echo extension (RequireClient), its one method
// named by "name".
func echoServer() *mcp.Server {
	return mcp.NewServer(mcp.Implementation{Name: "echo", Version: "1"}, &mcp.Options{Logger: quiet,
		Extensions: []mcp.Extension{{
			ID: echoID, Capability: protocol.Object{"level": json.RawMessage(`2`)}, RequireClient: true,
			Methods: []mcp.Method{{Name: "echo/say", Named: "name",
				Handler: mcp.Handle(func(_ context.Context, p *echoParams) (*echoResult, error) {
					return &echoResult{Said: p.Name}, nil
				})}},
		}}})
}

// A client that declares an extension sees the server's capability for
// it and calls its method, over a pipe and over 2026-07-28 HTTP (with the
// Mcp-Name header the extension's Named gives); one that does not
// declare it is refused with -32021.
func TestExtension(t *testing.T) {
	srv := httptest.NewServer(mcphttp.NewHandler(echoServer(), nil))
	defer srv.Close()
	declared := &client.Options{Era: protocol.Modern, Logger: quiet, Extensions: []client.Extension{{ID: echoID, Named: map[string]string{"echo/say": "name"}}}}
	conns := map[string]func(*client.Options) *client.Client{
		"pipe": func(o *client.Options) *client.Client { return connect(t, echoServer(), o) },
		"http": func(o *client.Options) *client.Client {
			c, err := client.Connect(bounded(t), client.HTTP{URL: srv.URL}, o)
			if err != nil {
				t.Fatal(err)
			}
			t.Cleanup(func() { c.Close() })
			return c
		},
	}
	for name, open := range conns {
		t.Run(name, func(t *testing.T) {
			ctx := bounded(t)
			c := open(declared)
			if got := string(c.Info().Capabilities.Extensions[echoID]["level"]); got != "2" {
				t.Errorf("the server's capability for %s: level %q", echoID, got)
			}
			var res echoResult
			if err := c.Call(ctx, "echo/say", map[string]any{"name": "héllo"}, &res); err != nil || res.Said != "héllo" {
				t.Fatalf("echo/say = %+v, %v", res, err)
			}
			if name == "http" {
				return // a client that knows no Named sends no Mcp-Name: see TestExtensionHeaderParity
			}
			plain := open(&client.Options{Era: protocol.Modern, Logger: quiet})
			var rpcErr *jsonrpc.Error
			err := plain.Call(ctx, "echo/say", map[string]any{"name": "x"}, &res)
			if !errors.As(err, &rpcErr) || rpcErr.Code != jsonrpc.CodeMissingRequiredClientCapability {
				t.Errorf("undeclared: %v; want -32021", err)
			}
		})
	}
}

// Over 2026-07-28 HTTP, a client that does not know which member an
// extension's method names sends no Mcp-Name, and the server refuses the
// request: the header parity holds for extension methods too.
func TestExtensionHeaderParity(t *testing.T) {
	srv := httptest.NewServer(mcphttp.NewHandler(echoServer(), nil))
	defer srv.Close()
	c, err := client.Connect(bounded(t), client.HTTP{URL: srv.URL}, &client.Options{Era: protocol.Modern, Logger: quiet,
		Extensions: []client.Extension{{ID: echoID}}})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	err = c.Call(bounded(t), "echo/say", map[string]any{"name": "x"}, nil)
	if err == nil || !strings.Contains(err.Error(), "Mcp-Name") {
		t.Fatalf("echo/say without Mcp-Name: %v; want the header mismatch", err)
	}
}
