package main

import (
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strconv"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// errStepsFailed: some steps of the plan got no answer.
var errStepsFailed = errors.New("agent: some steps failed")

// server is one connected server.
type server struct {
	name    string // from its serverInfo, made unique
	c       *client.Client
	tools   []*protocol.Tool // what the Admit gate let through
	refused []string         // the names of the tools it refused
}

// agent is the connected servers and where to write what happens.
type agent struct {
	out         io.Writer
	servers     []*server // in command-line order
	byName      map[string]*server
	stepTimeout time.Duration
}

// connectAll connects to every target in order; on a failure it closes
// those already connected.
func connectAll(ctx context.Context, cfg *config, out io.Writer) (*agent, error) {
	out = &lockedWriter{w: out} // handlers write from the clients' goroutines
	a := &agent{out: out, byName: map[string]*server{}, stepTimeout: cfg.stepTimeout}
	for _, t := range cfg.targets {
		s := &server{}
		opts := &client.Options{
			Admit:  admitPolicy(cfg.allowDestructive),
			Elicit: decline(out, s),
			Logger: slog.New(slog.DiscardHandler), // the agent prints the findings itself
		}
		cctx, cancel := context.WithTimeout(ctx, cfg.connectTimeout)
		c, err := client.Connect(cctx, t.transport, opts)
		cancel()
		if err != nil {
			a.close()
			return nil, fmt.Errorf("connecting to %s: %w", t.label, err)
		}
		info := c.Info()
		s.c, s.name = c, a.uniqueName(info.Server.Name)
		a.servers = append(a.servers, s)
		a.byName[s.name] = s
		fmt.Fprintf(out, "connected: %s (%s %s) over %s\n", s.name, info.Era, info.Revision, t.label)
	}
	return a, nil
}

// uniqueName returns name, or name-2, name-3... when it is taken.
func (a *agent) uniqueName(name string) string {
	if name == "" {
		name = "server"
	}
	for i, n := 2, name; ; i++ {
		if a.byName[n] == nil {
			return n
		}
		n = name + "-" + strconv.Itoa(i)
	}
}

// close closes every client, the last connected first.
func (a *agent) close() {
	for i := len(a.servers) - 1; i >= 0; i-- {
		a.servers[i].c.Close()
	}
}

// admitPolicy is the agent's Admit policy: it refuses a tool that may be
// destructive unless allow.
func admitPolicy(allow bool) func(protocol.Implementation, *protocol.Tool) error {
	return func(_ protocol.Implementation, t *protocol.Tool) error {
		if allow || !mayDestroy(t) {
			return nil
		}
		return errors.New("it may be destructive (pass --allow-destructive to admit it)")
	}
}

// mayDestroy reports whether a tool's hints allow it to be destructive,
// with the specification's defaults (Tools, Tool annotations):
// readOnlyHint false and destructiveHint true when absent.
func mayDestroy(t *protocol.Tool) bool {
	a := t.Annotations
	if a == nil {
		return true
	}
	if a.ReadOnlyHint != nil && *a.ReadOnlyHint {
		return false
	}
	return a.DestructiveHint == nil || *a.DestructiveHint
}

// decline is the agent's elicitation handler: it has no user to ask, so
// it says what the server asked and declines.
func decline(out io.Writer, s *server) func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
	return func(_ context.Context, p *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
		msg := ""
		switch {
		case p.Form != nil:
			msg = p.Form.Message
		case p.URL != nil:
			msg = p.URL.Message
		}
		fmt.Fprintf(out, "  %s asks: %q: declined\n", s.name, msg)
		return &protocol.ElicitResult{Action: protocol.ElicitDecline}, nil
	}
}
