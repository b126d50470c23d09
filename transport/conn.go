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
