package mcp

import (
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// abandonWait bounds how long shutdown waits, after answering and
// cancelling the calls left, for handlers that ignore their context.
const abandonWait = 250 * time.Millisecond

// shutdown runs once reading has stopped: in-flight calls get the grace
// period to finish; the rest are answered with an error and cancelled.
func (ss *session) shutdown() {
	ss.endSubscriptions()
	close(ss.stopping)
	done := make(chan struct{})
	go func() { ss.wg.Wait(); close(done) }()
	select {
	case <-done:
		return
	case <-time.After(ss.srv.opts.ShutdownGrace):
	}
	for _, c := range ss.inFlight() {
		c.finish(errorResponse(c.id, jsonrpc.NewError(jsonrpc.CodeInternalError,
			"server shutting down: the request did not finish in time")))
		c.cancel(ErrShuttingDown)
	}
	select {
	case <-done:
	case <-time.After(abandonWait):
		ss.log.Warn("mcp: handlers still running after shutdown; abandoning them")
	}
}
