package transport

import (
	"bufio"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// DefaultMaxMessageBytes is the default limit on one incoming message: 16 MiB.
const DefaultMaxMessageBytes = 16 << 20

// Options configures a Stream. The zero value is ready to use.
type Options struct {
	// MaxMessageBytes limits the size of one incoming line, excluding its
	// line ending. Zero means DefaultMaxMessageBytes.
	MaxMessageBytes int
	// MaxQueuedBytes bounds the output queue; Write blocks while the queue
	// holds more. Zero means 64 MiB.
	MaxQueuedBytes int
	// FlushTimeout bounds how long Close waits for queued output to be
	// written. Zero means one second.
	FlushTimeout time.Duration
}

func (o Options) maxMessage() int {
	if o.MaxMessageBytes > 0 {
		return o.MaxMessageBytes
	}
	return DefaultMaxMessageBytes
}

// readResult is what the reader goroutine hands to Read.
type readResult struct {
	msg jsonrpc.Message
	err error
}

// Stream is a Conn over an io.Reader and an io.Writer using
// newline-delimited framing. Create it with NewStream.
type Stream struct {
	r    io.Reader
	w    io.Writer
	opts Options

	in        chan readResult
	inputDone chan struct{} // closed by endInput
	endOnce   sync.Once
	closing   chan struct{}
	closeOnce sync.Once
	closeErr  error

	out        outQueue
	writerDone chan struct{}
}

var _ Conn = (*Stream)(nil)

// NewStream starts a connection that reads messages from r and writes them
// to w. If r or w implement io.Closer, Close closes them.
func NewStream(r io.Reader, w io.Writer, opts Options) *Stream {
	s := &Stream{
		r:          r,
		w:          w,
		opts:       opts,
		in:         make(chan readResult),
		inputDone:  make(chan struct{}),
		closing:    make(chan struct{}),
		writerDone: make(chan struct{}),
	}
	s.out.init(opts.MaxQueuedBytes)
	if f, ok := r.(*os.File); ok {
		watchHangup(f, s.closing, s.endInput)
	}
	go s.readLoop()
	go s.writeLoop()
	return s
}

// Read implements Conn.
func (s *Stream) Read(ctx context.Context) (jsonrpc.Message, error) {
	// Checked first: once closed, s.in may be ready too (closed by the
	// reader goroutine), and select would pick between them at random.
	select {
	case <-s.closing:
		return nil, ErrClosed
	default:
	}
	select {
	case res, ok := <-s.in:
		if !ok {
			return nil, io.EOF
		}
		return res.msg, res.err
	case <-s.closing:
		return nil, ErrClosed
	case <-ctx.Done():
		return nil, ctx.Err()
	}
}

// InputDone returns a channel that is closed once the peer's input has
// ended: the reader met EOF or a read error, the stream was closed, or, for
// a pipe or socket read through an *os.File on Linux, the peer closed its
// end while lines it sent are still unread. The last case is what lets a
// server that is blocked writing to a peer which stopped reading notice
// that the peer went away (see package doc).
func (s *Stream) InputDone() <-chan struct{} { return s.inputDone }

// endInput closes InputDone's channel once.
func (s *Stream) endInput() { s.endOnce.Do(func() { close(s.inputDone) }) }

// Write implements Conn.
func (s *Stream) Write(ctx context.Context, msg jsonrpc.Message) error {
	bp := getBuf()
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > bodyThreshold {
		// A large result is written from its own bytes, not copied again.
		*bp = jsonrpc.AppendResponseHead((*bp)[:0], r.ID)
		return s.out.push(ctx, outItem{bp: bp, body: r.Result}, s.closing)
	}
	b, err := jsonrpc.AppendMessage((*bp)[:0], msg)
	if err != nil {
		putBuf(bp)
		return err
	}
	*bp = append(b, '\n')
	return s.out.push(ctx, outItem{bp: bp}, s.closing)
}

// bodyThreshold is the result size above which Write queues the result's
// bytes as they are instead of copying them into the line buffer.
const bodyThreshold = 64 << 10

// Close implements Conn.
func (s *Stream) Close() error {
	s.closeOnce.Do(func() {
		close(s.closing)
		s.out.wake()
		timeout := s.opts.FlushTimeout
		if timeout <= 0 {
			timeout = time.Second
		}
		select {
		case <-s.writerDone:
		case <-time.After(timeout):
			s.closeErr = fmt.Errorf("%w (queued output not flushed within %v)", ErrPeerGone, timeout)
		}
		if err := s.out.Err(); err != nil && s.closeErr == nil {
			s.closeErr = err // the first write error: output was lost
		}
		if c, ok := s.w.(io.Closer); ok {
			if err := c.Close(); err != nil && s.closeErr == nil {
				s.closeErr = err
			}
		}
		if c, ok := s.r.(io.Closer); ok {
			c.Close()
		}
	})
	return s.closeErr
}

// deliver hands one read result to Read, or gives up when closing.
func (s *Stream) deliver(res readResult) bool {
	select {
	case s.in <- res:
		return true
	case <-s.closing:
		return false
	}
}

// readLoop is the one reader goroutine.
func (s *Stream) readLoop() {
	defer s.endInput()
	defer close(s.in)
	lr := lineReader{br: bufio.NewReaderSize(s.r, 64<<10), max: s.opts.maxMessage()}
	for {
		line, err := lr.next()
		if err != nil {
			if !errors.Is(err, io.EOF) {
				s.deliver(readResult{err: err})
			}
			return
		}
		if line.oversize {
			if !s.deliver(readResult{err: jsonrpc.OversizeError(line.data, lr.max)}) {
				return
			}
			continue
		}
		msg, derr := jsonrpc.Decode(line.data)
		if !s.deliver(readResult{msg: msg, err: derr}) {
			return
		}
	}
}

// writeLoop is the one writer goroutine.
func (s *Stream) writeLoop() {
	defer close(s.writerDone)
	var coalesce []byte
	for {
		batch, done := s.out.take(s.closing)
		if done {
			return
		}
		coalesce = s.writeBatch(batch, coalesce[:0])
		s.out.release(batch)
	}
}

// coalesceLimit is the largest buffer used to join small messages.
const coalesceLimit = 256 << 10

// writeBatch writes the queued messages with as few Write calls as it can.
func (s *Stream) writeBatch(batch []outItem, buf []byte) []byte {
	flush := func() {
		if len(buf) > 0 {
			s.fail(writeAll(s.w, buf))
			buf = buf[:0]
		}
	}
	for _, it := range batch {
		b := *it.bp
		if it.body != nil {
			buf = append(buf, b...)
			flush()
			s.fail(writeAll(s.w, it.body))
			buf = append(buf, bodyTail...)
			continue
		}
		if len(b) > coalesceLimit {
			flush()
			s.fail(writeAll(s.w, b))
			continue
		}
		if len(buf)+len(b) > coalesceLimit {
			flush()
		}
		buf = append(buf, b...)
	}
	flush()
	return buf
}

// fail records a write error; one met after the input ended means the peer
// went away, and is marked as ErrPeerGone.
func (s *Stream) fail(err error) {
	if err == nil {
		return
	}
	select {
	case <-s.inputDone:
		err = fmt.Errorf("%w: %w", ErrPeerGone, err)
	default:
	}
	s.out.fail(err)
}

func writeAll(w io.Writer, b []byte) error {
	_, err := w.Write(b)
	return err
}
