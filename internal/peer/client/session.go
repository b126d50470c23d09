package client

import (
	"context"
	"fmt"
	"sync"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// maxProblems bounds the problems a session keeps; later ones are counted.
const maxProblems = 64

// Session is a connection to one server in one era. Its methods are safe
// for concurrent use.
type Session struct {
	conn     transport.Conn
	notifyMu sync.Mutex // held while a notification is handled
	opts     Options

	// life ends when the session closes: it stops the reader and the
	// handlers of the server's requests.
	life    context.Context
	stop    context.CancelFunc
	readEnd chan struct{} // closed when the reader returns
	readErr error         // why the reader returned; set before readEnd closes
	workers sync.WaitGroup
	nextID  atomic.Int64
	modern  atomic.Bool // the era is modern: set once detection chose it

	mu        sync.Mutex
	pending   map[string]chan reply                                // calls awaiting a response, by id key
	abandoned map[string]struct{}                                  // calls given up, whose late answer is dropped
	serving   map[string]context.CancelFunc                        // the server's requests being answered
	progress  map[string]func(protocol.ProgressNotificationParams) // progress watchers, by token as JSON
	logLevel  protocol.LoggingLevel                                // the modern _meta logLevel (SetLogLevel)
	problems  []error
	more      int // problems beyond maxProblems

	closeOnce sync.Once
	closeErr  error

	// Set by Connect before it returns the session; read-only after.
	era          protocol.Era
	revision     string
	serverInfo   protocol.Implementation
	capabilities protocol.ServerCapabilities
	instructions string
	detection    Detection
	meta         map[string]json.RawMessage // the per-request _meta members (modern)
	bareMeta     json.RawMessage            // meta encoded alone, for a call that sets no _meta and no log level
}

// reply is what a waiting call receives.
type reply struct {
	resp *jsonrpc.Response
	err  error
}

// Connect starts a session over conn in the era opts name (see the package
// doc) and returns once the era is settled. ctx bounds the handshake only;
// the session lives until Close. On failure conn is closed.
func Connect(ctx context.Context, conn transport.Conn, opts Options) (*Session, error) {
	opts = opts.withDefaults()
	life, stop := context.WithCancel(context.Background())
	s := &Session{
		conn: conn, opts: opts, life: life, stop: stop,
		readEnd:   make(chan struct{}),
		pending:   map[string]chan reply{},
		abandoned: map[string]struct{}{},
		serving:   map[string]context.CancelFunc{},
	}
	go s.readLoop()
	legacyV, modernV := opts.versions()
	var err error
	switch opts.Era {
	case protocol.Legacy:
		err = s.initialize(ctx, legacyV)
	case protocol.Modern:
		err = s.discoverModern(ctx, modernV)
	default:
		err = s.detect(ctx, legacyV, modernV)
	}
	if err != nil {
		s.Close()
		return nil, err
	}
	return s, nil
}

// Era returns the era the session speaks: Legacy or Modern.
func (s *Session) Era() protocol.Era { return s.era }

// Revision returns the protocol revision in use: the version initialize
// negotiated, or the one every modern request carries.
func (s *Session) Revision() string { return s.revision }

// ServerInfo returns what the server said it is: the initialize result's
// serverInfo, or the _meta serverInfo of the discover result (zero when it
// gave none).
func (s *Session) ServerInfo() protocol.Implementation { return s.serverInfo }

// Capabilities returns the server's capabilities, from its initialize or
// discover result.
func (s *Session) Capabilities() protocol.ServerCapabilities { return s.capabilities }

// Instructions returns the server's instructions, if it gave any.
func (s *Session) Instructions() string { return s.instructions }

// Detection returns how the era was settled.
func (s *Session) Detection() Detection { return s.detection }

// Problems returns what the server got wrong so far, in order (see the
// package doc): the first 64, then one counting the rest.
func (s *Session) Problems() []error {
	s.mu.Lock()
	defer s.mu.Unlock()
	out := append([]error(nil), s.problems...)
	if s.more > 0 {
		out = append(out, fmt.Errorf("client: %d more problem(s)", s.more))
	}
	return out
}

// problem records one thing the server got wrong.
func (s *Session) problem(format string, args ...any) {
	s.mu.Lock()
	defer s.mu.Unlock()
	if len(s.problems) < maxProblems {
		s.problems = append(s.problems, fmt.Errorf("client: "+format, args...))
	} else {
		s.more++
	}
}

// Close ends the session: it closes the connection, cancels the handlers
// still answering the server's requests and waits for them and for the
// reader to return. Calls still waiting fail with ErrClosed. It is
// idempotent and returns the connection's Close error.
func (s *Session) Close() error {
	s.closeOnce.Do(func() {
		s.stop()
		s.closeErr = s.conn.Close()
		<-s.readEnd
		s.workers.Wait()
	})
	return s.closeErr
}

// Notify sends the server a notification, such as
// notifications/roots/list_changed, bounded by ctx.
func (s *Session) Notify(ctx context.Context, method string, params any) error {
	raw, err := encodeParams(params)
	if err != nil {
		return fmt.Errorf("client: %s params: %w", method, err)
	}
	select {
	case <-s.life.Done():
		return ErrClosed
	default:
	}
	if err := s.conn.Write(ctx, &jsonrpc.Notification{Method: method, Params: raw}); err != nil {
		return fmt.Errorf("client: sending %s: %w", method, s.writeError(err))
	}
	return nil
}

// Done is closed when the session can no longer receive: the server
// ended the connection, or Close was called.
func (s *Session) Done() <-chan struct{} { return s.readEnd }

// Err returns why the session ended once Done is closed.
func (s *Session) Err() error {
	select {
	case <-s.readEnd:
		return s.readErr
	default:
		return nil
	}
}
