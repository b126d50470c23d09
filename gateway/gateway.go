package gateway

import (
	"context"
	"errors"
	"fmt"
	"log/slog"
	"net/http"
	"os"
	"sort"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// Options configure a Gateway beyond its Config.
type Options struct {
	// Server are the options of the server the gateway serves with
	// (middleware, limits, logger, ...); nil is the defaults.
	Server *mcp.Options
	// Logger gets the gateway's own logs (nil: slog.Default()); upstreams'
	// stderr lines go to it too.
	Logger *slog.Logger
	// Info names the gateway to its clients (default mcpwire-gateway).
	Info mcp.Implementation
	// HealthInterval is how often each upstream is pinged (default 5 s);
	// one that does not answer within it (at least a second) is down.
	HealthInterval time.Duration
}

// Gateway serves several MCP servers as one: an mcp.Server whose tools,
// prompts, resources and resource templates are its upstreams', their
// tools and prompts namespaced by upstream (files_read), their resources
// under their own URIs. A call goes to the upstream that listed what it
// names, through a client (package client) with its gates on: what an
// upstream sends is checked before the gateway serves it, and what the
// gateway serves passes the server's own contract checks.
type Gateway struct {
	srv    *mcp.Server
	log    *slog.Logger
	ups    []*upstream
	health time.Duration

	life    context.Context // ends at Close: every relayed call's
	endLife context.CancelFunc
	mu      sync.Mutex
	parked  map[string]*relayed // relayed calls waiting for their caller's next round

	jobs    chan func()  // relayed calls for the idle workers (see work)
	workers atomic.Int32 // the workers kept
}

// New connects to every upstream of cfg, lists what each serves, and
// builds the gateway's server. A name two upstreams give after
// namespacing (or a resource URI two list, unless one excludes it) is an
// error naming both, as is an upstream that cannot be reached: a gateway
// starts whole or not at all. ctx bounds the start.
func New(ctx context.Context, cfg *Config, opts *Options) (*Gateway, error) {
	if err := cfg.Check(); err != nil {
		return nil, err
	}
	if opts == nil {
		opts = &Options{}
	}
	g := &Gateway{log: opts.Logger, health: opts.HealthInterval}
	g.life, g.endLife = context.WithCancel(context.Background())
	g.jobs = make(chan func())
	if g.health <= 0 {
		g.health = 5 * time.Second
	}
	if g.log == nil {
		g.log = slog.Default()
	}
	so := mcp.Options{}
	if opts.Server != nil {
		so = *opts.Server
	}
	if so.Logger == nil {
		so.Logger = g.log
	}
	if so.PageSize == 0 {
		so.PageSize = cfg.PageSize
	}
	so.DynamicTools, so.DynamicResources, so.DynamicPrompts = true, true, true
	so.Middleware = append(append([]mcp.Middleware(nil), so.Middleware...), g.downGuard) // after the caller's policy
	info := opts.Info
	if info.Name == "" {
		info = mcp.Implementation{Name: "mcpwire-gateway", Title: "mcpwire gateway", Description: "MCP servers served as one."}
	}
	g.srv = mcp.NewServer(info, &so)

	owners := &names{owner: map[string]string{}}
	for _, u := range cfg.Upstreams {
		if cc := u.ClientCredentials; cc != nil {
			flow, err := cc.flow(g.log.With("upstream", u.Name))
			if err != nil {
				g.Close()
				return nil, fmt.Errorf("gateway: upstream %q: %w", u.Name, err)
			}
			u.SignIn = flow // one flow for every connection: its token outlives a reconnection
		}
		up := &upstream{g: g, cfg: u, sep: cfg.separator(), flat: cfg.NoNamespace, names: owners}
		g.ups = append(g.ups, up)
		if err := up.connect(ctx); err != nil {
			g.Close()
			return nil, fmt.Errorf("gateway: upstream %q: %w", u.Name, err)
		}
		if err := up.mirror(ctx); err != nil {
			g.Close()
			return nil, fmt.Errorf("gateway: upstream %q: %w", u.Name, err)
		}
	}
	return g, nil
}

// Server is the gateway's server: serve it over stdio (mcp.RunStdio) or
// HTTP (package mcphttp), as any other.
func (g *Gateway) Server() *mcp.Server { return g.srv }

// Close disconnects from every upstream (ending the stdio ones) and
// closes the server.
func (g *Gateway) Close() error {
	var errs []error
	g.endLife()
	for _, up := range g.ups {
		errs = append(errs, up.close())
	}
	errs = append(errs, g.srv.Close())
	return errors.Join(errs...)
}

// names records who serves each name, for the start-up collision check.
type names struct {
	mu    sync.Mutex
	owner map[string]string // "tool files_read" -> "files"
}

// claim takes name of kind for upstream, or reports who has it.
func (n *names) claim(kind, name, upstream string) error {
	n.mu.Lock()
	defer n.mu.Unlock()
	key := kind + " " + name
	if o, ok := n.owner[key]; ok && o != upstream {
		return fmt.Errorf("%s %q is served by both %q and %q", kind, name, o, upstream)
	}
	n.owner[key] = upstream
	return nil
}

// release gives name back.
func (n *names) release(kind, name string) {
	n.mu.Lock()
	defer n.mu.Unlock()
	delete(n.owner, kind+" "+name)
}

// transportOf is how the gateway reaches u.
func (up *upstream) transportOf() (client.Transport, func(), error) {
	u := up.cfg
	switch {
	case u.Server != nil && (u.ProtocolVersion == "" || protocol.EraOfVersion(u.ProtocolVersion) == protocol.Modern):
		l := newLocal(u.Server)
		return client.Conn{Conn: l}, func() { l.Close() }, nil
	case u.Server != nil:
		a, b := transport.Pipe(transport.Options{})
		ctx, cancel := context.WithCancel(context.Background())
		done := make(chan struct{})
		go func() {
			defer close(done)
			u.Server.Serve(ctx, a)
		}()
		return client.Conn{Conn: b}, func() { cancel(); <-done }, nil
	case u.URL != "":
		h := http.Header{}
		for k, v := range u.Headers {
			h.Set(k, v)
		}
		return client.HTTP{URL: u.URL, Header: h, SignIn: u.SignIn}, func() {}, nil
	}
	env := os.Environ()
	keys := make([]string, 0, len(u.Env))
	for k := range u.Env {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		env = append(env, k+"="+u.Env[k])
	}
	return client.Stdio{Command: u.Command, Env: env}, func() {}, nil
}
