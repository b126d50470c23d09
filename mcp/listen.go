package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/internal/callerkey"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// subscription is one open subscriptions/listen stream and the filters it
// asked for that the server honours.
type subscription struct {
	call      *call
	tools     bool                // toolsListChanged
	resources bool                // resourcesListChanged
	prompts   bool                // promptsListChanged
	uris      map[string]bool     // resourceSubscriptions
	tasks     map[string]bool     // taskIds (the tasks extension)
	owner     string              // the caller's subject: whose tasks it may follow
	caller    string              // the caller key it counts against on a shared endpoint (see admitListen)
	principal *auth.Principal     // who opened it (for the middleware)
	rev       protocol.Revision   // the revision it was opened in
	told      map[string]taskSeen // the last state of each task sent, guarded by the session's subsMu
}

// subscriptionMeta is the _meta that tags every message of a stream.
func subscriptionMeta(id jsonrpc.ID) *protocol.NotificationMeta {
	return &protocol.NotificationMeta{SubscriptionID: id}
}

// handleListen serves subscriptions/listen: it acknowledges the subset of
// the filter this server honours (toolsListChanged when tools are served,
// resourcesListChanged and promptsListChanged when resources and prompts
// are, the resourceSubscriptions
// that name a registered resource or match a template, and the taskIds of
// the caller's tasks), then streams the
// matching notifications until the client cancels the request or the
// server shuts down, when it ends with the graceful result.
func handleListen(ctx context.Context, ss *session, c *call, r *request, p *protocol.SubscriptionsListenRequestParams) (any, error) {
	if r.params.Get("notifications") == nil {
		return nil, invalidParams(`subscriptions/listen needs a "notifications" object`)
	}
	taskIDs, err := ss.srv.listenTasks(ctx, r)
	if err != nil {
		return nil, err
	}
	asked := p.Notifications
	var honoured protocol.SubscriptionFilter
	caps := ss.srv.capabilities(r.rev)
	if asked.ToolsListChanged != nil && *asked.ToolsListChanged && caps.Tools != nil {
		honoured.ToolsListChanged = asked.ToolsListChanged
	}
	if asked.ResourcesListChanged != nil && *asked.ResourcesListChanged && caps.Resources != nil {
		honoured.ResourcesListChanged = asked.ResourcesListChanged
	}
	if asked.PromptsListChanged != nil && *asked.PromptsListChanged && caps.Prompts != nil {
		honoured.PromptsListChanged = asked.PromptsListChanged
	}
	sub := &subscription{call: c, tools: honoured.ToolsListChanged != nil, resources: honoured.ResourcesListChanged != nil,
		prompts: honoured.PromptsListChanged != nil, owner: subjectOf(r), caller: callerkey.Of(ctx),
		principal: r.caller, rev: r.rev}
	for _, id := range taskIDs {
		if sub.tasks == nil {
			sub.tasks, sub.told = map[string]bool{}, map[string]taskSeen{}
		}
		sub.tasks[id] = true
	}
	if caps.Resources != nil {
		for _, uri := range asked.ResourceSubscriptions {
			// Only what the caller may read: a resource or template whose
			// scopes it lacks is not there for it.
			if e, t, _, _ := ss.srv.findResourceFor(uri, r.caller); (e != nil && e.visibleTo(r.caller) || t != nil) && !sub.uris[uri] {
				if sub.uris == nil {
					sub.uris = map[string]bool{}
				}
				sub.uris[uri] = true
				honoured.ResourceSubscriptions = append(honoured.ResourceSubscriptions, uri)
			}
		}
	}
	honoured.TaskIDs = taskIDs
	ack, _ := json.Marshal(protocol.SubscriptionsAcknowledgedNotificationParams{
		Notifications: honoured, Meta: subscriptionMeta(r.id),
	})

	ss.subsMu.Lock()
	if err := ss.admitListen(c, sub); err != nil {
		ss.subsMu.Unlock()
		return nil, err
	}
	c.notify(&jsonrpc.Notification{Method: protocol.NotificationSubscriptionsAcknowledged, Params: ack})
	ss.subs = append(ss.subs, sub)
	ss.subsMu.Unlock()
	defer ss.unsubscribe(sub)
	ss.tellTasksNow(ctx, sub, taskIDs)

	select {
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	case <-ss.stopping:
	}
	// endSubscriptions answers in subscription order; this is a fallback.
	return ss.srv.listenResult(r.id), nil
}

