package httpconn

import (
	"context"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// Each is Read without the hand-off: it hands every message the server
// sends (or the *jsonrpc.DecodeError of one that could not be read) to fn
// on the goroutine that read it, a request's or the GET stream's, in the
// order its stream carried them; an answer then reaches its caller without
// waking a reading goroutine. fn runs on several goroutines at once, one
// per stream, and must not block. Each returns once the Conn breaks (its
// error, after the messages already read), closes (transport.ErrClosed)
// or ctx ends; when it returns, fn is not running and is never called
// again, and later messages are dropped. Read is not used once Each runs;
// Each is called once. detach does nothing.
func (c *Conn) Each(ctx context.Context, fn func(msg jsonrpc.Message, err error, detach func())) error {
	c.eachMu.Lock()
	c.each = fn
	c.eachMu.Unlock()
	defer func() {
		c.eachMu.Lock() // waits for the calls of fn in progress
		c.each, c.eachDone = nil, true
		c.eachMu.Unlock()
	}()
	for {
		select {
		case it := <-c.inbox: // delivered before Each began
			fn(it.msg, it.err, noDetach)
		case <-c.broken:
			for {
				select {
				case it := <-c.inbox:
					fn(it.msg, it.err, noDetach)
				default:
					return c.brokenErr
				}
			}
		case <-c.life.Done():
			return transport.ErrClosed
		case <-ctx.Done():
			return ctx.Err()
		}
	}
}

// noDetach is the detach of Each's function: a Conn's reading goroutines
// are its streams' own, and need no replacement.
func noDetach() {}

// eaching reports whether Each runs.
func (c *Conn) eaching() bool {
	c.eachMu.RLock()
	defer c.eachMu.RUnlock()
	return c.each != nil
}

// handTo calls Each's function with one message and reports true when
// Each runs; done is true when Each has returned (the message is dropped).
func (c *Conn) handTo(msg jsonrpc.Message, err error) (handed, done bool) {
	c.eachMu.RLock()
	defer c.eachMu.RUnlock()
	if c.eachDone {
		return false, true
	}
	if c.each == nil {
		return false, false
	}
	c.each(msg, err, noDetach)
	return true, false
}
