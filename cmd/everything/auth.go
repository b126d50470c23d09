package main

import (
	"context"
	"errors"
	"fmt"
	"net"
	"net/http"
	"os"
	"os/signal"
	"syscall"
	"time"

	"github.com/mcpwire/mcpwire/jwtauth"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/oauth"
)

// authDev is the -auth value that protects the endpoint with a development
// authorization server (jwtauth.DevIssuer) started in the process.
const authDev = "dev"

// serveProtected is serveHTTP with the endpoint an OAuth 2.1 resource
// server (-auth dev): it starts a jwtauth.DevIssuer on a loopback port,
// logs its URL to stderr, and serves srv at http://addr/mcp behind
// oauth.ResourceServer, the Protected Resource Metadata beside it, every
// request needing a token of that issuer whose audience is the endpoint.
// The issuer approves every authorization request: it is for development
// and tests only. It returns nil on a clean stop (SIGINT or SIGTERM).
func serveProtected(ctx context.Context, srv *mcp.Server, addr string, grace time.Duration, opts *mcphttp.Options) error {
	if err := srv.AddTool(reconnectionTool()); err != nil {
		return err
	}
	ctx, stop := signal.NotifyContext(ctx, os.Interrupt, syscall.SIGTERM)
	defer stop()
	go func() { <-ctx.Done(); stop() }() // a second signal kills the process as usual

	ln, err := net.Listen("tcp", addr)
	if err != nil {
		return err
	}
	defer ln.Close()
	resource := "http://" + ln.Addr().String() + "/mcp"
	issuer, err := jwtauth.StartDevIssuer()
	if err != nil {
		return err
	}
	defer issuer.Close()
	mux, h, err := protectedMux(srv, issuer, resource, opts)
	if err != nil {
		return err
	}
	fmt.Fprintf(os.Stderr, "everything: development authorization server (approves every request, for development only) at %s\n", issuer.Issuer())
	fmt.Fprintf(os.Stderr, "everything: listening on %s\n", resource)

	hs := &http.Server{Handler: mux, ReadHeaderTimeout: 10 * time.Second, IdleTimeout: 2 * time.Minute, MaxHeaderBytes: 64 << 10}
	closed := make(chan struct{})
	hs.RegisterOnShutdown(func() { h.Close(); close(closed) })
	served := make(chan error, 1)
	go func() { served <- hs.Serve(ln) }()
	select {
	case err := <-served:
		h.Close()
		return err
	case <-ctx.Done():
	}
	sctx, cancel := context.WithTimeout(context.Background(), grace+500*time.Millisecond)
	defer cancel()
	if err := hs.Shutdown(sctx); errors.Is(err, context.DeadlineExceeded) {
		hs.Close()
	}
	<-closed
	if err := <-served; !errors.Is(err, http.ErrServerClosed) {
		return err
	}
	return nil
}

// protectedMux builds the mux of serveProtected: srv's handler at
// resource's path behind a resource server that accepts issuer's tokens
// for resource, the metadata document, and the health checks.
func protectedMux(srv *mcp.Server, issuer *jwtauth.DevIssuer, resource string, opts *mcphttp.Options) (*http.ServeMux, *mcphttp.Handler, error) {
	v, err := jwtauth.New(jwtauth.Config{Issuer: issuer.Issuer(), Audience: resource, RequireATJWT: true, Logger: opts.Logger})
	if err != nil {
		return nil, nil, err
	}
	rs, err := oauth.NewResourceServer(v, oauth.Options{
		Resource: resource, AuthorizationServers: []string{issuer.Issuer()},
		ResourceName: "mcpwire everything server", Logger: opts.Logger,
	})
	if err != nil {
		return nil, nil, err
	}
	h := mcphttp.NewHandler(srv, opts)
	mux := http.NewServeMux()
	rs.Mount(mux, h)
	mux.Handle("/livez", h.LiveHandler())
	mux.Handle("/readyz", h.ReadyHandler())
	return mux, h, nil
}
