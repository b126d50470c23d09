package mcptest

import (
	"context"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// connectTimeout bounds the handshake in NewClient.
const connectTimeout = 10 * time.Second

// serveTimeout bounds the wait for Serve to return at cleanup (a variable
// for this package's tests).
var serveTimeout = 5 * time.Second

// Client is a test's connection to an *mcp.Server. Its methods are safe
// for concurrent use; each waits as long as its context allows, so give
// it one with a deadline (t.Context() ends with the test) to bound a
// server that never answers.
type Client struct {
	session *client.Session
}

// NewClient serves srv over an in-memory pipe and connects a client to it
// in the era the options choose (Modern unless Legacy is given). It fails
// the test at once if the handshake fails. The test's cleanup closes the
// client and then fails the test if srv.Serve does not return within five
// seconds, returns an error, or wrote anything the client could not read
// (an invalid line, a response to no request, a request in the 2026-07-28
// era).
func NewClient(t testing.TB, srv *mcp.Server, opts ...Option) *Client {
	t.Helper()
	cfg := config{era: protocol.Modern}
	for _, o := range opts {
		o(&cfg)
	}
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	stop, served := serve(srv, serverEnd)
	ctx, cancel := context.WithTimeout(context.Background(), connectTimeout)
	defer cancel()
	s, err := client.Connect(ctx, clientEnd, cfg.options())
	c := &Client{session: s}
	t.Cleanup(func() { c.close(t, stop, served) })
	if err != nil {
		t.Fatalf("mcptest: connecting to the server: %v", err)
	}
	return c
}

// close ends the session and checks how the server ended.
func (c *Client) close(t testing.TB, stop context.CancelFunc, served <-chan error) {
	t.Helper()
	defer stop()
	if c.session != nil {
		c.session.Close()
		for _, p := range c.session.Problems() {
			t.Errorf("mcptest: the server wrote what a client cannot read: %v", p)
		}
	}
	waitServe(t, "mcptest", served)
}

// Revision returns the protocol revision the client speaks: 2026-07-28,
// or the legacy revision the server negotiated.
func (c *Client) Revision() string { return c.session.Revision() }

// Call sends any request and returns its result as the server wrote it; a
// JSON-RPC error response is returned as a *jsonrpc.Error. params may be
// nil, a json.RawMessage sent as it is, or any value encoded as JSON. In
// the 2026-07-28 era the request's _meta gets the protocol version, client
// capabilities and client info where params do not set them, and an
// input_required result is answered with the options' replies and the
// request retried.
func (c *Client) Call(ctx context.Context, method string, params any) (json.RawMessage, error) {
	result, rpcErr, err := c.session.Call(ctx, method, params)
	if err != nil {
		return nil, err
	}
	if rpcErr != nil {
		return nil, rpcErr
	}
	return result, nil
}
