package mcphttp

import (
	"net/http"
	"sync"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// admission bounds the POSTs in flight across a handler, both eras and
// every legacy session together, by count and by body bytes: each legacy
// session has the server's per-connection limits of its own, and without
// this bound many sessions would multiply them.
type admission struct {
	maxCount int64
	maxBytes int64
	count    atomic.Int64
	bytes    atomic.Int64
}

// Limits admission refuses a POST for, as mcp.Overload names them.
const (
	limitRequests     = "MaxRequests"
	limitRequestBytes = "MaxRequestBytes"
)

// admit reserves room for one POST whose body may hold size bytes. One
// POST of any size is admitted when no other holds bytes, as MaxQueuedBytes
// always lets one request wait. A refusal names the limit reached.
func (a *admission) admit(size int64) (_ *ticket, refused string) {
	if a.count.Add(1) > a.maxCount {
		a.count.Add(-1)
		return nil, limitRequests
	}
	if n := a.bytes.Add(size); n > a.maxBytes && n != size {
		a.bytes.Add(-size)
		a.count.Add(-1)
		return nil, limitRequestBytes
	}
	return &ticket{a: a, size: size}, ""
}

// full reports whether the POSTs in flight hold all the room there is.
func (a *admission) full() bool {
	return a.count.Load() >= a.maxCount || a.bytes.Load() >= a.maxBytes
}

// ticket is one admitted POST's room. It is given back once, when the POST
// is served, or, for a legacy call that goes on after its client lost the
// stream, when the call ends (see keep).
type ticket struct {
	a    *admission
	size int64
	kept bool
	once sync.Once
}

// done gives the room back.
func (t *ticket) done() {
	t.once.Do(func() {
		t.a.bytes.Add(-t.size)
		t.a.count.Add(-1)
	})
}

// shrink lowers the room held to the size of the body actually read (a
// body sent without Content-Length was given the most a body may hold).
func (t *ticket) shrink(size int64) {
	if size < t.size {
		t.a.bytes.Add(size - t.size)
		t.size = size
	}
}

// keep makes the POST's own return not give the room back: whoever called
// keep calls done.
func (t *ticket) keep() { t.kept = true }

// release gives the room back unless it was kept.
func (t *ticket) release() {
	if !t.kept {
		t.done()
	}
}

// overloaded answers a POST refused for want of room under limit: 503
// with Retry-After and the JSON-RPC overload error (its id is unknown: the
// body was not read). The server's observer hears of it.
func (h *Handler) overloaded(w http.ResponseWriter, r *http.Request, limit string) {
	h.srv.ReportOverload(r.Context(), mcp.Overload{Limit: limit, Transport: mcp.TransportHTTP})
	h.log.Warn("mcphttp: request refused", "category", "overloaded", "limit", limit, "status", http.StatusServiceUnavailable)
	w.Header().Set("Retry-After", "1")
	writeJSON(w, http.StatusServiceUnavailable, &jsonrpc.Response{
		Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
			"server overloaded: too many requests are in flight; try again later").
			WithData(map[string]string{"reason": "overloaded"}),
	})
}
