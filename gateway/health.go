package gateway

import (
	"context"
	"slices"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"

	json "github.com/goccy/go-json"
)

// Reconnection backoff: from the first pause, doubling, to the last.
const (
	firstBackoff = 250 * time.Millisecond
	lastBackoff  = 30 * time.Second
)

// supervise keeps the upstream served until ctx ends: it follows the
// upstream's lists and resources (list-changed and resource updates
// relayed to the gateway's clients) and pings it every health interval. When it stops answering (its connection ended, a ping failed
// or timed out), its tools are withdrawn (the gateway's clients are told)
// and it is reached again with a growing pause, a stdio one by starting
// its command again; when it answers, its tools are back.
func (up *upstream) supervise(ctx context.Context) {
	defer close(up.done)
	for ctx.Err() == nil {
		if up.follow(ctx) || ctx.Err() != nil {
			continue
		}
		up.withdraw()
		up.reconnect(ctx)
	}
}

// follow runs until the connection looks dead, ctx ends or the resources
// to follow changed, and reports whether the upstream still answers.
func (up *upstream) follow(ctx context.Context) bool {
	fctx, cancel := context.WithCancel(ctx)
	defer cancel()
	pinged := make(chan bool, 1)
	go func() {
		t := time.NewTicker(up.g.health)
		defer t.Stop()
		for {
			select {
			case <-fctx.Done():
				pinged <- true
				return
			case <-t.C:
				if !up.answers(fctx) {
					pinged <- false
					cancel()
					return
				}
			}
		}
	}()
	if filter, ok := up.followed(); ok {
		up.listen(fctx, filter)
	} else {
		<-fctx.Done()
	}
	cancel()
	if ok := <-pinged; !ok || ctx.Err() != nil {
		return false
	}
	// The stream ended by itself: the upstream may have gone with it.
	return up.answers(ctx)
}

// followed is what to follow of the upstream: the list changes it
// announces and every resource it lets a client subscribe to.
func (up *upstream) followed() (protocol.SubscriptionFilter, bool) {
	caps := up.client().Info().Capabilities
	on := true
	var f protocol.SubscriptionFilter
	if caps.Tools != nil {
		f.ToolsListChanged = &on
	}
	if caps.Prompts != nil && caps.Prompts.ListChanged != nil && *caps.Prompts.ListChanged {
		f.PromptsListChanged = &on
	}
	if r := caps.Resources; r != nil {
		if r.ListChanged != nil && *r.ListChanged {
			f.ResourcesListChanged = &on
		}
		if r.Subscribe != nil && *r.Subscribe {
			up.mu.Lock()
			for uri := range up.resources {
				f.ResourceSubscriptions = append(f.ResourceSubscriptions, uri)
			}
			up.mu.Unlock()
			slices.Sort(f.ResourceSubscriptions)
		}
	}
	return f, f.ToolsListChanged != nil || f.PromptsListChanged != nil || f.ResourcesListChanged != nil || len(f.ResourceSubscriptions) > 0
}

// listen follows filter until the stream ends, or the resources to follow
// changed (follow starts again with the new ones).
func (up *upstream) listen(ctx context.Context, filter protocol.SubscriptionFilter) {
	sync := func(what string, f func(context.Context) error) {
		if err := f(ctx); err != nil && ctx.Err() == nil {
			up.g.log.Warn("gateway: syncing an upstream's "+what, "upstream", up.cfg.Name, "error", err.Error())
		}
	}
	for n, err := range up.client().Listen(ctx, filter) {
		if err != nil {
			return
		}
		switch n.Method {
		case protocol.NotificationSubscriptionsAcknowledged:
			// A change made before the stream was open is caught by a
			// sync once it is.
			if filter.ToolsListChanged != nil {
				sync("tools", up.syncTools)
			}
			if filter.PromptsListChanged != nil {
				sync("prompts", up.syncPrompts)
			}
			if filter.ResourcesListChanged != nil && up.resourcesMoved(filter, sync) {
				return
			}
		case protocol.NotificationToolListChanged:
			sync("tools", up.syncTools)
		case protocol.NotificationPromptListChanged:
			sync("prompts", up.syncPrompts)
		case protocol.NotificationResourceListChanged:
			if up.resourcesMoved(filter, sync) {
				return
			}
		case protocol.NotificationResourceUpdated:
			var p protocol.ResourceUpdatedNotificationParams
			if json.Unmarshal(n.Params, &p) == nil && p.URI != "" {
				up.g.srv.ResourceUpdated(p.URI)
			}
		}
	}
}

