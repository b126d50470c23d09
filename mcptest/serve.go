package mcptest

import (
	"context"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/transport"
)

// serve runs srv.Serve on conn on a goroutine of its own, as NewClient,
// Check and Replay serve the test's server; stop cancels Serve's context
// and served gets what Serve returned.
func serve(srv *mcp.Server, conn transport.Conn) (stop context.CancelFunc, served <-chan error) {
	ctx, stop := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() { done <- srv.Serve(ctx, conn) }()
	return stop, done
}

// waitServe fails the test, naming who, if Serve does not return within
// serveTimeout of the connection closing, or returns an error.
func waitServe(t testing.TB, who string, served <-chan error) {
	t.Helper()
	select {
	case err := <-served:
		if err != nil {
			t.Errorf("%s: the server's Serve returned %v", who, err)
		}
	case <-time.After(serveTimeout):
		t.Errorf("%s: the server's Serve did not return within %v of the client closing the connection", who, serveTimeout)
	}
}
