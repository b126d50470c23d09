package mcp

import (
	"context"
	"errors"
	"log/slog"
	"sync"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// session is the state of one connection.
type session struct {
	srv  *Server
	conn transport.Conn
	log  *slog.Logger

	mu          sync.Mutex
	initialized bool
	version     string
	rev         protocol.Revision
	clientInfo  json.RawMessage
	clientCaps  json.RawMessage
	logLevel    string                      // set by logging/setLevel
	caps        protocol.ServerCapabilities // declared in the initialize result
	caller      *auth.Principal             // who sent initialize (the session's caller, for the middleware)
	calls       map[string]*call            // in flight, by call key (see track)
	arrivals    uint64                      // stateless: requests tracked so far
	stateless   bool                        // a stateless endpoint (see EndpointOptions)

	// fast is the connection when it implements transport.FastStream:
	// it is read with Each and written with WriteNow (nil: Read and Write).
	fast  transport.FastStream
	sched scheduler // where and when calls run (see scheduler)

	// answerNow and answerQueued are writeNow and write as responders,
	// bound once so that a call does not allocate them.
	answerNow, answerQueued responder
	unsolicited             func(jsonrpc.Message) // an endpoint's stream for messages outside any request
	logLimit                *rateLimiter

	subsMu   sync.Mutex
	subs     []*subscription // open listen streams, in the order opened
	resSubs  map[string]bool // legacy resources/subscribe, by URI
	out      outbound        // requests sent to the client, awaiting answers
	roots    rootsCache      // the legacy client's roots
	urlIDs   []string        // URL elicitations awaiting completion (guarded by srv.urlMu)
	stopping chan struct{}   // closed when shutdown starts

	// listeners counts the open listen streams of each caller on a
	// stateless endpoint, by caller key, guarded by subsMu (see
	// admitListen); callers with none are not in it.
	listeners map[string]int

	werrMu      sync.Mutex
	werr        error
	stopReading context.CancelFunc // set by Serve

	// outCtx bounds every wait for output space. Serve cancels it once the
	// session is going away (ctx done, input ended, or a write failed), so
	// that no write can wedge the read loop or shutdown behind a peer that
	// stopped reading: from then on what cannot be queued is dropped.
	outCtx  context.Context
	dropped atomic.Int64 // messages dropped for want of output space
}

func newSession(s *Server, conn transport.Conn) *session {
	fast, _ := conn.(transport.FastStream)
	ss := &session{
		fast:     fast,
		srv:      s,
		conn:     conn,
		log:      s.log,
		calls:    map[string]*call{},
		logLimit: newRateLimiter(s.opts.LogRate, 2*s.opts.LogRate, s.log),
		stopping: make(chan struct{}),
		outCtx:   context.Background(),
	}
	ss.sched = newScheduler(ss, &s.opts)
	ss.sched.detachable = fast != nil
	ss.answerNow, ss.answerQueued = ss.writeNow, ss.write
	return ss
}

// write sends a response; a nil response (a cancelled call) sends nothing.
func (ss *session) write(r *jsonrpc.Response) {
	if r == nil {
		return
	}
	ss.send(r)
}

// writeNow is write for a response that should not wait for the writer
// goroutine to wake up (an inline method's, a call run on the reader): on a
// connection that allows it (transport.FastStream.WriteNow), it is written on
// the caller's goroutine when nothing else is being written and the
// output has room for it at once, and queued as write does otherwise.
// Answers of calls run by workers are left to the writer goroutine, which
// coalesces them under load.
func (ss *session) writeNow(r *jsonrpc.Response) {
	if r == nil {
		return
	}
	if ss.fast == nil {
		ss.send(r)
		return
	}
	ss.record(ss.fast.WriteNow(ss.outCtx, r))
}

// send writes any message and records the first write error. A message
// that found no output space once the session was going away is dropped
// and counted, not treated as a write failure.
func (ss *session) send(m jsonrpc.Message) {
	if ss.conn == nil { // an endpoint
		if ss.unsolicited != nil {
			ss.unsolicited(m)
		}
		return
	}
	ss.record(ss.conn.Write(ss.outCtx, m))
}

// record notes the outcome of a write (see send).
func (ss *session) record(err error) {
	if err != nil {
		if ss.outCtx.Err() != nil || errors.Is(err, transport.ErrClosed) || errors.Is(err, transport.ErrPeerGone) {
			ss.dropped.Add(1)
			return
		}
		ss.werrMu.Lock()
		if ss.werr == nil {
			ss.werr = err
			ss.log.Error("mcp: write failed; no longer reading", "err", err)
			if ss.stopReading != nil {
				ss.stopReading()
			}
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
func (ss *session) negotiated() protocol.Revision {
	ss.mu.Lock()
	defer ss.mu.Unlock()
	return ss.rev
}

// The session runs the calls its scheduler schedules (jobRunner).

// admit prepares a call the scheduler accepted: a worker's answer on the
// session's own stream goes through the writer goroutine, which coalesces
// answers under load, and the call's Options.CallTimeout starts.
func (ss *session) admit(j job, onWorker bool) {
	if j.streamed && onWorker {
		j.c.respond = ss.answerQueued
	}
	if d := ss.srv.opts.CallTimeout; d > 0 {
		j.c.startDeadline(d)
	}
}

// execute runs a scheduled call, unless it was cancelled while it waited:
// that one is answered with the cause.
func (ss *session) execute(j job) *jsonrpc.Response {
	if j.c.ctx.Err() != nil {
		return errorResponse(j.r.id, context.Cause(j.c.ctx))
	}
	return ss.run(j.m, j.c, j.r)
}

// answer ends a scheduled call with its answer.
func (ss *session) answer(j job, r *jsonrpc.Response) { j.c.complete(r) }

// startsTask reports whether a scheduled call starts a task.
func (ss *session) startsTask(j job) bool { return ss.taskCall(j.r) }
