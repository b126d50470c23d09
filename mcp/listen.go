package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// subscription is one open subscriptions/listen stream.
type subscription struct {
	call  *call
	tools bool // toolsListChanged was asked for and honoured
}

// subscriptionMeta is the _meta that tags every message of a stream.
func subscriptionMeta(id jsonrpc.ID) *protocol.NotificationMeta {
	return &protocol.NotificationMeta{SubscriptionID: id}
}

// handleListen serves subscriptions/listen: it acknowledges the subset of
// the filter this server honours (toolsListChanged: this server has no
// prompts or resources), then streams the matching notifications until the
// client cancels the request or the server shuts down, when it ends with the
// graceful result.
func handleListen(ctx context.Context, ss *session, c *call, r *request, p *protocol.SubscriptionsListenRequestParams) (any, error) {
	if r.params.Get("notifications") == nil {
		return nil, invalidParams(`subscriptions/listen needs a "notifications" object`)
	}
	asked := p.Notifications
	var honoured protocol.SubscriptionFilter
	if asked.ToolsListChanged != nil && *asked.ToolsListChanged {
		honoured.ToolsListChanged = asked.ToolsListChanged
	}
	ack, _ := json.Marshal(protocol.SubscriptionsAcknowledgedNotificationParams{
		Notifications: honoured, Meta: subscriptionMeta(r.id),
	})

	sub := &subscription{call: c, tools: honoured.ToolsListChanged != nil}
	ss.subsMu.Lock()
	if max := ss.srv.opts.MaxListenStreams; len(ss.subs) >= max {
		ss.subsMu.Unlock()
		return nil, overloaded("%d subscriptions/listen streams are already open on this connection; cancel one before opening another", max)
	}
	c.notify(&jsonrpc.Notification{Method: protocol.NotificationSubscriptionsAcknowledged, Params: ack})
	ss.subs = append(ss.subs, sub)
	ss.subsMu.Unlock()
	defer ss.unsubscribe(sub)

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

// unsubscribe removes a subscription, keeping the others' order.
func (ss *session) unsubscribe(sub *subscription) {
	ss.subsMu.Lock()
	defer ss.subsMu.Unlock()
	for i, s := range ss.subs {
		if s == sub {
			ss.subs = append(ss.subs[:i], ss.subs[i+1:]...)
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

// toolsChanged tells this connection's clients that the tool list changed:
// a legacy session unsolicited, modern clients only on listen streams that
// asked for it, each message tagged with its subscription id.
func (ss *session) toolsChanged() {
	ss.mu.Lock()
	legacy := ss.initialized
	ss.mu.Unlock()
	if legacy {
		ss.send(&jsonrpc.Notification{Method: protocol.NotificationToolListChanged})
	}
	ss.subsMu.Lock()
	defer ss.subsMu.Unlock()
	for _, sub := range ss.subs {
		if sub.tools {
			params, _ := json.Marshal(protocol.NotificationParams{Meta: subscriptionMeta(sub.call.id)})
			sub.call.notify(&jsonrpc.Notification{Method: protocol.NotificationToolListChanged, Params: params})
		}
	}
}

// toolsChanged notifies every connection served.
func (s *Server) toolsChanged() {
	s.sessMu.Lock()
	sessions := make([]*session, 0, len(s.sessions))
	for ss := range s.sessions {
		sessions = append(sessions, ss)
	}
	s.sessMu.Unlock()
	for _, ss := range sessions {
		ss.toolsChanged()
	}
}
