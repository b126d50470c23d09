package mcp

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// notify handles one incoming notification. Unknown notifications are
// ignored, as JSON-RPC requires; malformed ones are logged and ignored.
func (ss *session) notify(n *jsonrpc.Notification) { ss.notifyBound(n, nil) }

// notifyBound is notify with the exchange's context (an HTTP request's),
// through the middleware when there is any.
func (ss *session) notifyBound(n *jsonrpc.Notification, bound context.Context) {
	if ss.srv.chain != nil {
		ss.notifyChained(n, bound)
		return
	}
	ss.notified(n)
}

// notified handles a client's notification.
func (ss *session) notified(n *jsonrpc.Notification) {
	switch n.Method {
	case "notifications/cancelled":
		ss.cancelled(n.Params)
	case protocol.NotificationRootsListChanged:
		ss.rootsChanged()
	case "notifications/initialized":
		// Nothing to do: requests are served as soon as initialize is answered.
	default:
		ss.log.Debug("mcp: ignoring notification", "method", n.Method)
	}
}

// cancelled handles notifications/cancelled on the read loop, so a cancel
// is never stuck behind a busy handler.
func (ss *session) cancelled(params json.RawMessage) {
	if ss.stateless {
		return // requests stand alone: one is cancelled by ending its exchange
	}
	f, err := jsonx.Fields(params, "requestId", "reason")
	if err != nil || f[0] == nil {
		ss.log.Debug("mcp: ignoring notifications/cancelled without requestId")
		return
	}
	var id jsonrpc.ID
	if err := id.UnmarshalJSON(f[0]); err != nil {
		ss.log.Debug("mcp: ignoring notifications/cancelled with a bad requestId")
		return
	}
	var reason string
	if f[1] != nil {
		json.Unmarshal(f[1], &reason)
	}
	ss.mu.Lock()
	c := ss.calls[id.Key()]
	ss.mu.Unlock()
	if c == nil {
		return // unknown or already finished: a race the spec tolerates
	}
	c.cancelByClient(clip.String(reason))
}
