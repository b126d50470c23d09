package client

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"sync"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/peer/cache"
	engine "github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Errors a call may return, wrapped; a JSON-RPC error response from the
// server is a *jsonrpc.Error.
var (
	// ErrClosed: the client was closed.
	ErrClosed = engine.ErrClosed
	// ErrDisconnected: the server ended the connection, or an I/O error
	// did, before answering.
	ErrDisconnected = engine.ErrDisconnected
	// ErrNoHandler: the server asked for input (elicitation, sampling,
	// roots) that no handler in Options answers.
	ErrNoHandler = engine.ErrNoHandler
	// ErrSessionExpired: the server ended the legacy HTTP session (it
	// answered 404 to the session's id). Unless Options.Reinitialize is
	// set, every later call fails too: the caller connects again, which
	// starts a new session.
	ErrSessionExpired = errors.New("client: the server ended the session")
	// ErrToolFailed: the tool ran and reported an error (isError), for
	// [CallToolAs], which has no result to return.
	ErrToolFailed = errors.New("client: the tool reported an error")
)

// endTimeout bounds the end of what is behind a connection on a failed
// Connect, whose context may be over.
const endTimeout = 10 * time.Second

// Client is a connection to one MCP server. Its methods are safe for
// concurrent use; each waits at most as long as its context allows.
type Client struct {
	cur   atomic.Pointer[live] // the session and what it runs over
	t     Transport
	opts  Options
	cache *cache.Cache // nil: no caching (legacy, or Options.NoCache)
	chain Handler      // Options.Middleware around send; nil without any

	tasks bool // the client declares the tasks extension: a tools/call may create a task

	renew  sync.Mutex // held while a new session replaces an expired one
	closed bool       // Close was called; under renew

	mu       sync.Mutex
	tools    map[string]json.RawMessage // admitted tool descriptors, by name
	refused  map[string]*Finding        // refused tools, by name: the first refusing finding
	listed   bool                       // tools were listed once
	findings []Finding                  // the latest findings, at most maxFindings
	listens  map[string]*listener       // open listen streams, by subscription id key
	roots    []protocol.Root

	closeOnce sync.Once
	closeErr  error
}

// live is a session and the transport it runs over.
type live struct {
	s    *engine.Session
	link *link
}

// sess returns the current session.
func (c *Client) sess() *engine.Session { return c.cur.Load().s }

// Connect connects to the server t reaches and settles the era (see the
// package documentation); opts may be nil. ctx bounds the connection and
// the handshake only: the client lives until Close. On failure, what
// Connect started is ended.
func Connect(ctx context.Context, t Transport, opts *Options) (*Client, error) {
	c := &Client{t: t, tools: map[string]json.RawMessage{}, refused: map[string]*Finding{}, listens: map[string]*listener{}}
	if opts != nil {
		c.opts = *opts
	}
	c.roots = append([]protocol.Root(nil), c.opts.Roots...)
	c.chain = chainOf(c.opts.Middleware)
	_, c.tasks = c.opts.capabilities().Extensions[tasksExtension]
	l, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	c.cur.Store(l)
	if !c.opts.NoCache && l.s.Era() == protocol.Modern {
		c.cache = &cache.Cache{}
	}
	return c, nil
}

// open opens the transport and starts a session over it.
func (c *Client) open(ctx context.Context) (*live, error) {
	l, err := c.t.open(ctx, &c.opts)
	if err != nil {
		return nil, err
	}
	so := c.sessionOptions()
	if l.signIn {
		so.DiscoverTimeout = -1
	}
	s, err := engine.Connect(ctx, l.conn, so)
	if err != nil {
		end(l)
		return nil, err
	}
	return &live{s: s, link: l}, nil
}

// reinitialize replaces the expired session old with a new one
// (Options.Reinitialize), unless another call has done so already, and
// returns the current one.
func (c *Client) reinitialize(ctx context.Context, old *live) (*live, error) {
	c.renew.Lock()
	defer c.renew.Unlock()
	if c.closed {
		return nil, ErrClosed
	}
	if cur := c.cur.Load(); cur != old {
		return cur, nil
	}
	l, err := c.open(ctx)
	if err != nil {
		return nil, err
	}
	c.cur.Store(l)
	old.s.Close() // its calls and listen streams fail; its DELETE gets a 404
	end(old.link)
	c.opts.logger().LogAttrs(ctx, slog.LevelInfo, "mcp client: the server ended the session; a new one started",
		slog.String("server", l.s.ServerInfo().Name))
	return l, nil
}

