package main

import (
	"bufio"
	"bytes"
	"errors"
	"fmt"
	"io"
	"os"
	"os/exec"
	"strconv"
	"sync"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"
)

// errServerGone reports that the server's stdout closed while calls were
// outstanding or about to be sent.
var errServerGone = errors.New("server closed its stdout")

// errTimeout reports that a response did not arrive within the allowed time.
var errTimeout = errors.New("timed out waiting for the response")

// response is an inbound JSON-RPC message: a response to one of our calls,
// or a request or notification sent by the server.
type response struct {
	ID     json.RawMessage `json:"id"`
	Method string          `json:"method"`
	Result json.RawMessage `json:"result"`
	Error  *wireError      `json:"error"`
}

// wireError is a JSON-RPC error object.
type wireError struct {
	Code    int64  `json:"code"`
	Message string `json:"message"`
}

func (e *wireError) Error() string {
	return fmt.Sprintf("json-rpc error %d: %s", e.Code, e.Message)
}

// reply is what a call's callback receives: the response (when err is nil),
// when the request was sent and when the response line was read.
type reply struct {
	resp response
	sent time.Time
	recv time.Time
	err  error
}

// latency is the time from sending the request to reading its response.
func (r reply) latency() time.Duration { return r.recv.Sub(r.sent) }

// pendingCall is a request awaiting its response.
type pendingCall struct {
	sent time.Time
	done func(reply)
}

// anomalies counts inbound messages that were not answers to our calls.
type anomalies struct {
	badLines       atomic.Int64 // lines that were not a JSON-RPC message
	unmatched      atomic.Int64 // responses whose id matched no pending call
	serverRequests atomic.Int64 // requests from the server (answered -32601)
	notifications  atomic.Int64 // notifications from the server
}

// client drives one server process over its stdin and stdout.
// send, call and notify are safe for concurrent use; callbacks run on the
// reading goroutine and must not block.
type client struct {
	cmd    *exec.Cmd
	stdin  io.WriteCloser
	wmu    sync.Mutex // serialises writes to stdin and guards wbuf
	wbuf   []byte
	nextID atomic.Int64

	mu      sync.Mutex // guards pending and gone
	pending map[int64]pendingCall
	gone    error

	readDone chan struct{} // closed when the read loop has ended
	exited   chan error    // receives the result of cmd.Wait
	anom     anomalies
}

// startClient starts argv with piped stdin and stdout; the server's stderr
// goes to stderr.
func startClient(argv []string, stderr io.Writer) (*client, error) {
	cmd := exec.Command(argv[0], argv[1:]...)
	cmd.Stderr = stderr
	stdin, err := cmd.StdinPipe()
	if err != nil {
		return nil, err
	}
	stdout, err := cmd.StdoutPipe()
	if err != nil {
		return nil, err
	}
	if err := cmd.Start(); err != nil {
		return nil, err
	}
	c := &client{
		cmd:      cmd,
		stdin:    stdin,
		pending:  make(map[int64]pendingCall),
		readDone: make(chan struct{}),
		exited:   make(chan error, 1),
	}
	go c.readLoop(stdout)
	go func() {
		<-c.readDone // cmd.Wait must not run before reads are over
		c.exited <- cmd.Wait()
	}()
	return c, nil
}

// pid is the server's process id.
func (c *client) pid() int { return c.cmd.Process.Pid }

// send writes a request and arranges for done to be called exactly once
// with its reply. params must be a JSON value.
func (c *client) send(method string, params []byte, done func(reply)) error {
	id := c.nextID.Add(1)
	c.mu.Lock()
	if c.gone != nil {
		err := c.gone
		c.mu.Unlock()
		return err
	}
	c.pending[id] = pendingCall{sent: time.Now(), done: done}
	c.mu.Unlock()
	if err := c.write(id, method, params); err != nil {
		c.mu.Lock()
		_, still := c.pending[id]
		delete(c.pending, id)
		c.mu.Unlock()
		if still {
			return err
		}
		// The read loop failed the call already and called done.
		return nil
	}
	return nil
}

// call sends a request and waits up to timeout for its reply.
func (c *client) call(method string, params []byte, timeout time.Duration) (reply, error) {
	ch := make(chan reply, 1)
	if err := c.send(method, params, func(r reply) { ch <- r }); err != nil {
		return reply{}, err
	}
	t := time.NewTimer(timeout)
	defer t.Stop()
	select {
	case r := <-ch:
		return r, r.err
	case <-t.C:
		return reply{}, errTimeout
	}
}

// notify writes a notification.
func (c *client) notify(method string, params []byte) error {
	return c.write(0, method, params)
}

