package gateway

import (
	"context"
	"slices"
	"sync"

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
		if id, ok := up.urlIDs.take(p.ElicitationID); ok {
			up.g.srv.CompleteElicitation(id)
		}
	}
}

// maxURLIDs bounds the URL elicitations of one upstream awaiting its
// completion notification; past it the oldest is forgotten (its
// completion is then not passed on), as the server forgets its own.
const maxURLIDs = 256

// urlIDs maps the ids of an upstream's URL elicitations to the ids the
// gateway gave them when it asked its caller.
type urlIDs struct {
	mu    sync.Mutex
	ids   map[string]string
	order []string // upstream ids, oldest first
}

// put records that the upstream's id is the caller's mine.
func (u *urlIDs) put(id, mine string) {
	u.mu.Lock()
	defer u.mu.Unlock()
	if u.ids == nil {
		u.ids = map[string]string{}
	}
	if _, ok := u.ids[id]; !ok {
		u.order = append(u.order, id)
	}
	u.ids[id] = mine
	for len(u.order) > maxURLIDs {
		delete(u.ids, u.order[0])
		u.order = u.order[1:]
	}
}

// take returns and forgets the caller's id for the upstream's id.
func (u *urlIDs) take(id string) (string, bool) {
	u.mu.Lock()
	defer u.mu.Unlock()
	mine, ok := u.ids[id]
	if ok {
		delete(u.ids, id)
		u.order = slices.DeleteFunc(u.order, func(s string) bool { return s == id })
	}
	return mine, ok
}
