package client

import (
	"context"
	"fmt"
	"iter"
	"slices"
	"strconv"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"

	engine "github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// listenBuffer is how many notifications a listen stream holds for a
// consumer that has not taken them; more are dropped and counted.
const listenBuffer = 1024

// unsubscribeTimeout bounds the resources/unsubscribe of a legacy
// listen stream that ended.
const unsubscribeTimeout = 5 * time.Second

// legacyListens numbers the legacy listen streams.
var legacyListens atomic.Int64

// listener is one open listen stream.
type listener struct {
	ch      chan *jsonrpc.Notification
	filter  protocol.SubscriptionFilter // what a legacy stream takes
	legacy  bool
	dropped atomic.Int64
}

// Listen opens a stream of the server's notifications that filter asks
// for: list changes of tools, prompts and resources, updates of the
// resources listed, and, on 2026-07-28, the status of the tasks listed.
// The caller's code is the same in both eras:
//
//   - on 2026-07-28 it is a subscriptions/listen request, whose
//     notifications (the server's notifications/subscriptions/acknowledged
//     first) are those tagged with its id; ending the iteration or ctx
//     cancels the request;
//   - on a legacy connection the server sends these notifications
//     unasked (list changes) or after resources/subscribe, which Listen
//     sends for each resource and undoes with resources/unsubscribe at
//     the end. The stream begins, as on 2026-07-28, with a
//     notifications/subscriptions/acknowledged, made by the client, whose
//     notifications member is the part of filter the server's
//     capabilities say it can honour (without _meta: there is no listen
//     request).
//
// The iteration ends when ctx ends, the caller stops it, or the server
// ends the stream (ctx.Err() is then nil); it yields an error when the
// stream fails, or when the caller fell more than 1024 notifications
// behind and some were dropped. Notifications a stream takes do not go to
// Options.OnNotification.
func (c *Client) Listen(ctx context.Context, filter protocol.SubscriptionFilter) iter.Seq2[*jsonrpc.Notification, error] {
	if c.sess().Era() == protocol.Modern {
		return c.listenModern(ctx, filter)
	}
	return c.listenLegacy(ctx, filter)
}

// listenModern is Listen on 2026-07-28.
func (c *Client) listenModern(ctx context.Context, filter protocol.SubscriptionFilter) iter.Seq2[*jsonrpc.Notification, error] {
	return func(yield func(*jsonrpc.Notification, error) bool) {
		ctx, cancel := context.WithCancel(ctx)
		l := &listener{ch: make(chan *jsonrpc.Notification, listenBuffer)}
		var keys []string // the ids sent: one per input_required round
		sctx := engine.WithSent(ctx, func(id jsonrpc.ID) {
			keys = append(keys, id.Key())
			c.mu.Lock()
			c.listens[id.Key()] = l
			c.mu.Unlock()
		})
		done := make(chan error, 1)
		go func() {
			_, rpcErr, err := c.sess().Call(sctx, protocol.MethodSubscriptionsListen, map[string]any{"notifications": filter})
			if err == nil && rpcErr != nil {
				err = rpcErr
			}
			done <- err
		}()
		defer func() {
			cancel()
			<-done
			c.mu.Lock()
			for _, k := range keys {
				delete(c.listens, k)
			}
			c.mu.Unlock()
		}()
		for {
			select {
			case n := <-l.ch:
				if !l.deliver(yield, n) {
					return
				}
			case err := <-done:
				done <- err // for the deferred wait
				for len(l.ch) > 0 {
					if !l.deliver(yield, <-l.ch) {
						return
					}
				}
				if err != nil && ctx.Err() == nil {
					yield(nil, fmt.Errorf("client: %s: %w", protocol.MethodSubscriptionsListen, err))
				}
				return
			}
		}
	}
}

// deliver yields n, after an error when notifications were dropped, and
// reports whether to go on.
func (l *listener) deliver(yield func(*jsonrpc.Notification, error) bool, n *jsonrpc.Notification) bool {
	if d := l.dropped.Swap(0); d > 0 {
		if !yield(nil, fmt.Errorf("client: listen: %d notifications dropped: the caller fell %d behind", d, listenBuffer)) {
			return false
		}
	}
	return yield(n, nil)
}

// listenLegacy is Listen on a legacy connection.
func (c *Client) listenLegacy(ctx context.Context, filter protocol.SubscriptionFilter) iter.Seq2[*jsonrpc.Notification, error] {
	return func(yield func(*jsonrpc.Notification, error) bool) {
		sess := c.sess() // the stream ends with it, even when a new session replaces it
		l := &listener{ch: make(chan *jsonrpc.Notification, listenBuffer), filter: filter, legacy: true}
		key := "legacy-" + strconv.FormatInt(legacyListens.Add(1), 10)
		c.mu.Lock()
		c.listens[key] = l
		c.mu.Unlock()
		var subscribed []string
		defer func() {
			c.mu.Lock()
			delete(c.listens, key)
			c.mu.Unlock()
			c.unsubscribe(subscribed)
		}()
		for _, uri := range filter.ResourceSubscriptions {
			if err := c.request(ctx, protocol.MethodResourcesSubscribe, map[string]string{"uri": uri}, nil); err != nil {
				yield(nil, err)
				return
			}
			subscribed = append(subscribed, uri)
		}
		if !yield(c.acknowledge(filter, subscribed), nil) {
			return
		}
		for {
			select {
			case n := <-l.ch:
				if !l.deliver(yield, n) {
					return
				}
			case <-ctx.Done():
				return
			case <-sess.Done():
				yield(nil, fmt.Errorf("client: listen: %w", sess.Err()))
				return
			}
		}
	}
}

// unsubscribe undoes the resources/subscribe of a legacy stream.
func (c *Client) unsubscribe(uris []string) {
	if len(uris) == 0 {
		return
	}
	ctx, cancel := context.WithTimeout(context.Background(), unsubscribeTimeout)
	defer cancel()
	for _, uri := range uris {
		if c.request(ctx, protocol.MethodResourcesUnsubscribe, map[string]string{"uri": uri}, nil) != nil {
			return
		}
	}
}

// toListener hands n to the listen streams it belongs to and reports
// whether any took it.
func (c *Client) toListener(n *jsonrpc.Notification) bool {
	c.mu.Lock()
	defer c.mu.Unlock()
	if len(c.listens) == 0 {
		return false
	}
	if id, ok := subscriptionID(n.Params); ok {
		l := c.listens[id.Key()]
		if l == nil {
			return true // a stream that ended: its late notifications are dropped
		}
		l.offer(n)
		return true
	}
	taken := false
	for _, l := range c.listens {
		if l.legacy && l.wants(n) {
			l.offer(n)
			taken = true
		}
	}
	return taken
}

// offer queues n without blocking; a full queue drops it.
func (l *listener) offer(n *jsonrpc.Notification) {
	select {
	case l.ch <- n:
	default:
		l.dropped.Add(1)
	}
}

// wants reports whether a legacy stream's filter selects n.
func (l *listener) wants(n *jsonrpc.Notification) bool {
	f := &l.filter
	switch n.Method {
	case protocol.NotificationToolListChanged:
		return f.ToolsListChanged != nil && *f.ToolsListChanged
	case protocol.NotificationPromptListChanged:
		return f.PromptsListChanged != nil && *f.PromptsListChanged
	case protocol.NotificationResourceListChanged:
		return f.ResourcesListChanged != nil && *f.ResourcesListChanged
	case protocol.NotificationResourceUpdated:
		var p struct {
			URI string `json:"uri"`
		}
		return json.Unmarshal(n.Params, &p) == nil && slices.Contains(f.ResourceSubscriptions, p.URI)
	}
	return false
}

// subscriptionID returns the subscriptionId in params' _meta.
func subscriptionID(params json.RawMessage) (jsonrpc.ID, bool) {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return jsonrpc.ID{}, false
	}
	raw, ok := p.Meta[protocol.MetaSubscriptionID]
	if !ok {
		return jsonrpc.ID{}, false
	}
	var id jsonrpc.ID
	if json.Unmarshal(raw, &id) != nil || !id.IsValid() {
		return jsonrpc.ID{}, false
	}
	return id, true
}

// acknowledge makes the acknowledgement of a legacy listen stream: the
// part of filter the server's capabilities honour, and the resources
// subscribed.
func (c *Client) acknowledge(filter protocol.SubscriptionFilter, subscribed []string) *jsonrpc.Notification {
	caps := c.sess().Capabilities()
	honoured := protocol.SubscriptionFilter{ResourceSubscriptions: subscribed}
	yes := func(asked, has *bool) *bool {
		if asked != nil && *asked && has != nil && *has {
			return asked
		}
		return nil
	}
	if caps.Tools != nil {
		honoured.ToolsListChanged = yes(filter.ToolsListChanged, caps.Tools.ListChanged)
	}
	if caps.Prompts != nil {
		honoured.PromptsListChanged = yes(filter.PromptsListChanged, caps.Prompts.ListChanged)
	}
	if caps.Resources != nil {
		honoured.ResourcesListChanged = yes(filter.ResourcesListChanged, caps.Resources.ListChanged)
	}
	params, _ := json.Marshal(map[string]any{"notifications": honoured})
	return &jsonrpc.Notification{Method: protocol.NotificationSubscriptionsAcknowledged, Params: params}
}
