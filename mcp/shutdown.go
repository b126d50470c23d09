package mcp

import (
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// shutdown runs once reading has stopped: in-flight calls get the grace
// period to finish; the rest are answered with an error and cancelled.
// Idle workers end.
func (ss *session) shutdown() {
	ss.endSubscriptions()
	close(ss.stopping)
	if !ss.sched.close(ss.srv.opts.ShutdownGrace, ss.abandonCalls) {
		ss.log.Warn("mcp: handlers still running after shutdown; abandoning them")
	}
}

// abandonCalls answers the calls still in flight with an error and
// cancels them, once the grace period has passed.
func (ss *session) abandonCalls() {
	for _, c := range ss.inFlight() {
		c.finish(errorResponse(c.id, jsonrpc.NewError(jsonrpc.CodeInternalError,
			"server shutting down: the request did not finish in time")))
		c.cancel(ErrShuttingDown)
	}
}
