package transport

import (
	"bufio"
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"os"
	"sync"
	"sync/atomic"
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
	lr        lineReader    // used by the one goroutine reading at a time
	readDone  chan struct{} // closed when reading has ended
	readErr   error         // why reading ended (io.EOF: cleanly), set before readDone closes
	inputDone chan struct{} // closed by endInput
	endOnce   sync.Once
	closing   chan struct{}
	closeOnce sync.Once
	closeErr  error

	// Each's state (see each.go).
	eachOnce sync.Once
	attached chan struct{} // closed once Each has set fn
	fn       func(msg jsonrpc.Message, err error, detach func())
	callMu   sync.Mutex // held while fn runs on the reading goroutine
	stopped  bool       // Each has returned: fn is never called again (guarded by callMu)

	cur        atomic.Pointer[reading] // the goroutine reading now (see moreInput)
	heldBuf    []byte                  // the reader's buffer for flushHeld
	out        outQueue
	writerDone chan struct{}
	writable   func() bool // whether a short line can be written at once; nil: never asked (see WriteNow)
}

var _ FastStream = (*Stream)(nil)

// NewStream starts a connection that reads messages from r and writes them
// to w. If r or w implement io.Closer, Close closes them.
func NewStream(r io.Reader, w io.Writer, opts Options) *Stream {
	s := &Stream{
		r:          r,
		w:          w,
		opts:       opts,
		in:         make(chan readResult),
		readDone:   make(chan struct{}),
		attached:   make(chan struct{}),
		inputDone:  make(chan struct{}),
		closing:    make(chan struct{}),
		writerDone: make(chan struct{}),
	}
	s.out.init(opts.MaxQueuedBytes)
	s.writable = writableCheck(w)
	s.lr = lineReader{br: bufio.NewReaderSize(r, 64<<10), max: opts.maxMessage()}
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

// InputDone implements FastStream: the channel is closed once the reader
// met EOF or a read error, the stream was closed, or, for a pipe or socket
// read through an *os.File on Linux, the peer closed its end while lines
// it sent are still unread. The last case is what lets a server that is
// blocked writing to a peer which stopped reading notice that the peer
// went away.
func (s *Stream) InputDone() <-chan struct{} { return s.inputDone }

// endInput closes InputDone's channel once.
func (s *Stream) endInput() { s.endOnce.Do(func() { close(s.inputDone) }) }

// Write implements Conn.
func (s *Stream) Write(ctx context.Context, msg jsonrpc.Message) error {
	bp := getBuf()
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > bodyThreshold {
		// A large result is written from its own bytes, not copied again.
		*bp = jsonrpc.AppendResponseHead((*bp)[:0], r.ID)
		return s.out.push(ctx, outItem{bp: bp, body: r.Result}, s.closing, false)
	}
	if err := appendLine(bp, msg); err != nil {
		return err
	}
	return s.out.push(ctx, outItem{bp: bp}, s.closing, false)
}

// appendLine encodes msg as one line into the pooled buffer bp, returning
// the buffer to the pool when msg cannot be encoded.
func appendLine(bp *[]byte, msg jsonrpc.Message) error {
	b, err := jsonrpc.AppendMessage((*bp)[:0], msg)
	if err != nil {
		putBuf(bp)
		return err
	}
	*bp = append(b, '\n')
	return nil
}

// WriteNow implements FastStream. A short line (at most 4 KiB) is
// written on the caller's goroutine when nothing is queued or being
// written and the output has room for it now (a pipe or socket, asked
// with poll(2) on Linux), and queued as Write queues it otherwise. While
// Each's function runs on the reader and the next line is already read,
// the line is queued instead, and the reader writes the queued lines
// together once it has no whole line left: under pipelined load, answers
// are coalesced without waking the writer goroutine.
func (s *Stream) WriteNow(ctx context.Context, msg jsonrpc.Message) error {
	if r, ok := msg.(*jsonrpc.Response); ok && r.Error == nil && len(r.Result) > atomicWrite {
		return s.Write(ctx, msg)
	}
	bp := getBuf()
	if err := appendLine(bp, msg); err != nil {
		return err
	}
	if s.moreInput() {
		// The reader has the next line already: this line waits in the
		// queue, and the reader writes it with the others before it
		// waits for input (flushHeld), so that the answers to a run of
		// pipelined requests go out in one write, not one each.
		if testHookHold != nil {
			testHookHold()
		}
		err := s.out.push(ctx, outItem{bp: bp}, s.closing, true)
		if err == nil && !s.moreInput() {
			// Written from another goroutine than the reader's (a call
			// that detached, a timer), the line may have been queued after
			// the reader last looked for held lines and began to wait for
			// input: the writer takes it.
			s.out.wake()
		}
		return err
	}
	direct := false
	if s.writable != nil && len(*bp) <= atomicWrite {
		var err error
		if direct, err = s.out.claim(s.closing); err != nil {
			putBuf(bp)
			return err
		}
		if direct && !s.writable() {
			s.out.unclaim(s.closing)
			direct = false
		}
	}
	if !direct {
		return s.out.push(ctx, outItem{bp: bp}, s.closing, false)
	}
	s.fail(writeAll(s.w, *bp))
	putBuf(bp)
	s.out.unclaim(s.closing)
	return s.out.Err()
}

// testHookHold, when set by a test, runs in WriteNow between deciding to
// hold a line for the reader and queueing it.
var testHookHold func()

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

// lineBuffered reports whether a whole line is buffered, so that reading
// the next one will not wait for the peer. Only the reading goroutine, or
// another while Each's function runs attached on it (see moreInput), may
// ask: the buffer is the reader's alone.
func (s *Stream) lineBuffered() bool {
	br := s.lr.br
	b, _ := br.Peek(br.Buffered())
	return bytes.IndexByte(b, '\n') >= 0
}

// moreInput reports whether Each's function is running on the reader,
// which has not detached, and a whole next line is already buffered: the
// reader will run the function again without waiting for the peer.
func (s *Stream) moreInput() bool {
	rd := s.cur.Load()
	if rd == nil {
		return false
	}
	rd.mu.Lock()
	defer rd.mu.Unlock()
	return rd.inCall && !rd.detached && s.lineBuffered()
}

// flushHeld writes the lines held for the reader (see WriteNow) on the
// reader's goroutine, in writes of at most atomicWrite bytes each made
// when the output has room for one now; what is left, it leaves to the
// writer goroutine.
func (s *Stream) flushHeld() {
	for s.writable != nil && s.out.held.Load() && s.writable() {
		batch := s.out.takeSmall(atomicWrite)
		if batch == nil {
			break
		}
		s.heldBuf = s.writeBatch(batch, s.heldBuf[:0])
		s.out.releaseHeld(batch, s.closing)
	}
	if s.out.held.Swap(false) {
		s.out.wake()
	}
}

// deliver hands one message, or a *jsonrpc.DecodeError, to Read, or to
// Each's function once Each is serving. It reports whether reading goes on
// on this goroutine: not when the stream is closing or Each has stopped,
// and not when the function detached (another goroutine reads on).
func (s *Stream) deliver(rd *reading, res readResult) (goOn bool) {
	select {
	case <-s.attached:
		return s.call(rd, res)
	default:
	}
	select {
	case s.in <- res:
		return true
	case <-s.attached:
		return s.call(rd, res)
	case <-s.closing:
		return false
	}
}

// readLoop reads lines and delivers them until the input ends, the stream
// closes, or a function it delivered to detached (see Each): then the
// goroutine that detached is no longer the reader, and a new one runs
// readLoop from where it stopped.
func (s *Stream) readLoop() {
	rd := &reading{s: s}
	rd.detachFn = rd.detach
	s.cur.Store(rd)
	for {
		if s.out.held.Load() && !s.lineBuffered() {
			s.flushHeld() // before the read may wait for the peer
		}
		l, err := s.lr.next()
		if err != nil {
			s.endRead(err)
			return
		}
		var res readResult
		if l.oversize {
			res.err = jsonrpc.OversizeError(l.data, s.lr.max)
		} else {
			res.msg, res.err = jsonrpc.Decode(l.data)
		}
		if !s.deliver(rd, res) {
			if !rd.detached {
				s.endRead(nil)
			}
			return // after detaching, another goroutine reads on
		}
	}
}

// endRead ends reading: a read error other than io.EOF is handed to Read
// first, then Read sees io.EOF and Each returns the error (io.EOF when the
// input ended cleanly, nil when reading stopped for Close or Each).
func (s *Stream) endRead(err error) {
	if err != nil && !errors.Is(err, io.EOF) {
		select {
		case <-s.attached:
		default:
			select {
			case s.in <- readResult{err: err}:
			case <-s.attached:
			case <-s.closing:
			}
		}
	}
	s.out.wake() // lines held for this reader go out with the writer
	s.readErr = err
	close(s.readDone)
	close(s.in)
	s.endInput()
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
