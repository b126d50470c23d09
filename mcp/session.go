package mcp

import (
	"context"
	"log/slog"
	"sync"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// session is the state of one connection.
type session struct {
	srv  *Server
	conn transport.Conn
	log  *slog.Logger

	// base is the parent of every call's context; it outlives reading so
	// that calls get their shutdown grace period.
	base       context.Context
	cancelBase context.CancelCauseFunc

	mu          sync.Mutex
	initialized bool
	version     string
	rev         rev
	clientInfo  json.RawMessage
	clientCaps  json.RawMessage
	logLevel    string // set by logging/setLevel
	calls       map[string]*call
	logLimit    *rateLimiter

	subsMu   sync.Mutex
	subs     []*subscription // open listen streams, in the order opened
	stopping chan struct{}   // closed when shutdown starts

	slots   chan struct{} // one per running handler
	pending atomic.Int64  // running plus queued calls
	wg      sync.WaitGroup

	werrMu sync.Mutex
	werr   error
}

func newSession(s *Server, conn transport.Conn) *session {
	base, cancel := context.WithCancelCause(context.Background())
	return &session{
		srv:        s,
		conn:       conn,
		log:        s.log,
		base:       base,
		cancelBase: cancel,
		calls:      map[string]*call{},
		slots:      make(chan struct{}, s.opts.MaxConcurrentCalls),
		logLimit:   newRateLimiter(s.opts.LogRate, 2*s.opts.LogRate, s.log),
		stopping:   make(chan struct{}),
	}
}

// write sends a response; a nil response (a cancelled call) sends nothing.
func (ss *session) write(r *jsonrpc.Response) {
	if r == nil {
		return
	}
	ss.send(r)
}

// send writes any message and records the first write error.
func (ss *session) send(m jsonrpc.Message) {
	if err := ss.conn.Write(context.Background(), m); err != nil {
		ss.werrMu.Lock()
		if ss.werr == nil {
			ss.werr = err
			ss.log.Error("mcp: write failed", "err", err)
		}
		ss.werrMu.Unlock()
	}
}

func (ss *session) writeErr() error {
	ss.werrMu.Lock()
	defer ss.werrMu.Unlock()
	return ss.werr
}

// negotiated returns the session's revision, 0 before initialize.
func (ss *session) negotiated() rev {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.rev
}
