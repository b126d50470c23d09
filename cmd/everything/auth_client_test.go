package main

import (
	"context"
	"syscall"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/protocol"
)

// The repository's own client signs in to everything -auth dev on its own:
// told 401, it discovers the development authorization server, registers,
// is authorized (FollowRedirect, since that server approves at once),
// gets a token and calls a tool.
func TestAuthDevWithTheClient(t *testing.T) {
	cmd, endpoint := startAuthDev(t)

	flow, err := signin.New(signin.Config{RedirectURL: "http://127.0.0.1:9/callback", Authorize: signin.FollowRedirect(nil)})
	if err != nil {
		t.Fatal(err)
	}
	ctx, cancel := context.WithTimeout(context.Background(), 20*time.Second)
	defer cancel()
	c, err := client.Connect(ctx, client.HTTP{URL: endpoint, SignIn: flow}, &client.Options{
		ClientInfo: protocol.Implementation{Name: "auth-test", Version: "1"},
	})
	if err != nil {
		t.Fatalf("Connect: %v", err)
	}
	defer c.Close()
	res, err := c.CallTool(ctx, "test_simple_text", map[string]any{})
	if err != nil || (res.IsError != nil && *res.IsError) || len(res.Content) != 1 {
		t.Fatalf("CallTool: %+v, %v", res, err)
	}
	c.Close()
	cmd.Process.Signal(syscall.SIGTERM)
	awaitCleanExit(t, cmd)
}
