package client

import (
	"context"
	"errors"
	"fmt"
	"io"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// maxAbandoned bounds the ids of calls given up whose late answers are
// dropped quietly; past it the record starts over (a later late answer is
// then reported as a problem).
const maxAbandoned = 1024

// cancelWriteTimeout bounds the write of a notifications/cancelled.
const cancelWriteTimeout = time.Second

// readLoop is the session's one reader: it routes every message and never
// waits on a caller or a handler.
func (s *Session) readLoop() {
	defer close(s.readEnd)
	defer s.cancelServing()
	if e, ok := s.conn.(eacher); ok {
		// Each routes on the connection's own reading goroutines: an
		// answer reaches its caller with one hand-off, not two.
		err := e.Each(s.life, func(msg jsonrpc.Message, err error, _ func()) {
			if err == nil {
				s.route(msg)
				return
			}
			if s.failed(err) {
				return
			}
			if de := (*jsonrpc.DecodeError)(nil); errors.As(err, &de) {
				s.invalid(de)
			}
		})
		if err == nil {
			err = io.EOF // the input ended cleanly
		}
		s.readErr = s.endError(err)
		return
	}
	for {
		msg, err := s.conn.Read(s.life)
		if err != nil {
			if s.failed(err) {
				continue
			}
			var de *jsonrpc.DecodeError
			if errors.As(err, &de) {
				s.invalid(de)
				continue
			}
			s.readErr = s.endError(err)
			return
		}
		s.route(msg)
	}
}

// eacher is a connection that hands each message to a function on the
// goroutine that read it: a transport.Stream (one reading goroutine) or
// an HTTP connection (one per response stream, so that route runs on
// several at once).
type eacher interface {
	Each(ctx context.Context, fn func(msg jsonrpc.Message, err error, detach func())) error
}

// failedRequest is the error a connection reads in place of the answer
// to one request that failed on the way while the connection lives on,
// such as an HTTP request whose sign-in failed after it was written.
type failedRequest interface {
	error
	FailedRequest() jsonrpc.ID
}

// failed fails the call a failedRequest err names with it, and reports
// whether err was one.
func (s *Session) failed(err error) bool {
	var f failedRequest
	if !errors.As(err, &f) {
		return false
	}
	s.deliver(f.FailedRequest(), reply{err: err})
	return true
}

// endError classifies the error that ended reading.
func (s *Session) endError(err error) error {
	switch {
	case s.life.Err() != nil || errors.Is(err, transport.ErrClosed):
		return ErrClosed
	case errors.Is(err, io.EOF):
		return ErrDisconnected
	}
	return fmt.Errorf("%w: %w", ErrDisconnected, err)
}

// route handles one message read.
func (s *Session) route(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Response:
		if !s.deliver(m.ID, reply{resp: m}) {
			s.unawaited(m)
		}
	case *jsonrpc.Request:
		s.serve(m)
	case *jsonrpc.Notification:
		s.notified(m)
	default:
		s.problem("the server sent a batch, which a server never sends unasked")
	}
}

// unawaited records a response that answers nothing awaited.
func (s *Session) unawaited(m *jsonrpc.Response) {
	if !m.ID.IsValid() && m.Error != nil {
		s.problem("the server answered a message it could not read: error %d: %s", m.Error.Code, m.Error.Message)
		return
	}
	s.problem("a response to id %s, which no request awaits", m.ID)
}

// invalid handles a message that could not be decoded: it is recorded,
// then the call it names, if one waits, fails with it. In that order: a
// caller that reads Problems once its call failed finds it there.
func (s *Session) invalid(de *jsonrpc.DecodeError) {
	if de.ID.IsValid() {
		s.problem("an invalid message with id %s: %s", de.ID, de.Err.Message)
		s.deliver(de.ID, reply{err: fmt.Errorf("%w: %w", ErrBadAnswer, de)})
		return
	}
	s.problem("an invalid message: %s", de.Err.Message)
}

// deliver hands r to the call awaiting id. It reports whether the id was
// awaited, or given up (a late answer, dropped).
func (s *Session) deliver(id jsonrpc.ID, r reply) bool {
	key := id.Key()
	s.mu.Lock()
	ch, ok := s.pending[key]
	delete(s.pending, key)
	_, late := s.abandoned[key]
	delete(s.abandoned, key)
	s.mu.Unlock()
	if ok {
		ch <- r // buffered: never blocks
	}
	return ok || late
}

