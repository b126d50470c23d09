package main

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"os/exec"

	mcpgoclient "github.com/mark3labs/mcp-go/client"
	mcpgotransport "github.com/mark3labs/mcp-go/client/transport"
	mcpgo "github.com/mark3labs/mcp-go/mcp"
	gosdk "github.com/modelcontextprotocol/go-sdk/mcp"

	"github.com/mcpwire/mcpwire/client"
)

// target is where a client reaches the echo server: the command of a stdio
// server it starts itself, or the URL of a running Streamable HTTP server
// with the http.Client to reach it with.
type target struct {
	command []string
	url     string
	http    *http.Client
}

// session is one connected client, reduced to what the benchmark does:
// call the echo tool and check its answer.
type session interface {
	// echo calls the echo tool with args (the same map on every call) and
	// reports an error unless the answer is want as one text block.
	echo(ctx context.Context, args map[string]any, want string) error
	// revision is the protocol revision the handshake settled.
	revision() string
	close() error
}

// library is one of the three client libraries under test, a variant of
// mcpwire's, or the wire floor.
type library struct {
	name    string
	connect func(ctx context.Context, t target) (session, error)
	// floor marks the wire floor, which is no client library: it is left
	// out of "the better other" and compared on its own columns.
	floor bool
}

// libraries are the clients, in the order of the first round.
// mcpwire-nocache, measured only when -clients names it, is mcpwire with
// Options.NoCache: it shows what the 2026-07-28 response cache costs a
// call that is never cached. wire, also measured only when named, is the
// floor of wire.go: the server and the transport with no client library.
var libraries = []library{
	{name: "mcpwire", connect: connectMCPWire(nil)},
	{name: "go-sdk", connect: connectGoSDK},
	{name: "mcp-go", connect: connectMCPGo},
	{name: "mcpwire-nocache", connect: connectMCPWire(&client.Options{NoCache: true})},
	{name: "wire", connect: connectWire, floor: true},
}

// mcpwireSession is mcpwire's public client package.
type mcpwireSession struct{ c *client.Client }

// connectMCPWire returns the connect function of mcpwire's client with
// base (nil: the defaults) and no logging.
func connectMCPWire(base *client.Options) func(ctx context.Context, t target) (session, error) {
	return func(ctx context.Context, t target) (session, error) {
		var tr client.Transport = client.HTTP{URL: t.url, Client: t.http}
		if t.url == "" {
			tr = client.Stdio{Command: t.command, Stderr: io.Discard}
		}
		var opts client.Options
		if base != nil {
			opts = *base
		}
		opts.Logger = slog.New(slog.DiscardHandler)
		c, err := client.Connect(ctx, tr, &opts)
		if err != nil {
			return nil, err
		}
		return mcpwireSession{c}, nil
	}
}

func (s mcpwireSession) echo(ctx context.Context, args map[string]any, want string) error {
	r, err := s.c.CallTool(ctx, "echo", args)
	if err != nil {
		return err
	}
	if len(r.Content) != 1 || r.Content[0].Text == nil || r.Content[0].Text.Text != want {
		return fmt.Errorf("mcpwire: unexpected echo result %+v", r.Content)
	}
	return nil
}

func (s mcpwireSession) revision() string { return s.c.Info().Revision }
func (s mcpwireSession) close() error     { return s.c.Close() }

// goSDKSession is github.com/modelcontextprotocol/go-sdk's client.
type goSDKSession struct{ cs *gosdk.ClientSession }

func connectGoSDK(ctx context.Context, t target) (session, error) {
	var tr gosdk.Transport = &gosdk.StreamableClientTransport{Endpoint: t.url, HTTPClient: t.http}
	if t.url == "" {
		tr = &gosdk.CommandTransport{Command: exec.Command(t.command[0], t.command[1:]...)}
	}
	c := gosdk.NewClient(&gosdk.Implementation{Name: "clientbench", Version: "0"}, nil)
	cs, err := c.Connect(ctx, tr, nil)
	if err != nil {
		return nil, err
	}
	return goSDKSession{cs}, nil
}

func (s goSDKSession) echo(ctx context.Context, args map[string]any, want string) error {
	r, err := s.cs.CallTool(ctx, &gosdk.CallToolParams{Name: "echo", Arguments: args})
	if err != nil {
		return err
	}
	if len(r.Content) != 1 {
		return fmt.Errorf("go-sdk: unexpected echo result %+v", r.Content)
	}
	if tc, ok := r.Content[0].(*gosdk.TextContent); !ok || tc.Text != want {
		return fmt.Errorf("go-sdk: unexpected echo result %+v", r.Content[0])
	}
	return nil
}

func (s goSDKSession) revision() string { return s.cs.InitializeResult().ProtocolVersion }
func (s goSDKSession) close() error     { return s.cs.Close() }

// mcpGoSession is github.com/mark3labs/mcp-go's client.
type mcpGoSession struct {
	c   *mcpgoclient.Client
	rev string
}

func connectMCPGo(ctx context.Context, t target) (session, error) {
	var c *mcpgoclient.Client
	var err error
	if t.url == "" {
		c, err = mcpgoclient.NewStdioMCPClient(t.command[0], nil, t.command[1:]...)
	} else {
		c, err = mcpgoclient.NewStreamableHttpClient(t.url, mcpgotransport.WithHTTPBasicClient(t.http))
		if err == nil {
			err = c.Start(ctx)
		}
	}
	if err != nil {
		return nil, err
	}
	res, err := c.Initialize(ctx, mcpgo.InitializeRequest{Params: mcpgo.InitializeParams{
		ClientInfo: mcpgo.Implementation{Name: "clientbench", Version: "0"},
	}})
	if err != nil {
		c.Close()
		return nil, err
	}
	return mcpGoSession{c, res.ProtocolVersion}, nil
}

func (s mcpGoSession) echo(ctx context.Context, args map[string]any, want string) error {
	r, err := s.c.CallTool(ctx, mcpgo.CallToolRequest{Params: mcpgo.CallToolParams{Name: "echo", Arguments: args}})
	if err != nil {
		return err
	}
	if len(r.Content) != 1 {
		return fmt.Errorf("mcp-go: unexpected echo result %+v", r.Content)
	}
	if tc, ok := r.Content[0].(mcpgo.TextContent); !ok || tc.Text != want {
		return fmt.Errorf("mcp-go: unexpected echo result %+v", r.Content[0])
	}
	return nil
}

func (s mcpGoSession) revision() string { return s.rev }
func (s mcpGoSession) close() error     { return s.c.Close() }
