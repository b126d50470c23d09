package transport

import (
	"context"
	"errors"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Conn is a message-level connection.
type Conn interface {
	// Read returns the next message. It is not safe for concurrent use:
	// one goroutine reads. A message that could not be decoded is returned
	// as a *jsonrpc.DecodeError, which is not fatal: the caller answers it
	// and reads on. Read returns io.EOF when the peer closed its side
	// cleanly, ErrClosed after Close, and ctx.Err() when ctx is done first.
	Read(ctx context.Context) (jsonrpc.Message, error)

	// Write queues one message to be sent as one whole line. It is safe for
	// concurrent use; messages from one goroutine go out in the order they
	// were written. Write blocks only while the output queue is full, and
	// returns the first write error the connection met, if any.
	Write(ctx context.Context, msg jsonrpc.Message) error

	// Close flushes what was queued, then closes both directions. It is
	// idempotent and unblocks a pending Read. It returns the first error
	// met while writing, if any: output was lost.
	Close() error
}

// ErrClosed is returned by operations on a closed connection.
var ErrClosed = errors.New("transport: connection closed")

// ErrPeerGone is matched (with errors.Is) by the error Write or Close
// returns when output was dropped after the peer's input had ended: a write
// failed then (the peer closed its reading end too), or Close could not
// flush the queue within its timeout (the peer stopped reading). A server
// shutting down treats it as the peer's departure, not as its own failure.
var ErrPeerGone = errors.New("transport: output dropped: the peer went away or stopped reading after its input ended")

// FastStream is a Conn that a server (mcp.Server.Serve) can serve
// without handing each message from one goroutine to another. Stream
// implements it. A Conn of your own need not: a server serves any Conn
// correctly through Read and Write alone. What a Conn gains by
// implementing FastStream:
//
//   - Each: every message is handled on the goroutine that read it, and a
//     call may run there too (detaching reading from it if it turns out
//     slow), so that a lone call is read, run and answered without waking
//     another goroutine. Over Read, every call that is not a cheap
//     method runs on a worker goroutine: a hand-off each way.
//   - WriteNow: the answer of such a call is written on the goroutine that
//     has it, without waking a writer goroutine.
//   - InputDone: the server learns that the peer's input ended before it
//     has read every line, and stops waiting for output space the peer
//     may never make (shutdown is then never held up by a peer that
//     stopped reading).
//
// A stream is read either with Each, once, or with Read, not both.
type FastStream interface {
	Conn

	// Each reads messages and calls fn with each on the goroutine that
	// read it, or with the *jsonrpc.DecodeError of a line that could not
	// be decoded (msg is then nil; the error is not fatal). The next
	// message is not read until fn returns or detaches: detach moves
	// reading to another goroutine at once, and fn may then run as long
	// as it needs. detach may be called from any goroutine, any number of
	// times, while fn runs; once fn has returned, a call does nothing.
	//
	// Each returns once the input ends (nil when it ended cleanly,
	// otherwise the read error), ctx is done (ctx.Err()) or the stream is
	// closed (ErrClosed). When it returns, fn is not running on the
	// reading goroutine and is never called again; a call that detached
	// may still be running.
	Each(ctx context.Context, fn func(msg jsonrpc.Message, err error, detach func())) error

	// WriteNow is Write for a message that should not wait for a writer
	// goroutine to wake: when the output can take the line at once, it is
	// written on the caller's goroutine. It never waits for the peer to
	// read, so any goroutine may call it, the one running Each's function
	// included. Messages from one goroutine go out in order, whichever of
	// Write and WriteNow wrote them.
	WriteNow(ctx context.Context, msg jsonrpc.Message) error

	// InputDone returns a channel that is closed once the peer's input has
	// ended: reading met the end of input or an error, the connection was
	// closed, or the peer went away while lines it sent are still unread.
	InputDone() <-chan struct{}
}
