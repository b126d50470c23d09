//go:build !stdioonly

package main

import (
	"context"
	"net"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// serveHTTP serves srv over Streamable HTTP on ln until ctx ends.
func serveHTTP(ctx context.Context, ln net.Listener, srv *mcp.Server) error {
	return mcphttp.Serve(ctx, ln, srv, nil)
}
