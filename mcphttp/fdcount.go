package mcphttp

import (
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/internal/overload"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// limitDescriptors names the descriptor headroom in mcp.Overload.
const limitDescriptors = "MinFreeDescriptors"

// descriptorRecount is how long a count of the open descriptors is
// trusted: counting reads a directory as large as the descriptors open, so
// it is done at most this often, whatever the rate of new streams.
const descriptorRecount = 100 * time.Millisecond

// descriptorGauge tells whether the process has fewer free file
// descriptors than Options.MinFreeDescriptors: a stream holds its
// connection's descriptor for as long as it lasts, and a process out of
// descriptors accepts no connection at all, whoever it is from.
type descriptorGauge struct {
	mu    sync.Mutex // held by the one goroutine counting
	count func() (open, limit int, ok bool)
	stale atomic.Int64 // when the last count goes stale, Unix nanoseconds
	low   atomic.Bool  // the last count's verdict
}

// descriptorsLow reports whether fewer than Options.MinFreeDescriptors
// file descriptors are free below the process's limit (RLIMIT_NOFILE), so
// that no new stream should be opened. It is cheap enough for every
// request: it counts at most once per descriptorRecount, one caller at a
// time, the others taking the last verdict meanwhile. Where descriptors
// cannot be counted it is always false.
func (h *Handler) descriptorsLow() bool {
	g := &h.fds
	if time.Now().UnixNano() < g.stale.Load() || !g.mu.TryLock() {
		return g.low.Load()
	}
	defer g.mu.Unlock()
	if time.Now().UnixNano() < g.stale.Load() { // counted while this one waited for mu
		return g.low.Load()
	}
	count := g.count
	if count == nil {
		count = countDescriptors
	}
	open, limit, ok := count()
	low := ok && limit-open < h.opts.MinFreeDescriptors
	g.low.Store(low)
	g.stale.Store(time.Now().Add(descriptorRecount).UnixNano())
	return low
}

// setCounter replaces how g counts descriptors (for the tests) and drops
// the last count.
func (g *descriptorGauge) setCounter(count func() (open, limit int, ok bool)) {
	g.mu.Lock()
	g.count = count
	g.stale.Store(0)
	g.mu.Unlock()
}

// refuseForDescriptors answers a request for a new stream (a GET stream,
// or a subscriptions/listen: method and id are then the request's) while
// descriptors are short (descriptorsLow): 503 with Retry-After and the
// overload error, and Connection: close, so that the connection's own
// descriptor is given back as well. The server's observer hears of it.
func (h *Handler) refuseForDescriptors(w http.ResponseWriter, r *http.Request, method string, id jsonrpc.ID) {
	overload.Report(r.Context(), h.srv, limitDescriptors, method, mcp.TransportHTTP)
	h.log.Warn("mcphttp: stream refused", "category", "overloaded", "limit", limitDescriptors, "status", http.StatusServiceUnavailable)
	w.Header().Set("Connection", "close")
	w.Header().Set("Retry-After", "1")
	writeJSON(w, http.StatusServiceUnavailable, &jsonrpc.Response{ID: id, Error: jsonrpc.NewError(jsonrpc.CodeInternalError,
		"server overloaded: fewer than %d file descriptors are free (MinFreeDescriptors), too few to open another stream; try again later", h.opts.MinFreeDescriptors).
		WithData(map[string]string{"reason": "overloaded"})})
}
