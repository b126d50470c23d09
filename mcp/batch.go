package mcp

import (
	"sync"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// batch serves a JSON-RPC batch when the session negotiated 2025-03-26, and
// refuses it with one -32600 otherwise.
func (ss *session) batch(b jsonrpc.Batch) {
	if !ss.negotiated().hasBatches() {
		ss.write(errorResponse(jsonrpc.ID{}, jsonrpc.NewError(jsonrpc.CodeInvalidRequest,
			"invalid request: batches are only accepted when protocol version 2025-03-26 was negotiated")))
		return
	}
	col := &collector{ss: ss, slots: make([]*jsonrpc.Response, len(b)), waiting: 1}
	for _, item := range b {
		if _, ok := item.Msg.(*jsonrpc.Request); ok || item.Msg == nil {
			col.waiting++
		}
	}
	for i, item := range b {
		switch m := item.Msg.(type) {
		case nil:
			col.put(i, item.Err.Response())
		case *jsonrpc.Request:
			ss.dispatch(m, func(r *jsonrpc.Response) { col.put(i, r) }, nil, nil)
		case *jsonrpc.Notification:
			ss.notify(m)
		default:
			ss.log.Debug("mcp: ignoring a response inside a batch")
		}
	}
	col.put(-1, nil) // the whole batch has been dispatched
}

// collector gathers the responses of one batch and writes them as one
// array, in the order of the requests, once every request in it has been
// answered or cancelled.
type collector struct {
	ss      *session
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
	if len(out) > 0 {
		c.ss.send(out)
	}
}
