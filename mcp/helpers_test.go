package mcp_test

import (
	"context"
	"io"
	"log/slog"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// client drives a server over an in-memory pipe at the message level.
type client struct {
	t     *testing.T
	conn  *transport.Stream
	done  chan error
	srv   *mcp.Server
	notes []*jsonrpc.Notification // notifications seen while waiting
}

// start serves srv over a pipe and checks, at the end of the test, that
// Serve returned nil and that no goroutine is left behind once every
// server the test started has stopped (leakcheck.CheckAtEnd).
func start(t *testing.T, srv *mcp.Server) *client {
	t.Helper()
	leakcheck.CheckAtEnd(t)
	serverSide, clientSide := transport.Pipe(transport.Options{})
	c := &client{t: t, conn: clientSide, done: make(chan error, 1), srv: srv}
	go func() { c.done <- srv.Serve(context.Background(), serverSide) }()
	t.Cleanup(func() {
		c.conn.Close()
		select {
		case err := <-c.done:
			if err != nil {
				t.Errorf("Serve: %v", err)
			}
		case <-time.After(5 * time.Second):
			t.Errorf("Serve did not return")
		}
	})
	return c
}

func newServer(t testing.TB, opts *mcp.Options, tools ...tool.Tool) *mcp.Server {
	t.Helper()
	if opts == nil {
		opts = &mcp.Options{}
	}
	if opts.Logger == nil {
		opts.Logger = slog.New(slog.NewTextHandler(io.Discard, nil))
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, opts)
	for _, tl := range tools {
		if err := srv.AddTool(tl); err != nil {
			t.Fatal(err)
		}
	}
	return srv
}

func (c *client) send(m jsonrpc.Message) {
	c.t.Helper()
	if err := c.conn.Write(context.Background(), m); err != nil {
		c.t.Fatal(err)
	}
}

// request sends a request and returns its response, keeping notifications.
func (c *client) request(id jsonrpc.ID, method string, params any) *jsonrpc.Response {
	c.t.Helper()
	var raw json.RawMessage
	if params != nil {
		var err error
		if raw, err = json.Marshal(params); err != nil {
			c.t.Fatal(err)
		}
	}
	c.send(&jsonrpc.Request{ID: id, Method: method, Params: raw})
	return c.await(id)
}

// await reads until the response with id arrives.
func (c *client) await(id jsonrpc.ID) *jsonrpc.Response {
	c.t.Helper()
	for {
		m := c.next(5 * time.Second)
		switch m := m.(type) {
		case *jsonrpc.Response:
			if m.ID.Key() == id.Key() {
				return m
			}
			c.t.Fatalf("response for %s while waiting for %s", m.ID, id)
		case *jsonrpc.Notification:
			c.notes = append(c.notes, m)
		}
	}
}

// next reads one message or fails the test after timeout.
func (c *client) next(timeout time.Duration) jsonrpc.Message {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), timeout)
	defer cancel()
	m, err := c.conn.Read(ctx)
	if err != nil {
		c.t.Fatalf("read: %v", err)
	}
	return m
}

// quiet asserts that nothing arrives for d.
func (c *client) quiet(d time.Duration) {
	c.t.Helper()
	ctx, cancel := context.WithTimeout(context.Background(), d)
	defer cancel()
	if m, err := c.conn.Read(ctx); err == nil {
		b, _ := jsonrpc.Marshal(m)
		c.t.Fatalf("unexpected message: %s", b)
	}
}

func (c *client) initialize(version string) {
	c.t.Helper()
	r := c.request(jsonrpc.StringID("init"), "initialize", map[string]any{
		"protocolVersion": version, "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"},
	})
	if r.Error != nil {
		c.t.Fatalf("initialize: %v", r.Error)
	}
	c.send(&jsonrpc.Notification{Method: "notifications/initialized"})
}

// modernMeta is a valid 2026-07-28 _meta, with extra keys merged in.
func modernMeta(extra map[string]any) map[string]any {
	m := map[string]any{
		protocol.MetaProtocolVersion:    "2026-07-28",
		protocol.MetaClientCapabilities: map[string]any{},
		protocol.MetaClientInfo:         map[string]any{"name": "t", "version": "1"},
	}
	for k, v := range extra {
		m[k] = v
	}
	return m
}

// result decodes a success response's result.
func result(t *testing.T, r *jsonrpc.Response) map[string]any {
	t.Helper()
	if r.Error != nil {
		t.Fatalf("unexpected error %d: %s", r.Error.Code, r.Error.Message)
	}
	var m map[string]any
	if err := json.Unmarshal(r.Result, &m); err != nil {
		t.Fatal(err)
	}
	return m
}

// rawTool returns a tool with a raw handler.
func rawTool(name string, h tool.Handler) tool.Tool {
	return tool.Tool{Name: name, Description: name, InputSchema: json.RawMessage(`{"type":"object"}`), Handler: h}
}

// startBench serves srv over a pipe for a benchmark and returns the client
// end; the server stops when the benchmark ends.
func startBench(b *testing.B, srv *mcp.Server) *transport.Stream {
	serverSide, clientSide := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), serverSide) }()
	b.Cleanup(func() { clientSide.Close(); <-done })
	init := json.RawMessage(`{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"b","version":"1"}}`)
	clientSide.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(0), Method: "initialize", Params: init})
	if _, err := clientSide.Read(context.Background()); err != nil {
		b.Fatal(err)
	}
	return clientSide
}

// initializeWith initializes with the given client capabilities.
func (c *client) initializeWith(version string, caps map[string]any) {
	c.t.Helper()
	r := c.request(jsonrpc.StringID("init"), "initialize", map[string]any{
		"protocolVersion": version, "capabilities": caps, "clientInfo": map[string]any{"name": "t", "version": "1"},
	})
	if r.Error != nil {
		c.t.Fatalf("initialize: %v", r.Error)
	}
	c.send(&jsonrpc.Notification{Method: "notifications/initialized"})
}

// send2 sends a request and awaits its response.
func (c *client) send2(req *jsonrpc.Request) *jsonrpc.Response {
	c.t.Helper()
	c.send(req)
	return c.await(req.ID)
}
