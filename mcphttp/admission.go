package mcphttp

import (
	"net/http"
	"strconv"
	"sync"
	"sync/atomic"

	"github.com/mcpwire/mcpwire/internal/overload"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// admission bounds the POSTs in flight across a handler, both eras and
// every legacy session together, by count and by body bytes: each legacy
// session has the server's per-connection limits of its own, and without
// this bound many sessions would multiply them.
//
// Nothing a client has not sent holds room: a body holds the bytes of the
// buffer it is read into, which grows with what arrived (see readBody),
// and a POST counts towards the bound on their number only once its body
// is read, so that clients that send their bodies slowly, or never, hold
// neither (BodyTimeout ends them).
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

// ticket is one POST's room: the bytes its body holds, and, once the body
// is read, its place among the POSTs in flight. It is given back once,
// when the POST is served, or, for a legacy call that goes on after its
// client lost the stream, when the call ends (see keep).
type ticket struct {
	a       *admission
	size    int64 // bytes held
	counted bool  // holds a place among the POSTs in flight
	kept    bool
	once    sync.Once
}

// newTicket returns a ticket that holds nothing yet.
func (a *admission) newTicket() *ticket { return &ticket{a: a} }

// grow holds n more bytes for the body being read, unless that would pass
// MaxRequestBytes while other POSTs hold bytes: one POST of any size may
// always be read, as MaxQueuedBytes always lets one request wait.
func (t *ticket) grow(n int64) bool {
	a := t.a
	if total := a.bytes.Add(n); total > a.maxBytes && total != t.size+n {
		a.bytes.Add(-n)
		return false
	}
	t.size += n
	return true
}

// shrink lowers the bytes held to size (the body read, once its buffer
// was given room to grow).
func (t *ticket) shrink(size int64) {
	if size < t.size {
		t.a.bytes.Add(size - t.size)
		t.size = size
	}
}

// admit takes the POST's place among those in flight, now that its body
// is read; false when MaxRequests are in flight.
func (t *ticket) admit() bool {
	a := t.a
	if a.count.Add(1) > a.maxCount {
		a.count.Add(-1)
		return false
	}
	t.counted = true
	return true
}

// full reports whether the POSTs in flight hold all the room there is.
func (a *admission) full() bool {
	return a.count.Load() >= a.maxCount || a.bytes.Load() >= a.maxBytes
}

// done gives the room back.
func (t *ticket) done() {
	t.once.Do(func() {
		t.a.bytes.Add(-t.size)
		if t.counted {
			t.a.count.Add(-1)
		}
	})
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
// with Retry-After and the JSON-RPC overload error, with the request's id
// when its body was read. The server's observer hears of it.
func (h *Handler) overloaded(w http.ResponseWriter, r *http.Request, id jsonrpc.ID, method, limit string) {
	overload.Report(r.Context(), h.srv, limit, method, mcp.TransportHTTP)
	h.log.Warn("mcphttp: request refused", "category", "overloaded", "limit", limit, "status", http.StatusServiceUnavailable)
	w.Header().Set("Retry-After", strconv.Itoa(retryAfterOverload))
	writeJSON(w, http.StatusServiceUnavailable, &jsonrpc.Response{ID: id,
		Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
			"server overloaded: too many requests are in flight; try again later").
			WithData(map[string]string{"reason": "overloaded"}),
	})
}

// retryAfterOverload is the Retry-After, in seconds, of a POST refused for
// MaxRequests or MaxRequestBytes: the POSTs in flight are bounded in time
// (bodies by BodyTimeout, answers by WriteTimeout, calls by the server's
// own limits), and most take far less than a second.
const retryAfterOverload = 1