// sessionOptions are the engine's options from the caller's.
func (c *Client) sessionOptions() engine.Options {
	o := &c.opts
	h := engine.Handlers{Elicit: o.Elicit, Sample: o.Sample, Round: o.AnswerInputs}
	switch {
	case o.ListRoots != nil:
		h.Roots = func(ctx context.Context) (*protocol.ListRootsResult, error) {
			roots, err := o.ListRoots(ctx)
			if err != nil {
				return nil, err
			}
			return &protocol.ListRootsResult{Roots: roots}, nil
		}
	case o.Roots != nil:
		h.Roots = c.listRoots
	}
	return engine.Options{
		Era: o.Era, ProtocolVersion: o.ProtocolVersion, ClientInfo: o.ClientInfo,
		Capabilities: o.capabilities(), Handlers: h, OnNotification: c.notified,
		DiscoverTimeout: o.DiscoverTimeout, MaxInputRounds: o.MaxInputRounds,
	}
}

// end ends what is behind a connection, once its session closed it.
func end(l *link) error {
	if l.end == nil {
		return nil
	}
	ctx, cancel := context.WithTimeout(context.Background(), endTimeout)
	defer cancel()
	return l.end(ctx)
}

// Close ends the connection: open calls and listen streams fail with
// ErrClosed, a legacy HTTP session is ended with DELETE, and a stdio
// server is ended as [Stdio] describes. It is idempotent.
func (c *Client) Close() error {
	c.closeOnce.Do(func() {
		c.renew.Lock()
		c.closed = true
		cur := c.cur.Load()
		c.renew.Unlock()
		c.closeErr = cur.s.Close()
		if err := end(cur.link); c.closeErr == nil {
			c.closeErr = err
		}
	})
	return c.closeErr
}

// Info is what the handshake settled.
type Info struct {
	// Era is protocol.Legacy or protocol.Modern.
	Era protocol.Era
	// Revision is the protocol revision spoken, such as "2025-11-25" or
	// "2026-07-28".
	Revision string
	// Server is the server's serverInfo.
	Server protocol.Implementation
	// Capabilities are the server's capabilities.
	Capabilities protocol.ServerCapabilities
	// Instructions are the server's instructions; "" when none.
	Instructions string
	// Detection says how the era was settled, for logs and reports, such
	// as "server/discover got error -32601 (method not found) after 1ms;
	// initialize answered "2025-11-25": legacy "2025-11-25"".
	Detection string
}

// Info returns what the handshake settled.
func (c *Client) Info() Info {
	s := c.sess()
	return Info{
		Era: s.Era(), Revision: s.Revision(), Server: s.ServerInfo(),
		Capabilities: s.Capabilities(), Instructions: s.Instructions(), Detection: s.Detection().String(),
	}
}

// Ping checks that the server answers: ping on a legacy connection, and
// on 2026-07-28, which removed ping, server/discover (past the cache).
func (c *Client) Ping(ctx context.Context) error {
	if c.sess().Era() == protocol.Modern {
		return c.request(Fresh(ctx), protocol.MethodDiscover, nil, nil)
	}
	return c.request(ctx, protocol.MethodPing, nil, nil)
}

// Call sends any request and decodes its result into result (nil to drop
// it; a *json.RawMessage keeps it as the server wrote it). params may be
// nil, a json.RawMessage sent as it is, or any value encoded as a JSON
// object. On 2026-07-28 the request's _meta gets the protocol version,
// client capabilities and client info, and an input_required result is
// answered with the handlers and the request sent again. A JSON-RPC
// error response is returned as a *jsonrpc.Error. The gates do not apply:
// Call is the way around them.
func (c *Client) Call(ctx context.Context, method string, params, result any) error {
	return c.request(ctx, method, params, result)
}

// request sends method with params and decodes the result into out (nil:
// none), through the cache and with the progress token of ctx.
func (c *Client) request(ctx context.Context, method string, params, out any) error {
	raw, err := c.raw(ctx, method, params)
	if err != nil {
		return err
	}
	return decode(method, raw, out)
}

