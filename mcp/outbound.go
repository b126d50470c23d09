package mcp

import (
	"context"
	"errors"
	"fmt"
	"strconv"
	"sync"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Errors of a request the server sent to the client.
var (
	// ErrClientGone: the connection ended before the client answered.
	ErrClientGone = errors.New("mcp: the client disconnected before answering")
	// ErrClientTimeout: the client did not answer within
	// Options.ClientRequestTimeout.
	ErrClientTimeout = errors.New("mcp: the client did not answer in time")
	// ErrNoClientRequests: the request is served in the 2026-07-28 era,
	// where a server never sends requests (it answers input_required).
	ErrNoClientRequests = errors.New("mcp: the 2026-07-28 era has no server-to-client requests")
)

// defaultClientRequestTimeout bounds the wait for the client's answer to a
// request the server sent (an elicitation waits for a person).
const defaultClientRequestTimeout = 5 * time.Minute

// outbound is a session's table of the requests it sent to the client and
// awaits. Their ids ("s1", "s2", …) live in the server's own id space: a
// client's response can only answer one of them, and an answer to an id
// not pending (never sent, already answered, given up) is ignored.
type outbound struct {
	mu      sync.Mutex
	next    uint64
	pending map[string]chan *jsonrpc.Response
	closed  bool
}

// start registers a new request id and the channel its answer arrives on;
// ok is false once the session has ended.
func (o *outbound) start() (id jsonrpc.ID, answer chan *jsonrpc.Response, ok bool) {
	o.mu.Lock()
	defer o.mu.Unlock()
	if o.closed {
		return id, nil, false
	}
	o.next++
	id = jsonrpc.StringID("s" + strconv.FormatUint(o.next, 10))
	if o.pending == nil {
		o.pending = map[string]chan *jsonrpc.Response{}
	}
	answer = make(chan *jsonrpc.Response, 1)
	o.pending[id.Key()] = answer
	return id, answer, true
}

// forget drops a request that is no longer awaited.
func (o *outbound) forget(id jsonrpc.ID) {
	o.mu.Lock()
	delete(o.pending, id.Key())
	o.mu.Unlock()
}

// deliver routes a client's response to the request it answers, reporting
// whether one was waiting.
func (o *outbound) deliver(r *jsonrpc.Response) bool {
	o.mu.Lock()
	answer, ok := o.pending[r.ID.Key()]
	delete(o.pending, r.ID.Key())
	o.mu.Unlock()
	if ok {
		answer <- r // buffered: never blocks, and only one answer is taken
	}
	return ok
}

// close releases every waiting request at once: the session has ended.
func (o *outbound) close() {
	o.mu.Lock()
	defer o.mu.Unlock()
	o.closed = true
	for k, answer := range o.pending {
		close(answer)
		delete(o.pending, k)
	}
}

// ClientError is the error response a client gave to a request the server
// sent. It is not a *jsonrpc.Error on purpose: a handler that returns it
// reports the tool's failure (an isError result), rather than answering
// its own caller with the client's error code.
type ClientError struct {
	// Method is the request the client refused, such as
	// "sampling/createMessage".
	Method string
	// Code, Message and Data are the client's error.
	Code    int64
	Message string
	Data    json.RawMessage
}

// Error says which request the client refused, and why.
func (e *ClientError) Error() string {
	return fmt.Sprintf("the client answered %s with error %d: %s", e.Method, e.Code, e.Message)
}

// ClientRequest sends a request to the client (legacy era only) and waits
// for its answer: the result, or the client's *jsonrpc.Error. The wait ends
// early when ctx is done (the originating call was cancelled or timed out:
// the client gets notifications/cancelled for the request), after
// Options.ClientRequestTimeout (ErrClientTimeout, and the client is told
// too), or when the connection ends (ErrClientGone). It is the transport
// of elicitation, sampling and roots in the legacy era.
func (c *call) ClientRequest(ctx context.Context, method string, params any) (json.RawMessage, error) {
	if c.req.modern() {
		return nil, ErrNoClientRequests
	}
	if ctx.Err() != nil {
		return nil, context.Cause(ctx) // the call is over: ask nothing more
	}
	raw, err := json.Marshal(params)
	if err != nil {
		return nil, fmt.Errorf("mcp: encoding the %s request: %w", method, err)
	}
	ss := c.ss
	id, answer, ok := ss.out.start()
	if !ok {
		return nil, ErrClientGone
	}
	c.emit(&jsonrpc.Request{ID: id, Method: method, Params: raw})
	timer := time.NewTimer(ss.srv.opts.ClientRequestTimeout)
	defer timer.Stop()
	var giveUp error
	select {
	case r, ok := <-answer:
		if !ok {
			return nil, ErrClientGone
		}
		if r.Error != nil {
			return nil, &ClientError{Method: method, Code: r.Error.Code, Message: r.Error.Message, Data: r.Error.Data}
		}
		return r.Result, nil
	case <-ctx.Done():
		giveUp = context.Cause(ctx)
	case <-timer.C:
		giveUp = ErrClientTimeout
	}
	ss.out.forget(id)
	cancel, _ := json.Marshal(protocol.CancelledNotificationParams{RequestID: id, Reason: giveUp.Error()})
	c.emit(&jsonrpc.Notification{Method: protocol.NotificationCancelled, Params: cancel})
	return nil, giveUp
}
