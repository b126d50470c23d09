package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// subscription is one open subscriptions/listen stream.
type subscription struct {
	call  *call
	tools bool // toolsListChanged was asked for and honoured
}

// subscriptionFilter is the notifications object of a listen request and of
// its acknowledgement.
type subscriptionFilter struct {
	ToolsListChanged      bool     `json:"toolsListChanged,omitempty"`
	PromptsListChanged    bool     `json:"promptsListChanged,omitempty"`
	ResourcesListChanged  bool     `json:"resourcesListChanged,omitempty"`
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitempty"`
}

// subscriptionMeta returns the _meta that tags every message of a stream.
func subscriptionMeta(id jsonrpc.ID) json.RawMessage {
	return json.RawMessage(`{"` + MetaSubscriptionID + `":` + id.Raw() + `}`)
}

// handleListen serves subscriptions/listen: it acknowledges the subset of
// the filter this server honours (toolsListChanged: this server has no
// prompts or resources), then streams the matching notifications until the
// client cancels the request or the server shuts down, when it ends with the
// graceful result.
func handleListen(ctx context.Context, ss *session, c *call, r *request) (any, error) {
	raw := r.params.Get("notifications")
	if raw == nil || raw[0] != '{' {
		return nil, invalidParams(`subscriptions/listen needs a "notifications" object`)
	}
	if _, err := jsonrpc.ParseObject(raw); err != nil {
		return nil, invalidParams(`"notifications" must be an object`)
	}
	var asked subscriptionFilter
	if err := json.Unmarshal(raw, &asked); err != nil {
		return nil, invalidParams(`"notifications" is malformed: %v`, err)
	}
	honoured := subscriptionFilter{ToolsListChanged: asked.ToolsListChanged}
	ack, _ := json.Marshal(struct {
		Meta          json.RawMessage    `json:"_meta"`
		Notifications subscriptionFilter `json:"notifications"`
	}{subscriptionMeta(r.id), honoured})

	sub := &subscription{call: c, tools: honoured.ToolsListChanged}
	ss.subsMu.Lock()
	if max := ss.srv.opts.MaxListenStreams; len(ss.subs) >= max {
		ss.subsMu.Unlock()
		return nil, overloaded("%d subscriptions/listen streams are already open on this connection; cancel one before opening another", max)
	}
	c.notify(&jsonrpc.Notification{Method: "notifications/subscriptions/acknowledged", Params: ack})
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

// listenResult is the graceful end of a subscription.
func (s *Server) listenResult(id jsonrpc.ID) json.RawMessage {
	b, _ := json.Marshal(listenResult{ResultType: "complete", Meta: s.listenMeta(id)})
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

type listenResult struct {
	ResultType string          `json:"resultType"`
	Meta       json.RawMessage `json:"_meta"`
}

// listenMeta is the graceful result's _meta: the subscription id and the
// server's identity.
func (s *Server) listenMeta(id jsonrpc.ID) json.RawMessage {
	return json.RawMessage(`{"` + MetaSubscriptionID + `":` + id.Raw() + `,"` + MetaServerInfo + `":` +
		string(s.serverInfo(rev20260728)) + `}`)
}

// toolsChanged tells this connection's clients that the tool list changed:
// a legacy session unsolicited, modern clients only on listen streams that
// asked for it, each message tagged with its subscription id.
func (ss *session) toolsChanged() {
	ss.mu.Lock()
	legacy := ss.initialized
	ss.mu.Unlock()
	if legacy {
		ss.send(&jsonrpc.Notification{Method: "notifications/tools/list_changed"})
	}
	ss.subsMu.Lock()
	defer ss.subsMu.Unlock()
	for _, sub := range ss.subs {
		if sub.tools {
			params := []byte(`{"_meta":` + string(subscriptionMeta(sub.call.id)) + `}`)
			sub.call.notify(&jsonrpc.Notification{Method: "notifications/tools/list_changed", Params: params})
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
