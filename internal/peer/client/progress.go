package client

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// WatchProgress calls f with the params of every notifications/progress
// the server sends, on the reader's goroutine, with the given progressToken
// (compared as JSON, so the string "7" and the number 7 differ), until
// the returned stop is called. The caller puts the token in its request's
// _meta; a caller that waits with a deadline can extend it on each
// progress, as hosts do for long tools that report progress. f must not
// block.
func (s *Session) WatchProgress(token json.RawMessage, f func(protocol.ProgressNotificationParams)) (stop func()) {
	key := string(token)
	s.mu.Lock()
	if s.progress == nil {
		s.progress = map[string]func(protocol.ProgressNotificationParams){}
	}
	s.progress[key] = f
	s.mu.Unlock()
	return func() {
		s.mu.Lock()
		delete(s.progress, key)
		s.mu.Unlock()
	}
}

// progressed hands a progress notification to its watcher, if any.
func (s *Session) progressed(n *jsonrpc.Notification) {
	var p struct {
		Token json.RawMessage `json:"progressToken"`
	}
	if json.Unmarshal(n.Params, &p) != nil || len(p.Token) == 0 {
		return
	}
	s.mu.Lock()
	f := s.progress[string(p.Token)]
	s.mu.Unlock()
	if f == nil {
		return
	}
	var params protocol.ProgressNotificationParams
	json.Unmarshal(n.Params, &params) // a field that does not decode stays zero: the watcher still learns of the progress
	f(params)
}

// isProgress reports whether n is a progress notification.
func isProgress(n *jsonrpc.Notification) bool { return n.Method == protocol.NotificationProgress }
