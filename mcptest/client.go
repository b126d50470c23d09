package mcptest

import (
	"context"
	"log/slog"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// connectTimeout bounds the handshake in NewClient and Check.
const connectTimeout = 10 * time.Second

// serveTimeout bounds the wait for Serve to return at cleanup (a variable
// for this package's tests).
var serveTimeout = 5 * time.Second

// NewClient serves srv over an in-memory pipe and connects a client of
// package client to it with opts, as a host would: the test calls tools,
// reads resources and gets prompts through the same gates. Nil opts, like
// the zero Options, detects the era and so speaks 2026-07-28 with an
// *mcp.Server; Options.Era and ProtocolVersion choose a legacy revision,
// and Elicit, Sample and Roots script the user's and the model's answers.
// An empty ClientInfo names the client mcptest, and a nil Logger discards
// (the findings are reported at cleanup instead). NewClient fails the test
// at once if the handshake fails.
//
// The test's cleanup closes the client and then fails the test if
// srv.Serve does not return within five seconds or returns an error, and
// once per finding of [client.Client.Findings] that a client of one's own
// server should never meet: each message the server wrote that the client
// could not read (Gate "wire": an invalid line, a response to no request,
// a request in the 2026-07-28 era), and each refusal of the Admit or
// Consume gate (a descriptor or a result that breaks a MUST of the
// specification). Refusals by Options.Admit (Rule "policy") are the test's
// own and fail nothing; warnings (a SHOULD broken) are logged with t.Logf.
func NewClient(t testing.TB, srv *mcp.Server, opts *client.Options) *client.Client {
	t.Helper()
	var o client.Options
	if opts != nil {
		o = *opts
	}
	if o.ClientInfo.Name == "" {
		o.ClientInfo = protocol.Implementation{Name: "mcptest", Version: mcpwire.Version}
	}
	if o.Logger == nil {
		o.Logger = slog.New(slog.DiscardHandler)
	}
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	stop, served := serve(srv, serverEnd)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	c, err := client.Connect(ctx, client.Conn{Conn: clientEnd}, &o)
	if err != nil {
		clientEnd.Close()
		stop()
		waitServe(t, "mcptest", served)
		t.Fatalf("mcptest: connecting to the server: %v", err)
	}
	t.Cleanup(func() { closeClient(t, c, stop, served) })
	return c
}

// closeClient closes c, checks how the server ended, and reports the
// findings of c.
func closeClient(t testing.TB, c *client.Client, stop context.CancelFunc, served <-chan error) {
	t.Helper()
	defer stop()
	c.Close()
	for _, f := range c.Findings() {
		switch {
		case f.Gate == "wire":
			t.Errorf("mcptest: the server wrote what a client cannot read: %s", f.Message)
		case f.Refused && f.Rule != "policy":
			t.Errorf("mcptest: %v", &f)
		default:
			t.Logf("mcptest: %v", &f)
		}
	}
	waitServe(t, "mcptest", served)
}
