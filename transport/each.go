package transport

import (
	"context"
	"io"
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// Each implements FastStream: it reads messages and calls fn with each
// on the goroutine that read it, which saves the hand-off from the reader
// goroutine to a goroutine calling Read: the first message a connection
// receives after a quiet spell is handled without waiting for another
// goroutine to wake up. Read after Each returns io.EOF; a second Each
// panics.
func (s *Stream) Each(ctx context.Context, fn func(msg jsonrpc.Message, err error, detach func())) error {
	started := false
	s.eachOnce.Do(func() {
		s.fn = fn
		close(s.attached)
		started = true
	})
	if !started {
		panic("transport: Stream.Each called twice")
	}
	var err error
	select {
	case <-s.readDone:
		if err = s.readErr; err == nil {
			err = ErrClosed
		} else if err == io.EOF {
			err = nil
		}
	case <-ctx.Done():
		err = ctx.Err()
	case <-s.closing:
		err = ErrClosed
	}
	s.callMu.Lock()
	s.stopped = true
	s.callMu.Unlock()
	return err
}

// reading is the state of one goroutine while it is the stream's reader.
type reading struct {
	s        *Stream
	detachFn func() // detach, made once per goroutine

	mu       sync.Mutex
	inCall   bool // the function is running for the current message
	detached bool // and it detached
}

// call runs Each's function for one message under callMu, so that Each
// returns only once no call is running on the reader. It reports whether
// this goroutine reads on.
func (s *Stream) call(rd *reading, res readResult) (goOn bool) {
	s.callMu.Lock()
	if s.stopped {
		s.callMu.Unlock()
		return false
	}
	rd.mu.Lock()
	rd.inCall, rd.detached = true, false
	rd.mu.Unlock()
	s.fn(res.msg, res.err, rd.detachFn)
	rd.mu.Lock()
	rd.inCall = false
	detached := rd.detached
	rd.mu.Unlock()
	if detached {
		return false // detach released callMu; another goroutine reads
	}
	s.callMu.Unlock()
	return true
}

// detach hands reading to a new goroutine while the current message's
// function goes on.
func (rd *reading) detach() {
	rd.mu.Lock()
	defer rd.mu.Unlock()
	if !rd.inCall || rd.detached {
		return
	}
	rd.detached = true
	rd.s.out.wake() // lines held for this reader go out with the writer
	rd.s.callMu.Unlock()
	go rd.s.readLoop()
}
