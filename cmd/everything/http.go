package main

import (
	"context"
	"fmt"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// serveHTTP serves srv at http://addr/mcp (mcphttp.ListenAndServe) until
// the process receives SIGINT or SIGTERM, then shuts down within grace.
// The listening address, with the port actually bound when addr asks for
// port 0, is logged to stderr before anything is served. It returns nil
// on a clean stop.
func serveHTTP(ctx context.Context, srv *mcp.Server, addr string, grace time.Duration, opts *mcphttp.Options) error {
	// test_reconnection only means something over HTTP; registered here,
	// it leaves the stdio tool list (and its golden transcripts) alone.
	if err := srv.AddTool(reconnectionTool()); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }() // a second signal kills the process as usual
	return mcphttp.ListenAndServe(ctx, addr, srv, &mcphttp.ServeOptions{
		Options: *opts, Grace: grace,
		OnListen: func(url string) { fmt.Fprintf(os.Stderr, "everything: listening on %s\n", url) },
	})
}