// listenResult is the graceful end of a subscription: it names the
// subscription and the server. It is built here, not by fillEnvelope, since
// its _meta has a shape of its own.
func (s *Server) listenResult(id jsonrpc.ID) json.RawMessage {
	b, _ := json.Marshal(protocol.SubscriptionsListenResult{
		ResultType: protocol.ResultTypeComplete,
		Meta:       protocol.SubscriptionsListenResultMeta{SubscriptionID: id, ServerInfo: &s.modernInfo},
	})
	return b
}

// admitListen decides, with subsMu held, whether sub may open, and counts
// it against its caller when it may. A connection or a legacy session has
// one client, bounded by MaxListenStreams. A stateless endpoint is shared
// by every caller of the server (all the 2026-07-28 clients of the HTTP
// helper), so a bound of its own would let one client's streams lock
// every other client out: there each caller is bounded by
// MaxListenStreamsPerCaller, and all of them together by
// MaxListenStreamsTotal. A caller the transport does not name (callerkey
// ""; the HTTP helper names every one) has no share of its own to
// exhaust, and is bounded by the total alone. The caller's own bound is
// checked first, so that a caller over it learns that the refusal is its
// own doing, not the server's.
func (ss *session) admitListen(c *call, sub *subscription) *jsonrpc.Error {
	opts := &ss.srv.opts
	if !ss.stateless {
		if max := opts.MaxListenStreams; len(ss.subs) >= max {
			c.observeLimit("MaxListenStreams")
			return overloaded("%d subscriptions/listen streams are already open on this connection; cancel one before opening another", max)
		}
		return nil
	}
	if max := opts.MaxListenStreamsPerCaller; sub.caller != "" && ss.listeners[sub.caller] >= max {
		return quotaExceeded("MaxListenStreamsPerCaller", max,
			"this caller already holds %d subscriptions/listen streams open; cancel one before opening another", max)
	}
	if max := opts.MaxListenStreamsTotal; len(ss.subs) >= max {
		c.observeLimit("MaxListenStreamsTotal")
		return overloaded("%d subscriptions/listen streams are open on this server, its bound (MaxListenStreamsTotal); try again later", max)
	}
	if sub.caller != "" {
		if ss.listeners == nil {
			ss.listeners = map[string]int{}
		}
		ss.listeners[sub.caller]++
	}
	return nil
}

// unsubscribe removes a subscription, keeping the others' order, and
// gives its caller back the stream it counted (see admitListen).
func (ss *session) unsubscribe(sub *subscription) {
	ss.subsMu.Lock()
	defer ss.subsMu.Unlock()
	for i, s := range ss.subs {
		if s == sub {
			ss.subs = append(ss.subs[:i], ss.subs[i+1:]...)
			if ss.stateless && sub.caller != "" {
				// Dropping a caller at zero keeps the map as large as the
				// callers listening now, not every caller ever seen.
				if ss.listeners[sub.caller]--; ss.listeners[sub.caller] <= 0 {
					delete(ss.listeners, sub.caller)
				}
			}
			return
		}
	}
}

// endSubscriptions answers every open subscription with its graceful
// result, in the order they were opened.
func (ss *session) endSubscriptions() {
	ss.subsMu.Lock()
	subs := append([]*subscription(nil), ss.subs...)
	ss.subsMu.Unlock()
	for _, sub := range subs {
		sub.call.finish(&jsonrpc.Response{ID: sub.call.id, Result: ss.srv.listenResult(sub.call.id)})
	}
}

// listChanged tells this connection's clients that a list changed: a
// legacy session unsolicited, when its initialize result declared the
// capability (declared), modern clients only on the listen streams that
// asked for it (wants), each message tagged with its subscription id.
// With change set (a tools list change on a server with middleware),
// each notification passes through the middleware first, as the client
// it goes to (see outgoing).
func (ss *session) listChanged(method string, declared func(protocol.ServerCapabilities) bool, wants func(*subscription) bool, change *toolChange) {
	ss.mu.Lock()
	legacy := ss.initialized && declared(ss.caps)
	caller, rev := ss.caller, ss.rev
	ss.mu.Unlock()
	if legacy {
		n := &jsonrpc.Notification{Method: method}
		if change == nil {
			ss.send(n)
		} else {
			ss.outgoing(n, caller, rev, change, func() { ss.send(n) })
		}
	}
	ss.subsMu.Lock()
	var told []*subscription // with change: told once the lock is released
	for _, sub := range ss.subs {
		if !wants(sub) {
			continue
		}
		if change != nil {
			told = append(told, sub)
			continue
		}
		params, _ := json.Marshal(protocol.NotificationParams{Meta: subscriptionMeta(sub.call.id)})
		sub.call.notify(&jsonrpc.Notification{Method: method, Params: params})
	}
	ss.subsMu.Unlock()
	for _, sub := range told {
		params, _ := json.Marshal(protocol.NotificationParams{Meta: subscriptionMeta(sub.call.id)})
		n := &jsonrpc.Notification{Method: method, Params: params}
		ss.outgoing(n, sub.principal, sub.rev, change, func() { sub.call.notify(n) })
	}
}

