//go:build stdioonly

package main

import (
	"context"
	"errors"
	"net"

	"github.com/mcpwire/mcpwire/mcp"
)

// serveHTTP is missing from a build for stdio only (the stdioonly tag),
// which is how the test counts the imports of a stdio server.
func serveHTTP(context.Context, net.Listener, *mcp.Server) error {
	return errors.New("built with the stdioonly tag: stdio only")
}
