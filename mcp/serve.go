package mcp

import (
	"context"
	"errors"
	"io"
	"sync"
	"sync/atomic"
	"time"

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
		case <-inputDone(conn):
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
	ss.shutdown()
	close(ss.jobs) // idle workers exit; none is added after reading stopped
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

// inputDone returns conn's end-of-input channel, or nil (never ready) when
// conn does not report one.
func inputDone(conn transport.Conn) <-chan struct{} {
	if c, ok := conn.(interface{ InputDone() <-chan struct{} }); ok {
		return c.InputDone()
	}
	return nil
}

// eachReader is a connection that calls a function with each message on
// the goroutine that read it (transport.Stream.Each).
type eachReader interface {
	Each(ctx context.Context, fn transport.EachFunc) error
}

// nowWriter is a connection whose callers may write on their own goroutine
// (transport.Stream.WriteNow).
type nowWriter interface {
	WriteNow(ctx context.Context, msg jsonrpc.Message) error
}

// detachAfter is how long a call may run on the reader goroutine
// before reading moves to another goroutine (see readLoop).
const detachAfter = time.Millisecond

// detacher is the one timer of a session that detaches a call from the
// reader once it has run detachAfter. Arming a call does not touch the
// timer when it is already set: it records when the call started, and a
// firing that finds the current call younger than detachAfter sets the
// timer again for the rest, and the timer keeps ticking until the session
// has run no call on the reader for detacherIdle. So a busy session costs
// one timer event per detachAfter, not a timer reset per call (a reset
// that brings the deadline forward wakes the runtime's network poller, a
// futex call).
type detacher struct {
	// lastDetach is when a call last had to detach (UnixNano; 0 before
	// the first): see calm.
	lastDetach atomic.Int64

	mu      sync.Mutex
	timer   *time.Timer
	set     bool      // the timer will fire
	detach  func()    // the current call's, nil between calls
	since   time.Time // when the current call was armed
	armed   uint64    // counts arm calls: which call is current
	stopped bool      // reading ended: the timer is never set again
}

// arm makes a call whose detach is given the current one, and returns
// what disarm takes.
func (d *detacher) arm(detach func()) uint64 {
	now := time.Now()
	d.mu.Lock()
	defer d.mu.Unlock()
	d.armed++
	d.detach, d.since = detach, now
	if !d.set && !d.stopped {
		d.set = true
		if d.timer == nil {
			d.timer = time.AfterFunc(detachAfter, d.fire)
		} else {
			d.timer.Reset(detachAfter)
		}
	}
	return d.armed
}

// disarm forgets the call arm returned armed for once it is done, unless
// another call is current by now: a call that detached ends after the
// next call may have started on the new reader, and must not disarm
// that one. The timer keeps ticking until the session has been idle for
// detacherIdle. A firing that raced disarm detaches a later call early,
// which does no harm.
func (d *detacher) disarm(armed uint64) {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.armed == armed {
		d.detach = nil
	}
}

func (d *detacher) fire() {
	d.mu.Lock()
	detach := d.detach
	age := time.Since(d.since)
	switch {
	case d.stopped:
		d.mu.Unlock()
		return
	case detach != nil && age < detachAfter:
		d.timer.Reset(detachAfter - age) // the current call started after the timer was set
		d.mu.Unlock()
		return
	case detach == nil && age < detacherIdle:
		// Between two calls of a busy session: keep ticking, so that the
		// next arm finds the timer set.
		d.timer.Reset(detachAfter)
		d.mu.Unlock()
		return
	}
	d.set = false
	d.mu.Unlock()
	if detach != nil {
		d.lastDetach.Store(time.Now().UnixNano())
		detach()
	}
}

// calmAfter is how long after the last detach a call that is not alone
// may run on the reader again (see calm).
const calmAfter = 10 * detachAfter

// calm reports whether no call has had to detach from the reader for
// calmAfter. A detach moves calls to the worker pool while the one that
// detached runs, and under a pipelined load the pool would then keep them
// (every new call finds another in flight): one slow call, or one spell
// of the machine's, would cost a session 0.6× its throughput for as long
// as the load lasts. Once calm, every call runs on the reader while a
// worker slot is free (see session.mayRunHere). Within calmAfter of a
// detach, calls that are not alone go to the pool, so that a burst of slow
// calls does not pay detachAfter of the reader's time each.
func (d *detacher) calm() bool {
	last := d.lastDetach.Load()
	return last == 0 || time.Now().UnixNano()-last >= int64(calmAfter)
}

// stop stops the timer for good, when reading has ended.
func (d *detacher) stop() {
	d.mu.Lock()
	defer d.mu.Unlock()
	if d.timer != nil {
		d.timer.Stop()
	}
	d.detach = nil
	d.stopped = true
}

// detacherIdle is how long after the last call on the reader the
// detacher's timer stops: a quiet session has no timer events.
const detacherIdle = 10 * detachAfter

// readLoop reads and dispatches messages until the connection ends. It never
// waits on a handler for longer than detachAfter.
//
// On a connection that reads with Each, messages are routed on the reader
// goroutine itself; a call that needs a worker runs there too when no
// other call is in flight, or when no call has detached lately (see
// session.mayRunHere and detacher.calm), and reading moves on to another
// goroutine (detach) if it is still running after detachAfter. So a lone
// call, and each call of a pipelined stream of fast ones, is read, run and
// answered without waking any goroutine on its way (see writeNow), like an
// inline method.
func (ss *session) readLoop(ctx context.Context) error {
	if er, ok := ss.conn.(eachReader); ok {
		ss.detachable = true
		err := er.Each(ctx, func(msg jsonrpc.Message, err error, detach func()) {
			if err != nil {
				ss.answerUndecodable(err)
				return
			}
			if runHere := ss.handle(msg); runHere != nil {
				// Reading moves on if the call is not done soon, so that a
				// slow call never holds up a cancellation or the next
				// request for long.
				armed := ss.detacher.arm(detach)
				runHere()
				ss.detacher.disarm(armed)
			}
		})
		ss.detacher.stop()
		if ctx.Err() != nil {
			return nil
		}
		return err
	}
	for {
		msg, err := ss.conn.Read(ctx)
		if err != nil {
			if ss.answerUndecodable(err) {
				continue
			}
			if errors.Is(err, io.EOF) || ctx.Err() != nil {
				return nil
			}
			return err
		}
		if runHere := ss.handle(msg); runHere != nil {
			runHere()
		}
	}
}

// answerUndecodable answers a line that could not be decoded, reporting
// whether err was one.
func (ss *session) answerUndecodable(err error) bool {
	var de *jsonrpc.DecodeError
	if !errors.As(err, &de) {
		return false
	}
	ss.write(de.Response())
	return true
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