// forget stops awaiting key; abandon keeps it so that a late answer is
// dropped quietly. It reports whether the call was still awaited (false:
// its reply was delivered meanwhile).
func (s *Session) forget(key string, abandon bool) bool {
	s.mu.Lock()
	defer s.mu.Unlock()
	if _, ok := s.pending[key]; !ok {
		return false
	}
	delete(s.pending, key)
	if abandon {
		if len(s.abandoned) >= maxAbandoned {
			clear(s.abandoned)
		}
		s.abandoned[key] = struct{}{}
	}
	return true
}

// roundTrip sends one request and waits for its response, the end of the
// connection or the end of ctx. When ctx ends first and cancel is set, the
// server gets notifications/cancelled for the request.
func (s *Session) roundTrip(ctx context.Context, method string, params json.RawMessage, cancel bool) (*jsonrpc.Response, error) {
	if err := ctx.Err(); err != nil {
		return nil, fmt.Errorf("client: %s: %w", method, err)
	}
	id := jsonrpc.Int64ID(s.nextID.Add(1))
	key := id.Key()
	ch := replyChans.Get().(chan reply)
	s.mu.Lock()
	s.pending[key] = ch
	s.mu.Unlock()
	sent(ctx, id)
	select {
	case <-s.readEnd:
		s.forget(key, false)
		return nil, fmt.Errorf("client: %s: %w", method, s.readErr)
	default:
	}
	if err := s.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: params}); err != nil {
		s.forget(key, false)
		return nil, fmt.Errorf("client: sending %s: %w", method, s.writeError(err))
	}
	select {
	case r := <-ch:
		replyChans.Put(ch) // its one reply taken: nothing is sent on it again
		return r.resp, wrap(method, r.err)
	case <-s.readEnd:
		select {
		case r := <-ch: // delivered before reading ended
			return r.resp, wrap(method, r.err)
		default:
		}
		s.forget(key, false)
		return nil, fmt.Errorf("client: %s: %w", method, s.readErr)
	case <-ctx.Done():
		if !s.forget(key, true) {
			r := <-ch // delivered meanwhile: it is sent already
			return r.resp, wrap(method, r.err)
		}
		if cancel {
			s.cancelRequest(id, context.Cause(ctx))
		}
		return nil, fmt.Errorf("client: %s: no answer: %w", method, ctx.Err())
	}
}

// replyChans are the channels a call awaits its reply on, buffered for
// one: each is given to one call at a time, and back once its reply was
// taken.
var replyChans = sync.Pool{New: func() any { return make(chan reply, 1) }}

// wrap names the method in a reply's error.
func wrap(method string, err error) error {
	if err == nil {
		return nil
	}
	return fmt.Errorf("client: %s: %w", method, err)
}

// writeError classifies a write failure.
func (s *Session) writeError(err error) error {
	if s.life.Err() != nil {
		return ErrClosed
	}
	var lost interface{ Lost() bool }
	if errors.Is(err, transport.ErrClosed) || errors.Is(err, transport.ErrPeerGone) || (errors.As(err, &lost) && lost.Lost()) {
		return fmt.Errorf("%w: %w", ErrDisconnected, err)
	}
	return err
}

// cancelRequest tells the server the client gave up on id; it waits at
// most cancelWriteTimeout for output space.
func (s *Session) cancelRequest(id jsonrpc.ID, cause error) {
	reason := "the client stopped waiting"
	if cause != nil {
		reason += ": " + cause.Error()
	}
	params, err := json.Marshal(protocol.CancelledNotificationParams{RequestID: id, Reason: reason})
	if err != nil {
		return
	}
	ctx, cancel := context.WithTimeout(s.life, cancelWriteTimeout)
	defer cancel()
	s.conn.Write(ctx, &jsonrpc.Notification{Method: protocol.NotificationCancelled, Params: params})
}

// notified handles a notification: a cancellation of one of the server's
// requests stops its handler, a progress notification goes to its
// watcher (WatchProgress); every notification then goes to
// Options.OnNotification.
func (s *Session) notified(n *jsonrpc.Notification) {
	// An HTTP connection routes each response stream on its own
	// goroutine: the notifications are handled one at a time all the same.
	s.notifyMu.Lock()
	defer s.notifyMu.Unlock()
	if n.Method == protocol.NotificationCancelled {
		var p struct {
			RequestID jsonrpc.ID `json:"requestId"`
		}
		if json.Unmarshal(n.Params, &p) == nil && p.RequestID.IsValid() {
			s.stopServing(p.RequestID.Key())
		}
	}
	if isProgress(n) {
		s.progressed(n)
	}
	if f := s.opts.OnNotification; f != nil {
		f(n)
	}
}
