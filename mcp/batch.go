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
	col := &collector{ss: ss}
	var reqs []*jsonrpc.Request
	for _, item := range b {
		switch m := item.Msg.(type) {
		case nil:
			col.resps = append(col.resps, item.Err.Response())
		case *jsonrpc.Request:
			reqs = append(reqs, m)
		case *jsonrpc.Notification:
			ss.notify(m)
		default:
			ss.log.Debug("mcp: ignoring a response inside a batch")
		}
	}
	col.waiting = len(reqs) + 1
	for _, r := range reqs {
		ss.dispatch(r, col.add)
	}
	col.add(nil) // the batch itself is read; release its own count
}

// collector gathers the responses of one batch and writes them as one array
// once every request in it has been answered or cancelled.
type collector struct {
	ss      *session
	mu      sync.Mutex
	waiting int
	resps   []*jsonrpc.Response
}

func (c *collector) add(r *jsonrpc.Response) {
	c.mu.Lock()
	if r != nil {
		c.resps = append(c.resps, r)
	}
	c.waiting--
	done := c.waiting == 0
	resps := c.resps
	c.mu.Unlock()
	if done && len(resps) > 0 {
		c.ss.send(jsonrpc.BatchResponse(resps))
	}
}
