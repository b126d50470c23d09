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
	readErr := ss.readLoop(readCtx)
	s.sessMu.Lock()
	delete(s.sessions, ss)
	s.sessMu.Unlock()
	ss.shutdown()
	close(ss.jobs) // idle workers exit; none is added after reading stopped
	closeErr := conn.Close()
	if readErr != nil {
		return readErr
	}
	if err := ss.writeErr(); err != nil {
		return err
	}
	if closeErr != nil && !errors.Is(closeErr, transport.ErrClosed) {
		return closeErr
	}
	return nil
}

// readLoop reads and dispatches messages until the connection ends. It never
// waits on a handler.
func (ss *session) readLoop(ctx context.Context) error {
	for {
		msg, err := ss.conn.Read(ctx)
		if err != nil {
			var de *jsonrpc.DecodeError
			if errors.As(err, &de) {
				ss.write(de.Response())
				continue
			}
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		ss.handle(msg)
	}
}

// handle routes one message read from the connection.
func (ss *session) handle(msg jsonrpc.Message) {
	switch m := msg.(type) {
	case *jsonrpc.Request:
		ss.dispatch(m, ss.write)
	case *jsonrpc.Notification:
		ss.notify(m)
	case *jsonrpc.Response:
		ss.log.Debug("mcp: ignoring a response to a request never sent", "id", m.ID.String())
	case jsonrpc.Batch:
		ss.batch(m)
	}
}
