package mcphttp

import (
	"container/list"
	"crypto/rand"
	"encoding/hex"
	"fmt"
	"log/slog"
	"net/http"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// unsolicitedBuffer bounds the messages held for a session's GET stream
// (while none is open, or while it is slow); beyond it they are dropped.
const unsolicitedBuffer = 64

// session is one legacy (2025-03-26 .. 2025-11-25) session: an Endpoint
// of its own, the stream of its GET, and its use.
type session struct {
	id      string
	owner   owner  // who opened it; only they may use it
	caller  string // the caller key it counts against (MaxSessionsPerCaller)
	ep      *mcp.Endpoint
	out     chan jsonrpc.Message // the Endpoint's unsolicited messages
	ended   chan struct{}        // closed when the session ends
	endOnce sync.Once

	store   EventStore // the handler's
	log     *slog.Logger
	storeMu sync.RWMutex // read to append, written by forget
	forgot  bool         // the store forgot the session: append nothing

	// pending is the session's place in its table's list of sessions
	// whose client has not completed the handshake (nil once it has),
	// guarded by the table's mu.
	pending *list.Element

	mu        sync.Mutex
	active    int       // POSTs, GETs and detached calls being served
	last      time.Time // when active last dropped to 0
	answered  time.Time // when its initialize was answered (zero before)
	streaming bool      // a GET stream of unsolicited messages is open
	calls     map[string]*exchange
	streams   map[string]*callStream // the POST streams not finished yet, by stream id
	closing   bool                   // end began: detach no more calls
	pumps     sync.WaitGroup         // detached calls (see detach)

	// The GET streams open (MaxSessionStreams), guarded by mu too:
	// getStreams counts them, streamFreed is closed (and replaced) when
	// one ends, and resumers holds the one resumption following each POST
	// stream (see streams.go).
	getStreams  int
	streamFreed chan struct{}
	resumers    map[string]*resumption
}

// end closes the session's endpoint (in-flight calls get the server's
// grace) and its GET stream, waits for its detached calls, and has the
// event store forget it.
func (s *session) end() {
	s.endOnce.Do(func() {
		s.mu.Lock()
		s.closing = true
		s.mu.Unlock()
		close(s.ended)
		s.ep.Close()
		s.pumps.Wait()
		s.forget()
	})
}

// release ends one use of the session begun by acquire or create.
func (s *session) release() {
	s.mu.Lock()
	s.active--
	s.last = time.Now()
	s.mu.Unlock()
}

// track remembers the exchange of a request in flight, by id, so that a
// notifications/cancelled for it can end its POST (the Endpoint sends no
// response for a cancelled request). A duplicate id keeps the first.
func (s *session) track(key string, x *exchange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, dup := s.calls[key]; !dup {
		s.calls[key] = x
	}
}

func (s *session) untrack(key string, x *exchange) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if s.calls[key] == x {
		delete(s.calls, key)
	}
}

// abandon ends the exchange of the request with this id key, if any.
func (s *session) abandon(key string) {
	s.mu.Lock()
	x := s.calls[key]
	s.mu.Unlock()
	if x != nil {
		x.end()
	}
}

// owner is who opened a legacy session: the principal an authentication
// middleware put in the initialize request's context (auth.WithPrincipal),
// if any.
type owner struct {
	known   bool // a principal opened the session
	subject string
}

// ownerOf returns who r acts for.
func ownerOf(r *http.Request) owner {
	if p := auth.PrincipalFrom(r.Context()); p != nil {
		return owner{known: true, subject: p.Subject}
	}
	return owner{}
}

// session finds the session sid names (r's), answering 400 when it names none and
// 404 when it is unknown, ended, or was opened by another caller: a
// session id that leaked is of no use to anyone else, and the answer does
// not tell them it exists. Release what it returns.
func (h *Handler) session(w http.ResponseWriter, r *http.Request, sid string, id jsonrpc.ID) *session {
	if sid == "" {
		writeError(w, http.StatusBadRequest, id, jsonrpc.CodeInvalidRequest,
			"invalid request: missing Mcp-Session-Id header: send initialize to open a legacy session, or a 2026-07-28 request with params._meta[\"io.modelcontextprotocol/protocolVersion\"]")
		return nil
	}
	s := h.sessions.acquire(sid)
	if s != nil && s.owner != ownerOf(r) {
		h.log.Warn("mcphttp: request refused", "category", "session of another caller", "status", http.StatusNotFound)
		s.release()
		s = nil
	}
	if s == nil {
		writeError(w, http.StatusNotFound, id, jsonrpc.CodeInvalidRequest,
			"invalid request: unknown session: it ended or never existed; send initialize to open a new one")
	}
	return s
}

// checkSessionIDPrefix reports what makes p unfit to start session ids.
func checkSessionIDPrefix(p string) error {
	if len(p) > 32 {
		return fmt.Errorf("Options.SessionIDPrefix is %d bytes long; at most 32", len(p))
	}
	for i := 0; i < len(p); i++ {
		if p[i] < 0x21 || p[i] > 0x7e {
			return fmt.Errorf("Options.SessionIDPrefix %q holds byte 0x%02x; a session id holds only visible ASCII (0x21 to 0x7E)", p, p[i])
		}
	}
	return nil
}

// newSessionID returns 128 random bits in hex.
func newSessionID() string {
	var b [16]byte
	_, _ = rand.Read(b[:]) // crypto/rand.Read never fails
	return hex.EncodeToString(b[:])
}

func methodOf(m jsonrpc.Message) string {
	switch m := m.(type) {
	case *jsonrpc.Request:
		return m.Method
	case *jsonrpc.Notification:
		return m.Method
	}
	return ""
}
