// Package pipeclient connects a client (package client) to a server
// served over an in-memory pipe, for the tests of the packages built on
// both: the test's cleanup closes the client and waits for Serve.
package pipeclient

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// Connect serves srv over a pipe and connects a client with opts (nil:
// the defaults; a nil Logger discards), the handshake bounded by 20 s.
func Connect(t testing.TB, srv *mcp.Server, opts *client.Options) *client.Client {
	t.Helper()
	o := client.Options{}
	if opts != nil {
		o = *opts
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	a, b := transport.Pipe(transport.Options{})
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, a) }()
	cctx, ccancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer ccancel()
	c, err := client.Connect(cctx, client.Conn{Conn: b}, &o)
	if err != nil {
		cancel()
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		cancel()
		<-done
	})
	return c
}
