package mcp

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// maxURLElicitations bounds the URL elicitations one connection may have
// awaiting completion; past it the oldest is forgotten (its completion
// notification is then not sent).
const maxURLElicitations = 256

// TrackElicitation remembers which connection a legacy URL elicitation
// belongs to, so that CompleteElicitation can notify it (package ask).
func (c *call) TrackElicitation(id string) {
	ss := c.ss
	s := ss.srv
	s.urlMu.Lock()
	defer s.urlMu.Unlock()
	if s.urlElicits == nil {
		s.urlElicits = map[string]*session{}
	}
	ss.urlIDs = append(ss.urlIDs, id)
	if len(ss.urlIDs) > maxURLElicitations {
		delete(s.urlElicits, ss.urlIDs[0])
		ss.urlIDs = ss.urlIDs[1:]
	}
	s.urlElicits[id] = ss
}

// CompleteElicitation tells the client that the out-of-band interaction of
// a URL elicitation (ask.ElicitURL, ask.RequireURL) is done, with
// notifications/elicitation/complete, so that it can retry what needed it.
// It reports whether the elicitation was known: one of a legacy
// connection still open. The 2026-07-28 era has no such notification (the
// client retries the call with its answer instead).
func (s *Server) CompleteElicitation(elicitationID string) bool {
	s.urlMu.Lock()
	ss, ok := s.urlElicits[elicitationID]
	delete(s.urlElicits, elicitationID)
	s.urlMu.Unlock()
	if !ok {
		return false
	}
	params, _ := json.Marshal(protocol.ElicitationCompleteNotificationParams{ElicitationID: elicitationID})
	ss.send(&jsonrpc.Notification{Method: protocol.NotificationElicitationComplete, Params: params})
	return true
}

// forgetElicitations drops a closing connection's URL elicitations.
func (ss *session) forgetElicitations() {
	s := ss.srv
	s.urlMu.Lock()
	for _, id := range ss.urlIDs {
		if s.urlElicits[id] == ss {
			delete(s.urlElicits, id)
		}
	}
	ss.urlIDs = nil
	s.urlMu.Unlock()
}
