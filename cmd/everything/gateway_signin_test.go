package main

import (
	"context"
	"strings"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// A gateway signs in to a protected HTTP upstream (everything -auth dev)
// with Upstream.SignIn and serves its tools; without a sign-in it does
// not start, and says why.
func TestGatewaySignsInToAnUpstream(t *testing.T) {
	cmd, endpoint := startAuthDev(t)
	ctx, cancel := context.WithTimeout(context.Background(), 30*time.Second)
	defer cancel()

	if _, err := gateway.New(ctx, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "guarded", URL: endpoint}}}, nil); err == nil ||
		!strings.Contains(err.Error(), "guarded") {
		t.Errorf("a gateway in front of a protected upstream without a sign-in: %v, want an error naming it", err)
	}

	flow, err := signin.New(signin.Config{RedirectURL: "http://127.0.0.1:9/callback", Authorize: signin.FollowRedirect(nil)})
	if err != nil {
		t.Fatal(err)
	}
	g, err := gateway.New(ctx, &gateway.Config{Upstreams: []gateway.Upstream{{Name: "guarded", URL: endpoint, SignIn: flow}}}, nil)
	if err != nil {
		t.Fatalf("gateway.New with a sign-in: %v", err)
	}
	defer g.Close()
	a, b := transport.Pipe(transport.Options{})
	go g.Server().Serve(ctx, a)
	c, err := client.Connect(ctx, client.Conn{Conn: b}, &client.Options{Era: protocol.Modern})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "guarded_test_simple_text", map[string]any{})
	if err != nil || (res.IsError != nil && *res.IsError) || len(res.Content) != 1 {
		t.Fatalf("a protected upstream's tool through the gateway: %+v, %v", res, err)
	}
	c.Close()
	g.Close()
	cmd.Process.Signal(syscall.SIGTERM)
	awaitCleanExit(t, cmd)
}
