package mcp

import (
	"context"
	"sync"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/jsonrpc"
)

// batch serves a JSON-RPC batch when the session negotiated 2025-03-26, and
// refuses it with one -32600 otherwise. It returns the calls dispatch left
// to the reader (see serveBatch), or nil.
func (ss *session) batch(b jsonrpc.Batch) (runHere func()) {
	return ss.serveBatch(b, func(m jsonrpc.Message) {
		if out, ok := m.(jsonrpc.BatchResponse); !ok || len(out) > 0 {
			ss.send(m)
		}
	}, nil, nil)
}

// serveBatch serves b as batch does, writing the answer with write: the
// refusal, or the batch's responses as one BatchResponse once every
// request in it was answered or cancelled, empty when none was answered.
// sink and bound are those of dispatch, for every request of the batch;
// the calls dispatch leaves to the caller are returned as one runHere,
// which runs the last on the caller's goroutine and the others beside it.
func (ss *session) serveBatch(b jsonrpc.Batch, write func(jsonrpc.Message), sink func(jsonrpc.Message), bound context.Context) (runHere func()) {
	if !feature.Batches(ss.negotiated()) {
		write(errorResponse(jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"invalid request: batches are only accepted when protocol version 2025-03-26 was negotiated")))
		return nil
	}
	col := &collector{write: write, slots: make([]*jsonrpc.Response, len(b)), waiting: 1}
	for _, item := range b {
		if _, ok := item.Msg.(*jsonrpc.Request); ok || item.Msg == nil {
			col.waiting++
		}
	}
	var runs []func()
	for i, item := range b {
		switch m := item.Msg.(type) {
		case nil:
			col.put(i, item.Err.Response())
		case *jsonrpc.Request:
			if _, run := ss.dispatch(m, func(r *jsonrpc.Response) { col.put(i, r) }, sink, bound); run != nil {
				runs = append(runs, run)
			}
		case *jsonrpc.Notification:
			ss.notify(m)
		default:
			ss.log.Debug("mcp: ignoring a response inside a batch")
		}
	}
	col.put(-1, nil) // the whole batch has been dispatched
	if len(runs) == 0 {
		return nil
	}
	return func() {
		for _, run := range runs[:len(runs)-1] {
			go run()
		}
		runs[len(runs)-1]()
	}
}

// collector gathers the responses of one batch and writes them as one
// array, in the order of the requests, once every request in it has been
// answered or cancelled.
type collector struct {
	write   func(jsonrpc.Message)
	mu      sync.Mutex
	waiting int
	slots   []*jsonrpc.Response
}

// put records the response for element i (-1 for none).
func (c *collector) put(i int, r *jsonrpc.Response) {
	c.mu.Lock()
	if i >= 0 {
		c.slots[i] = r
	}
	c.waiting--
	done := c.waiting == 0
	c.mu.Unlock()
	if !done {
		return
	}
	var out jsonrpc.BatchResponse
	for _, r := range c.slots {
		if r != nil {
			out = append(out, r)
		}
	}
	c.write(out)
}