// write encodes one message (a notification when id is 0) and writes it to
// the server's stdin in a single call.
func (c *client) write(id int64, method string, params []byte) error {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	b := append(appendMessage(c.wbuf[:0], id, method, params), '\n')
	if cap(b) <= 64<<10 {
		c.wbuf = b // keep small buffers; let big ones be collected
	}
	_, err := c.stdin.Write(b)
	return err
}

// writeRaw writes one preformatted line, used to answer server requests.
func (c *client) writeRaw(line []byte) {
	c.wmu.Lock()
	defer c.wmu.Unlock()
	_, _ = c.stdin.Write(line)
}

// readLoop reads newline-delimited messages until stdout ends. Lines have
// no length limit.
func (c *client) readLoop(stdout io.Reader) {
	defer close(c.readDone)
	r := bufio.NewReaderSize(stdout, 64<<10)
	for {
		line, err := r.ReadBytes('\n')
		recv := time.Now()
		if len(bytes.TrimSpace(line)) > 0 {
			c.dispatch(line, recv)
		}
		if err != nil {
			if errors.Is(err, io.EOF) {
				err = errServerGone
			}
			c.failAll(err)
			return
		}
	}
}

// dispatch handles one inbound line read at recv.
func (c *client) dispatch(line []byte, recv time.Time) {
	var msg response
	if err := json.Unmarshal(line, &msg); err != nil {
		c.anom.badLines.Add(1)
		return
	}
	if msg.Method != "" {
		c.answerServer(msg)
		return
	}
	id, err := strconv.ParseInt(string(msg.ID), 10, 64)
	if err != nil {
		c.anom.unmatched.Add(1)
		return
	}
	c.mu.Lock()
	p, ok := c.pending[id]
	delete(c.pending, id)
	c.mu.Unlock()
	if !ok {
		c.anom.unmatched.Add(1)
		return
	}
	p.done(reply{resp: msg, sent: p.sent, recv: recv})
}

// answerServer counts a server notification, or answers a server request
// with "method not found": mcpload declares no client capabilities.
func (c *client) answerServer(msg response) {
	if len(msg.ID) == 0 || string(msg.ID) == "null" {
		c.anom.notifications.Add(1)
		return
	}
	c.anom.serverRequests.Add(1)
	line := fmt.Appendf(nil, `{"jsonrpc":"2.0","id":%s,"error":{"code":-32601,"message":"mcpload: method not found"}}`+"\n", msg.ID)
	// Write from another goroutine: a sender may hold the write lock while
	// blocked on a full pipe that the server drains only once we read.
	go c.writeRaw(line)
}

// failAll marks the connection gone and fails every pending call with err.
func (c *client) failAll(err error) {
	c.mu.Lock()
	c.gone = err
	pending := c.pending
	c.pending = make(map[int64]pendingCall)
	c.mu.Unlock()
	now := time.Now()
	for _, p := range pending {
		p.done(reply{sent: p.sent, recv: now, err: err})
	}
}

// closeAndWait closes the server's stdin and waits up to grace for it to
// exit, killing it after that. It returns how long the exit took, whether
// the server had to be killed, and the process's exit error.
func (c *client) closeAndWait(grace time.Duration) (time.Duration, bool, error) {
	start := time.Now()
	// No write lock: closing an os.File is safe alongside a blocked Write,
	// which it unblocks.
	_ = c.stdin.Close()
	// After a kill, something else (a grandchild, say) may hold the
	// server's stdout open.
	return awaitExit(c.cmd.Process, c.exited, start, grace, "server stdout still open after kill")
}

// appendMessage appends a JSON-RPC request (a notification when id is 0)
// to b.
func appendMessage(b []byte, id int64, method string, params []byte) []byte {
	b = append(b, `{"jsonrpc":"2.0",`...)
	if id != 0 {
		b = append(b, `"id":`...)
		b = strconv.AppendInt(b, id, 10)
		b = append(b, ',')
	}
	b = append(b, `"method":`...)
	b = strconv.AppendQuote(b, method)
	if params != nil {
		b = append(b, `,"params":`...)
		b = append(b, params...)
	}
	return append(b, '}')
}

// awaitExit waits up to grace (from start) for a server asked to stop to
// exit, and kills it after that; it reports how long the exit took,
// whether the server had to be killed, and cmd.Wait's result (or stuck,
// when even the kill did not end it within 5 s).
func awaitExit(p *os.Process, exited <-chan error, start time.Time, grace time.Duration, stuck string) (time.Duration, bool, error) {
	t := time.NewTimer(grace - time.Since(start))
	defer t.Stop()
	select {
	case err := <-exited:
		return time.Since(start), false, err
	case <-t.C:
	}
	_ = p.Kill()
	select {
	case err := <-exited:
		return time.Since(start), true, err
	case <-time.After(5 * time.Second):
		return time.Since(start), true, errors.New(stuck)
	}
}
