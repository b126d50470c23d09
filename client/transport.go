package client

import (
	"context"
	"errors"
	"io"
	"net/http"
	"time"

	"github.com/mcpwire/mcpwire/client/signin"
	"github.com/mcpwire/mcpwire/internal/peer/httpconn"
	"github.com/mcpwire/mcpwire/internal/peer/proc"
	"github.com/mcpwire/mcpwire/transport"
)

// Transport is how a Client reaches its server: [Stdio], [HTTP] or
// [Conn].
type Transport interface {
	open(ctx context.Context, o *Options) (*link, error)
}

// link is an open transport: the connection and how to end what is behind
// it once the connection is closed.
type link struct {
	conn transport.Conn
	http *httpconn.Conn // nil unless over HTTP
	// signIn: a sign-in may come before the first answer, so that the
	// era's probe is bounded only by the caller's context.
	signIn bool
	end    func(ctx context.Context) error // nil: nothing beyond the connection
}

// Stdio starts the server as a subprocess and speaks to it over its stdin
// and stdout, as hosts do (the specification's stdio transport). Close ends
// it the way hosts end servers: it closes the server's stdin and waits,
// then sends SIGTERM and waits, then kills it, each wait at most Grace.
type Stdio struct {
	// Command is the program and its arguments; required.
	Command []string
	// Env is the server's environment; nil gives it the client's.
	Env []string
	// Dir is the server's working directory; "" is the client's.
	Dir string
	// Stderr receives what the server writes to its stderr. Nil logs each
	// line through Options.Logger at level Info (lines are clipped).
	Stderr io.Writer
	// Grace is how long Close waits after each step of ending the server
	// (default 2 s).
	Grace time.Duration
}

func (s Stdio) open(ctx context.Context, o *Options) (*link, error) {
	if len(s.Command) == 0 || s.Command[0] == "" {
		return nil, errors.New("client: Stdio needs a Command")
	}
	stderr := s.Stderr
	if stderr == nil {
		stderr = newLineLogger(o.logger(), s.Command[0])
	}
	p, err := proc.Start(s.Command, proc.Options{Env: s.Env, Dir: s.Dir, Stderr: stderr, Grace: s.Grace})
	if err != nil {
		return nil, err
	}
	conn := transport.NewStream(p.Stdout(), p.Stdin(), transport.Options{MaxMessageBytes: o.MaxMessageBytes})
	return &link{conn: conn, end: func(ctx context.Context) error {
		switch p.Stop(ctx) {
		case proc.Running:
			return context.Cause(ctx)
		default:
			return nil
		}
	}}, nil
}

// HTTP speaks Streamable HTTP to the endpoint at URL, in either era: a
// legacy session (Mcp-Session-Id, the GET stream of the server's own
// messages, Last-Event-ID resumption after the server's retry, DELETE on
// Close) or 2026-07-28's stateless POSTs with the mirrored MCP-Protocol-
// Version, Mcp-Method, Mcp-Name and Mcp-Param-* headers.
type HTTP struct {
	// URL is the MCP endpoint; required.
	URL string
	// Client sends every request. Nil: a client of the connection's own
	// that follows only 307 and 308 redirects (which keep the method and
	// the body).
	Client *http.Client
	// Header is added to every request, such as Authorization. It is
	// never logged.
	Header http.Header
	// SignIn, when set, signs in to the server when it asks (401, or 403
	// for more scope), following the MCP authorization specification,
	// and sends the token with every request to the endpoint's origin.
	SignIn *signin.Flow
}

func (h HTTP) open(ctx context.Context, o *Options) (*link, error) {
	opts := httpconn.Options{
		Client: h.Client, Header: h.Header, MaxMessageBytes: o.MaxMessageBytes,
		ExcludeInvalidTools: !o.Lenient, Named: o.named(),
	}
	if h.SignIn != nil {
		if _, err := h.SignIn.Wrap(h.URL, nil); err != nil {
			return nil, err
		}
		opts.Wrap = func(base http.RoundTripper) http.RoundTripper {
			rt, _ := h.SignIn.Wrap(h.URL, base)
			return rt
		}
	}
	c, err := httpconn.New(h.URL, opts)
	if err != nil {
		return nil, err
	}
	return &link{conn: c, http: c, signIn: h.SignIn != nil}, nil
}

// Conn speaks over a connection the caller made, such as one end of
// transport.Pipe with an *mcp.Server serving the other. Close closes it.
type Conn struct {
	// Conn is the connection; required.
	Conn transport.Conn
}

func (c Conn) open(context.Context, *Options) (*link, error) {
	if c.Conn == nil {
		return nil, errors.New("client: Conn needs a Conn")
	}
	return &link{conn: c.Conn}, nil
}
