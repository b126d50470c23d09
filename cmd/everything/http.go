package main

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
)

// mcpPath is where -http serves the MCP endpoint.
const mcpPath = "/mcp"

// Timeouts of the HTTP server against slow or idle clients. There is no
// ReadTimeout or WriteTimeout: either would end the long-lived SSE
// streams (a call's progress, subscriptions/listen, a legacy session's
// GET) that Streamable HTTP keeps open; the handler bounds request bodies
// (mcphttp.Options.MaxBodyBytes) instead.
const (
	httpReadHeaderTimeout = 10 * time.Second
	httpIdleTimeout       = 2 * time.Minute
	httpMaxHeaderBytes    = 64 << 10
	// shutdownMargin is how long after the grace period the last answers
	// (the errors of the calls the grace cut off) have to be written
	// before the remaining connections are closed.
	shutdownMargin = 500 * time.Millisecond
)

// serveHTTP serves srv at http://addr/mcp until ctx ends or the process
// receives SIGINT or SIGTERM, then shuts down: it stops accepting
// connections, ends the handler's sessions and streams (in-flight calls get
// the server's shutdown grace to finish) and waits for the connections to
// go idle, at most grace plus a short margin. The listening address, with
// the port actually bound when addr asks for port 0, is logged to stderr
// before anything is served. It returns nil on a clean stop.
func serveHTTP(ctx context.Context, srv *mcp.Server, addr string, grace time.Duration, opts *mcphttp.Options) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	h := mcphttp.NewHandler(srv, opts)
	fmt.Fprintf(os.Stderr, "everything: listening on %s\n", endpointURL(ln.Addr()))
	return runHTTP(ctx, ln, h, grace, opts.Logger)
}

// runHTTP serves h on ln (see serveHTTP) and closes h before it returns.
func runHTTP(ctx context.Context, ln net.Listener, h *mcphttp.Handler, grace time.Duration, logger *slog.Logger) error {
	if logger == nil {
		logger = slog.Default()
	}
	mux := http.NewServeMux()
	mux.Handle(mcpPath, h)
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: httpReadHeaderTimeout,
		IdleTimeout:       httpIdleTimeout,
		MaxHeaderBytes:    httpMaxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	// Shutdown waits for idle connections, which the handler's SSE
	// streams never become by themselves: closing the handler, once the
	// listener is closed, ends them.
	closed := make(chan struct{})
	hs.RegisterOnShutdown(func() {
		h.Close()
		close(closed)
	})

	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served: // the listener failed
		h.Close()
		return err
	case <-ctx.Done():
	}
	stop() // a second signal kills the process as usual

	sctx, cancel := context.WithTimeout(context.Background(), grace+shutdownMargin)
	defer cancel()
	if err := hs.Shutdown(sctx); errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("shutdown: connections still busy after the grace period; closing them", "grace", grace)
		hs.Close()
	}
	<-closed
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// endpointURL is the MCP endpoint's URL on the bound address a.
func endpointURL(a net.Addr) string {
	return "http://" + a.String() + mcpPath
}
