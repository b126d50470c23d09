package mcphttp

import (
	"context"
	"errors"
	"log/slog"
	"net"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
)

// defaultPath is where ListenAndServe serves the MCP endpoint.
const defaultPath = "/mcp"

// Timeouts of the http.Server that Serve runs, against slow and idle
// clients. There is no ReadTimeout or WriteTimeout: either would end the
// long-lived SSE streams (a call's progress, subscriptions/listen, a
// legacy session's GET); the handler bounds request bodies instead
// (Options.MaxBodyBytes).
const (
	readHeaderTimeout = 10 * time.Second
	idleTimeout       = 2 * time.Minute
	maxHeaderBytes    = 64 << 10
	// shutdownMargin is how long after the grace period the last answers
	// (the errors of the calls the grace cut off) have to be written
	// before the remaining connections are closed.
	shutdownMargin = 500 * time.Millisecond
)

// ServeOptions configure Serve and ListenAndServe.
type ServeOptions struct {
	// Options configure the handler.
	Options
	// Path is the endpoint's path (default "/mcp").
	Path string
	// Grace is how long in-flight requests may run at shutdown; set it to
	// the server's mcp.Options.ShutdownGrace (default 1 s).
	Grace time.Duration
	// OnListen, when set, is called with the endpoint's URL once the
	// listener is bound (with the real port when the address asked for
	// port 0), before anything is served.
	OnListen func(url string)
	// LivePath and ReadyPath are where the handler's LiveHandler and
	// ReadyHandler answer (default "/livez" and "/readyz");
	// a path equal to Path is not served.
	LivePath, ReadyPath string
	// DrainDelay is how long Serve goes on serving once ctx ends, with
	// readiness at 503 (Handler.Drain), before it shuts down: set it to
	// what the load balancer needs to take the instance out (its probe
	// interval times its failure threshold, and a little more). Zero, the
	// default, shuts down at once.
	DrainDelay time.Duration
}

// beyondLoopback reports whether a listener's address can be reached from
// other machines: any IP address but a loopback one (0.0.0.0 and :: are
// every interface).
func beyondLoopback(a net.Addr) bool {
	t, ok := a.(*net.TCPAddr)
	return ok && !t.IP.IsLoopback()
}

// ListenAndServe serves srv over Streamable HTTP on addr (host:port; bind
// 127.0.0.1 unless the server is meant to be reached from elsewhere) until
// ctx ends. See Serve.
func ListenAndServe(ctx context.Context, addr string, srv *mcp.Server, opts *ServeOptions) error {
	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	return Serve(ctx, ln, srv, opts)
}

// Serve serves srv over Streamable HTTP on ln until ctx ends (cancel it on
// SIGINT or SIGTERM), with an http.Server whose timeouts keep slow clients
// from holding connections, and the health checks beside the endpoint
// (ServeOptions.LivePath and ReadyPath). Then it drains for
// ServeOptions.DrainDelay (readiness 503, everything else served) and
// shuts down: it stops accepting, ends
// the handler's sessions and streams (in-flight calls get Grace to finish)
// and waits for the connections to go idle, at most Grace and a short
// margin, after which it closes them. It returns nil on a clean stop.
func Serve(ctx context.Context, ln net.Listener, srv *mcp.Server, opts *ServeOptions) error {
	if opts == nil {
		opts = &ServeOptions{}
	}
	path, grace, logger := opts.Path, opts.Grace, opts.Logger
	if path == "" {
		path = defaultPath
	}
	if grace <= 0 {
		grace = time.Second
	}
	if logger == nil {
		logger = slog.Default()
	}
	h := NewHandler(srv, &opts.Options)
	mux := http.NewServeMux()
	mux.Handle(path, h)
	live, ready := opts.LivePath, opts.ReadyPath
	if live == "" {
		live = defaultLivePath
	}
	if ready == "" {
		ready = defaultReadyPath
	}
	if live != path {
		mux.Handle(live, h.LiveHandler())
	}
	if ready != path && ready != live {
		mux.Handle(ready, h.ReadyHandler())
	}
	hs := &http.Server{
		Handler:           mux,
		ReadHeaderTimeout: readHeaderTimeout,
		IdleTimeout:       idleTimeout,
		MaxHeaderBytes:    maxHeaderBytes,
		ErrorLog:          slog.NewLogLogger(logger.Handler(), slog.LevelWarn),
	}
	// Shutdown waits for idle connections, which SSE streams never become
	// by themselves: closing the handler, once the listener is closed,
	// ends them.
	closed := make(chan struct{})
	hs.RegisterOnShutdown(func() {
		h.Close()
		close(closed)
	})
	if beyondLoopback(ln.Addr()) && len(opts.AllowedHosts) == 0 {
		logger.Warn("mcphttp: listening beyond loopback with no Options.AllowedHosts: the Host check refuses browsers that reach this address by name (DNS rebinding), "+
			"but any other client that can connect and sends Host: localhost is served; bind 127.0.0.1, or put authentication in front (package oauth) and set AllowedHosts",
			"addr", ln.Addr().String())
	}
	if opts.OnListen != nil {
		opts.OnListen("http://" + ln.Addr().String() + path)
	}
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served: // the listener failed
		h.Close()
		return err
	case <-ctx.Done():
	}
	if d := opts.DrainDelay; d > 0 {
		h.Drain()
		logger.Info("mcphttp: draining before shutdown", "delay", d)
		select {
		case err := <-served:
			h.Close()
			return err
		case <-time.After(d):
		}
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace+shutdownMargin)
	defer cancel()
	if err := hs.Shutdown(sctx); errors.Is(err, context.DeadlineExceeded) {
		logger.Warn("mcphttp: connections still busy after the grace period; closing them", "grace", grace)
		hs.Close()
	}
	<-closed
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}