// resourcesMoved syncs the upstream's resources and reports whether the
// ones to subscribe to are no longer filter's.
func (up *upstream) resourcesMoved(filter protocol.SubscriptionFilter, sync func(string, func(context.Context) error)) bool {
	sync("resources", up.syncResources)
	after, _ := up.followed()
	return !slices.Equal(after.ResourceSubscriptions, filter.ResourceSubscriptions)
}

// answers pings the upstream, bounded by the health interval (at least a
// second).
func (up *upstream) answers(ctx context.Context) bool {
	pctx, cancel := context.WithTimeout(ctx, max(up.g.health, time.Second))
	defer cancel()
	return up.client().Ping(pctx) == nil
}

// withdraw takes the upstream's tools out of the gateway's lists while it
// is down; their names stay its own.
func (up *upstream) withdraw() {
	up.down.Store(true)
	up.mu.Lock()
	for name := range up.tools {
		up.g.srv.RemoveTool(name)
	}
	up.mu.Unlock()
	up.g.log.Warn("gateway: an upstream stopped answering; its tools are withdrawn until it answers again", "upstream", up.cfg.Name)
}

// reconnect reaches the upstream again, with a growing pause, until it
// answers and its tools are back, or ctx ends.
func (up *upstream) reconnect(ctx context.Context) {
	pause := firstBackoff
	for {
		select {
		case <-ctx.Done():
			return
		case <-time.After(pause):
		}
		pause = min(2*pause, lastBackoff)
		old := up.conn.Load()
		cctx, cancel := context.WithTimeout(ctx, lastBackoff)
		err := up.connect(cctx)
		if err == nil {
			old.close()
			up.mu.Lock()
			withdrawn := up.tools
			up.tools = nil
			for name := range withdrawn {
				up.names.release("tool", name)
			}
			up.mu.Unlock()
			// Up before its tools are listed again: a client that sees one
			// listed may call it.
			up.down.Store(false)
			if err = up.syncTools(cctx); err != nil {
				up.withdraw()
			}
		}
		cancel()
		if err == nil {
			up.g.log.Info("gateway: an upstream answers again", "upstream", up.cfg.Name)
			return
		}
		up.g.log.Warn("gateway: reaching an upstream again", "upstream", up.cfg.Name, "error", err.Error(), "retry in", pause.String())
	}
}

// downGuard answers a call of a tool whose upstream is down with -32603,
// data.reason "upstream_down", naming it, instead of "unknown tool".
func (g *Gateway) downGuard(next mcp.Handler) mcp.Handler {
	return func(ctx context.Context, req *mcp.Request) (json.RawMessage, error) {
		if req.Method == protocol.MethodCallTool {
			for _, up := range g.ups {
				if up.down.Load() && up.owns(req.Target) {
					return nil, jsonrpc.NewError(jsonrpc.CodeInternalError,
						"upstream %q is down: its tools are back when it answers again", up.cfg.Name).
						WithData(map[string]string{"reason": "upstream_down", "upstream": up.cfg.Name})
				}
			}
		}
		return next(ctx, req)
	}
}

// owns reports whether name is one of the upstream's tools.
func (up *upstream) owns(name string) bool {
	up.mu.Lock()
	defer up.mu.Unlock()
	_, ok := up.tools[name]
	return ok
}