// raw sends method with params and returns the result as written.
func (c *Client) raw(ctx context.Context, method string, params any) (json.RawMessage, error) {
	token, f := progressOf(ctx)
	p, err := encodeParams(ctx, params, token)
	if err != nil {
		return nil, fmt.Errorf("client: %s params: %w", method, err)
	}
	if c.chain != nil {
		req := c.newRequest(method, p, false)
		req.token, req.progress = token, f
		return c.chain(ctx, req)
	}
	return c.send(ctx, method, p, token, f)
}

// send is raw past the middleware: through the cache to the server, with
// the progress token p carries and the function that hears its progress.
func (c *Client) send(ctx context.Context, method string, p, token json.RawMessage, f func(protocol.ProgressNotificationParams)) (json.RawMessage, error) {
	bypass := ctx.Value(freshKey{}) != nil
	if c.cache != nil && !bypass {
		if r, ok := c.cache.Get(method, p, ""); ok {
			return r, nil
		}
	}
	var gen uint64
	if c.cache != nil {
		gen = c.cache.Generation()
	}
	cur := c.cur.Load()
	if f != nil {
		defer cur.s.WatchProgress(token, f)()
	}
	result, rpcErr, err := cur.s.Call(ctx, method, p)
	if err != nil && cur.link.http != nil && cur.link.http.Expired() {
		err = fmt.Errorf("%w: %w", ErrSessionExpired, err)
		if c.opts.Reinitialize {
			// The server never ran the call: it refused the session.
			next, rerr := c.reinitialize(ctx, cur)
			if rerr != nil {
				return nil, fmt.Errorf("%w; starting a new session: %w", err, rerr)
			}
			if f != nil {
				defer next.s.WatchProgress(token, f)()
			}
			result, rpcErr, err = next.s.Call(ctx, method, p)
		}
	}
	if err != nil {
		return nil, inputRound(err)
	}
	if rpcErr != nil {
		return nil, rpcErr
	}
	if c.cache != nil {
		c.cache.PutSince(gen, method, p, "", result) // not when a change was told of meanwhile
	}
	return result, nil
}

// decode decodes a result into out, if any.
func decode(method string, raw json.RawMessage, out any) error {
	if out == nil {
		return nil
	}
	if r, ok := out.(*json.RawMessage); ok {
		*r = raw
		return nil
	}
	if err := json.Unmarshal(raw, out); err != nil {
		return fmt.Errorf("client: the %s result does not decode: %w", method, err)
	}
	return nil
}

// freshKey marks a context of Fresh.
type freshKey struct{}

// Fresh returns a context whose calls skip the response cache: they go to
// the server, and what it answers replaces what was kept.
func Fresh(ctx context.Context) context.Context { return context.WithValue(ctx, freshKey{}, true) }

// listRoots answers roots/list with the current roots.
func (c *Client) listRoots(context.Context) (*protocol.ListRootsResult, error) {
	c.mu.Lock()
	defer c.mu.Unlock()
	return &protocol.ListRootsResult{Roots: append(protocol.List[protocol.Root]{}, c.roots...)}, nil
}

// SetRoots replaces the client's roots and, on a legacy connection, tells
// the server with notifications/roots/list_changed (a 2026-07-28 server
// asks for the roots when it needs them). It fails when Options.Roots was
// nil: the client declared no roots.
func (c *Client) SetRoots(ctx context.Context, roots []protocol.Root) error {
	if c.opts.Roots == nil {
		return errors.New("client: SetRoots needs Options.Roots: the client declared no roots")
	}
	c.mu.Lock()
	c.roots = append([]protocol.Root(nil), roots...)
	c.mu.Unlock()
	if c.sess().Era() == protocol.Modern {
		return nil
	}
	if c.chain != nil {
		_, err := c.chain(ctx, c.newRequest(protocol.NotificationRootsListChanged, nil, true))
		return err
	}
	return c.sess().Notify(ctx, protocol.NotificationRootsListChanged, nil)
}

// notified routes a notification from the server: to the cache it makes
// stale, to the listen stream it belongs to, else to
// Options.OnNotification.
func (c *Client) notified(n *jsonrpc.Notification) {
	if c.cache != nil {
		c.cache.Notify(n.Method, n.Params)
	}
	if n.Method == protocol.NotificationToolListChanged {
		c.mu.Lock()
		c.listed = false
		c.mu.Unlock()
	}
	if c.toListener(n) {
		return
	}
	if f := c.opts.OnNotification; f != nil {
		f(n)
	}
}
