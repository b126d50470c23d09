package gateway

import (
	"context"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"

	json "github.com/goccy/go-json"
)

// notified relays what an upstream tells outside a listen stream: a log
// message to the caller of the one call in flight to it, at the caller's
// own level (with several in flight, or none, it cannot tell whose: the
// gateway's log gets it at debug, without its data), and the end of a URL
// elicitation to the caller who was asked.
func (up *upstream) notified(n *jsonrpc.Notification) {
	switch n.Method {
	case protocol.NotificationMessage:
		var p protocol.LoggingMessageNotificationParams
		if json.Unmarshal(n.Params, &p) != nil {
			return
		}
		level, ok := p.Level.Slog()
		if !ok {
			return
		}
		if r, err := up.whose(context.Background()); err == nil {
			if rc := r.round.Load(); rc != nil {
				if c := callctx.From(*rc); c != nil {
					c.Log(level, p.Logger, p.Data)
					return
				}
			}
		}
		up.g.log.Debug("gateway: an upstream's log message no call is waiting for", "upstream", up.cfg.Name, "level", string(p.Level), "logger", p.Logger)
	case protocol.NotificationElicitationComplete:
		var p struct {
			ElicitationID string `json:"elicitationId"`
		}
		if json.Unmarshal(n.Params, &p) != nil || p.ElicitationID == "" {
			return
		}
		if id, ok := up.urlIDs.LoadAndDelete(p.ElicitationID); ok {
			up.g.srv.CompleteElicitation(id.(string))
		}
	}
}