// resourceUpdated tells this connection's clients that followed uri that
// it changed: a legacy session that subscribed to it, and the listen
// streams whose resourceSubscriptions name it.
func (ss *session) resourceUpdated(uri string) {
	ss.subsMu.Lock()
	defer ss.subsMu.Unlock()
	if ss.resSubs[uri] {
		params, _ := json.Marshal(protocol.ResourceUpdatedNotificationParams{URI: uri})
		ss.send(&jsonrpc.Notification{Method: protocol.NotificationResourceUpdated, Params: params})
	}
	for _, sub := range ss.subs {
		if sub.uris[uri] {
			params, _ := json.Marshal(protocol.ResourceUpdatedNotificationParams{URI: uri, Meta: subscriptionMeta(sub.call.id)})
			sub.call.notify(&jsonrpc.Notification{Method: protocol.NotificationResourceUpdated, Params: params})
		}
	}
}

// eachSession runs fn for every connection served.
func (s *Server) eachSession(fn func(*session)) {
	s.sessMu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		sessions = append(sessions, ss)
	}
	s.sessMu.Unlock()
	for _, ss := range sessions {
		fn(ss)
	}
}

// toolsChanged tells every client that the tool list changed.
func (s *Server) toolsChanged() { s.raise(fanout.Event{Kind: fanout.ToolsListChanged}) }

// toolChanged tells every client that e was added to the tool list or
// removed from it: the middleware learns which tool (Request.ChangedTools);
// the other instances only that the list changed.
func (s *Server) toolChanged(e *entry) {
	ev := fanout.Event{Kind: fanout.ToolsListChanged}
	if s.chain == nil {
		s.raise(ev)
		return
	}
	w := e.wireTool(protocol.Latest)
	s.deliverTools(&toolChange{tools: []*protocol.Tool{&w}, known: true})
	s.publish(ev)
}

// deliverTools tells this server's connections that the tool list
// changed, change passing through the middleware (nil: no middleware).
func (s *Server) deliverTools(change *toolChange) {
	s.eachSession(func(ss *session) {
		ss.listChanged(protocol.NotificationToolListChanged,
			func(c protocol.ServerCapabilities) bool { return c.Tools != nil },
			func(sub *subscription) bool { return sub.tools }, change)
	})
}

// resourcesChanged tells every client that the resource list or the
// template list changed.
func (s *Server) resourcesChanged() { s.raise(fanout.Event{Kind: fanout.ResourcesListChanged}) }

// promptsChanged tells every client that the prompt list changed.
func (s *Server) promptsChanged() { s.raise(fanout.Event{Kind: fanout.PromptsListChanged}) }

// ResourceUpdated tells every client that follows uri that the resource
// changed: legacy sessions that sent resources/subscribe for it get
// notifications/resources/updated, and so do the 2026-07-28 listen streams
// whose resourceSubscriptions name it. The URI need not be registered: a
// template's resources are not listed one by one. With Options.Broker, the
// clients of the other instances that follow uri are told too.
func (s *Server) ResourceUpdated(uri string) {
	s.raise(fanout.Event{Kind: fanout.ResourceUpdated, URI: uri})
}

// deliver tells this server's connections of an event, whichever instance
// raised it. An event from another instance changes nothing here but what
// the clients are told: instances are identical, so the list that changed
// there is this one's too, and the clients list again.
func (s *Server) deliver(ev fanout.Event) {
	switch ev.Kind {
	case fanout.ToolsListChanged:
		var change *toolChange
		if s.chain != nil {
			change = &toolChange{} // which tools is not known (another instance's, or several)
		}
		s.deliverTools(change)
	case fanout.ResourcesListChanged:
		s.eachSession(func(ss *session) {
			ss.listChanged(protocol.NotificationResourceListChanged,
				func(c protocol.ServerCapabilities) bool { return c.Resources != nil },
				func(sub *subscription) bool { return sub.resources }, nil)
		})
	case fanout.PromptsListChanged:
		s.eachSession(func(ss *session) {
			ss.listChanged(protocol.NotificationPromptListChanged,
				func(c protocol.ServerCapabilities) bool { return c.Prompts != nil },
				func(sub *subscription) bool { return sub.prompts }, nil)
		})
	case fanout.ResourceUpdated:
		s.eachSession(func(ss *session) { ss.resourceUpdated(ev.URI) })
	case fanout.TaskStatus:
		s.deliverTask(ev.TaskID)
	}
}
