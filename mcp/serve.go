package mcp

import (
	"context"
	"errors"
	"io"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// Serve serves one connection until the peer closes it, ctx is done, or an
// I/O error occurs. Either way it stops reading, gives in-flight calls
// Options.ShutdownGrace to finish and have their responses written, answers
// the rest with an error, and closes conn.
//
// Shutdown always wins over a peer that stopped reading: once ctx is done,
// the peer's input has ended (when conn reports it, as a transport.Stream
// does through InputDone) or a write failed, nothing waits for output space
// any more. Messages that cannot be queued then are dropped and counted in
// a warning, and so is output that fails or is not taken within the
// transport's flush timeout after the input ended (transport.ErrPeerGone);
// none of that is an error, since the peer went away without reading.
//
// Serve returns nil when the peer closed the connection or ctx was done, and
// the I/O error otherwise; a write error also stops the reading, since the
// peer can no longer receive answers.
func (s *Server) Serve(ctx context.Context, conn transport.Conn) error {
	ss := newSession(s, conn)
	s.sessMu.Lock()
	s.sessions[ss] = struct{}{}
	s.sessMu.Unlock()
	// A write error means the peer is gone: reading stops too.
	readCtx, stopReading := context.WithCancel(ctx)
	defer stopReading()
	ss.stopReading = stopReading
	outCtx, stopWaiting := context.WithCancel(context.Background())
	defer stopWaiting()
	ss.outCtx = outCtx
	go func() {
		select {
		case <-readCtx.Done():
		case <-ss.inputDone():
		case <-outCtx.Done():
		}
		stopWaiting()
	}()
	readErr := ss.readLoop(readCtx)
	s.sessMu.Lock()
	delete(s.sessions, ss)
	s.sessMu.Unlock()
	stopWaiting()  // also after a plain EOF on a conn without InputDone
	ss.out.close() // no answer can arrive now: release every waiting handler
	ss.forgetElicitations()
	ss.shutdown() // idle workers exit; none is added after reading stopped
	closeErr := conn.Close()
	if n := ss.dropped.Load(); n > 0 {
		ss.log.Warn("mcp: messages dropped at shutdown: the peer was not reading", "count", n)
	}
	if readErr != nil {
		return readErr
	}
	if err := ss.writeErr(); err != nil {
		return err
	}
	if errors.Is(closeErr, transport.ErrPeerGone) {
		ss.log.Warn("mcp: output dropped at shutdown: the peer was not reading", "err", closeErr)
		return nil
	}
	if closeErr != nil && !errors.Is(closeErr, transport.ErrClosed) {
		return closeErr
	}
	return nil
}

// readLoop reads and dispatches messages until the connection ends. It never
// waits on a handler for longer than detachAfter.
//
// Messages are routed on the goroutine that read them. On a connection
// that implements transport.FastStream, a call that needs a worker runs
// there too when no other call is in flight, or when no call has detached
// lately (see scheduler.mayRunHere and detacher.calm), and reading moves
// on to another goroutine (detach) if it is still running after
// detachAfter. So a lone call, and each call of a pipelined stream of fast
// ones, is read, run and answered without waking any goroutine on its way
// (see writeNow), like an inline method. Any other connection is read with
// Read (see readEach): its calls run on workers.
func (ss *session) readLoop(ctx context.Context) error {
	each := ss.readEach
	if ss.fast != nil {
		each = ss.fast.Each
	}
	err := each(ctx, func(msg jsonrpc.Message, err error, detach func()) {
		if err != nil {
			ss.answerUndecodable(err)
			return
		}
		if runHere := ss.handle(msg); runHere != nil {
			ss.sched.runOnReader(runHere, detach)
		}
	})
	ss.sched.readingEnded()
	if ctx.Err() != nil {
		return nil
	}
	return err
}

// readEach is transport.FastStream.Each for a Conn that is read with Read
// alone: it calls fn with each message, or with the *jsonrpc.DecodeError
// of a line that could not be decoded, and returns nil once the input
// ended cleanly (io.EOF), and the error that ended reading otherwise. Its
// calls cannot detach (detach is nil), so the scheduler runs no call on
// them (scheduler.detachable is false).
func (ss *session) readEach(ctx context.Context, fn func(jsonrpc.Message, error, func())) error {
	for {
		msg, err := ss.conn.Read(ctx)
		if err != nil {
			var de *jsonrpc.DecodeError
			if errors.As(err, &de) {
				fn(nil, err, nil)
				continue
			}
			if errors.Is(err, io.EOF) {
				return nil
			}
			return err
		}
		fn(msg, nil, nil)
	}
}

// inputDone returns the channel that is closed once the peer's input has
// ended, when the connection reports it (transport.FastStream.InputDone),
// or nil (never ready).
func (ss *session) inputDone() <-chan struct{} {
	if ss.fast == nil {
		return nil
	}
	return ss.fast.InputDone()
}

// answerUndecodable answers a line that could not be decoded.
func (ss *session) answerUndecodable(err error) {
	var de *jsonrpc.DecodeError
	if errors.As(err, &de) {
		ss.write(de.Response())
	}
}

// handle routes one message read from the connection. It returns the call
// dispatch leaves to the reader (see dispatch), or nil.
func (ss *session) handle(msg jsonrpc.Message) (runHere func()) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		_, runHere = ss.dispatch(m, nil, nil, nil)
	case *jsonrpc.Notification:
		ss.notify(m)
	case *jsonrpc.Response:
		if !ss.out.deliver(m) {
			ss.log.Debug("mcp: ignoring a response to no request awaited (never sent, answered already, or given up)", "id", m.ID.String())
		}
	case jsonrpc.Batch:
		runHere = ss.batch(m)
	}
	return runHere
}
