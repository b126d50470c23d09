package mcphttp

import (
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"time"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// Defaults of Options.
const (
	// defaultMaxBodyBytes is the largest request body read: the message cap
	// of the stdio transport, 16 MiB.
	defaultMaxBodyBytes = 16 << 20
	// defaultMaxSessions bounds the legacy sessions open at once.
	defaultMaxSessions = 1024
	// defaultSessionIdleTimeout ends a legacy session nothing used for
	// that long.
	defaultSessionIdleTimeout = 30 * time.Minute
	// defaultKeepAlive is the interval of SSE keep-alive comments.
	defaultKeepAlive = 15 * time.Second
	// defaultMaxRequests bounds the POSTs in flight across a handler.
	defaultMaxRequests = 1024
	// defaultMaxRequestBytes bounds the body bytes of the POSTs in flight
	// across a handler: sixteen bodies of the largest size accepted.
	defaultMaxRequestBytes = 16 * defaultMaxBodyBytes
	// defaultRetryInterval is the retry hint of a stream the server closes
	// early (SSE polling): how long the client waits before reconnecting.
	defaultRetryInterval = time.Second
	// defaultBodyTimeout is how long a POST body may take to arrive beyond
	// what defaultMinBodyRate allows it.
	defaultBodyTimeout = 10 * time.Second
	// defaultMinBodyRate is the slowest a long POST body may arrive, in
	// bytes per second.
	defaultMinBodyRate = 64 << 10
	// defaultWriteTimeout bounds one write to a client.
	defaultWriteTimeout = 20 * time.Second
	// defaultHandshakeTimeout ends a legacy session whose client has not
	// completed the handshake (notifications/initialized) that long after
	// its initialize.
	defaultHandshakeTimeout = 10 * time.Second
	// defaultMaxSessionsPerCaller bounds the legacy sessions one caller
	// holds open at once.
	defaultMaxSessionsPerCaller = 256
	// defaultMaxEventStoreBytes bounds the bytes of events the default
	// event store holds for all sessions together, 64 MiB.
	defaultMaxEventStoreBytes = 64 << 20
	// defaultMaxSessionStreams bounds the GET streams open at once in one
	// legacy session.
	defaultMaxSessionStreams = 8
	// defaultMinFreeDescriptors is the headroom of file descriptors below
	// the process's limit that new streams leave free.
	defaultMinFreeDescriptors = 128
)

// Options configure a Handler. The zero value (or nil) is ready to use and
// accepts only loopback hosts and origins.
type Options struct {
	// AllowedOrigins are the Origin header values accepted besides the
	// loopback origins (http or https, host localhost, 127.0.0.1 or [::1],
	// any port), compared case-insensitively; "*" accepts any origin. A
	// request without Origin (not from a browser) is always accepted.
	AllowedOrigins []string
	// AllowedHosts are the Host header values accepted besides the
	// loopback names (localhost, 127.0.0.1, [::1]) on any port, compared
	// case-insensitively with the whole Host or with its name without the
	// port; "*" accepts any host. It protects against DNS rebinding.
	AllowedHosts []string
	// TrustedProxies are the addresses ("10.0.0.7") and CIDR prefixes
	// ("10.0.0.0/8") of the reverse proxies in front of the handler. A
	// request whose direct peer is one of them comes from the address the
	// proxies forwarded (Forwarded, else X-Forwarded-For, read from the
	// right past every trusted hop); from any other peer those headers are
	// ignored. That address names the caller for the per-caller limits when
	// no principal does (see "Who is a caller" in the package
	// documentation). NewHandler panics on an entry that is neither.
	TrustedProxies []string
	// MaxBodyBytes bounds a POST body (default 16 MiB, the message cap of
	// the stdio transport); a
	// larger one gets 413 without the rest being read.
	MaxBodyBytes int64
	// BodyTimeout and MinBodyRate bound how long a POST body may take to
	// arrive: all of it by BodyTimeout after the body began, plus one second
	// for every MinBodyRate bytes received (defaults 10 seconds and 64 KiB
	// per second). A body still missing then gets 408 and its
	// connection is closed. A body holds admission room (MaxRequestBytes)
	// only for the bytes that arrived, and a POST counts towards
	// MaxRequests only once its body is read. This bound, and
	// WriteTimeout's, are checked an eighth of the shorter of the two
	// apart, at most a second: a read or write is cut within that after it
	// falls due.
	BodyTimeout time.Duration
	MinBodyRate int64
	// WriteTimeout bounds each write to a client (default 20 seconds): an SSE event or keep-alive, or 64 KiB of a JSON
	// answer. A client that does not read for that long loses the response
	// (its connection is closed), and the POST gives its admission room
	// back.
	WriteTimeout time.Duration
	// MaxRequests bounds the POSTs in flight across the handler, both eras
	// and all legacy sessions together (default 1024): a
	// legacy session has the per-connection limits of mcp.Options
	// (MaxConcurrentCalls, MaxQueuedCalls, MaxQueuedBytes) of its own, and
	// this bound keeps many sessions from multiplying them. A POST beyond
	// it gets 503 with Retry-After and the JSON-RPC overload error
	// (-32603, data.reason "overloaded"), its body unread. A legacy call
	// that goes on after its client lost the stream holds its place until
	// it ends.
	MaxRequests int
	// MaxRequestBytes bounds the body bytes of the POSTs in flight across
	// the handler (default 256 MiB, sixteen bodies of MaxBodyBytes'
	// default), as MaxRequests bounds
	// their count: a body counts with its Content-Length, or with
	// MaxBodyBytes while a body sent without one is read. One POST is
	// always admitted when no other holds bytes.
	MaxRequestBytes int64
	// MaxSessions bounds the legacy sessions open at once (default 1024). When they are all open, a new initialize ends
	// the oldest idle session whose client never completed its handshake,
	// if there is one; otherwise it gets 503 with a JSON-RPC error and a
	// Retry-After saying when a session can next expire (a session in use
	// counting as if it were released now).
	MaxSessions int
	// MaxSessionsPerCaller bounds the legacy sessions one caller (see "Who
	// is a caller" in the package documentation) holds open at once
	// (default 256). One more initialize ends that
	// caller's oldest idle session that never completed its handshake, or
	// else gets 429 with mcp.CodeQuotaExceeded.
	MaxSessionsPerCaller int
	// HandshakeTimeout ends a legacy session whose client has not sent
	// notifications/initialized that long after its initialize was
	// answered (default 10 seconds), unless it is in use.
	HandshakeTimeout time.Duration
	// MaxSessionStreams bounds the GET streams open at once in one legacy
	// session: its stream of unsolicited messages and the resumptions of
	// its POST streams (default 8); one more gets
	// 429. A POST stream is followed by one resumption at a time: a new
	// one replaces the one before.
	MaxSessionStreams int
	// MinFreeDescriptors is the headroom of file descriptors that new
	// streams leave free below the process's limit (RLIMIT_NOFILE; default 128): while fewer are free, a GET stream or a
	// subscriptions/listen gets 503 and its connection is closed, so that
	// the process can still accept connections and serve requests. Where
	// the open descriptors cannot be counted (outside Linux) it has no
	// effect.
	MinFreeDescriptors int
	// SessionIDPrefix starts every legacy session id this handler mints,
	// before 128 random bits in hex. Instances behind one load balancer
	// give themselves prefixes of their own (such as "i1."), so that the
	// balancer can send every request of a session to the instance that
	// holds it by its Mcp-Session-Id (see the deployment section of the
	// README). At most 32 visible ASCII characters (0x21 to 0x7E), as a
	// session id may hold; NewHandler panics on any other.
	SessionIDPrefix string
	// SessionIdleTimeout ends a legacy session without a request in
	// flight, an open GET stream or a new request for that long (default
	// 30 minutes); its id gets 404 afterwards.
	SessionIdleTimeout time.Duration
	// KeepAlive is the interval of the ": keep-alive" comments written on
	// an SSE stream that is otherwise quiet (default 15 seconds).
	KeepAlive time.Duration
	// EventStore holds the SSE events of legacy sessions, so that a client
	// that lost a stream resumes it with Last-Event-ID (see the package
	// documentation). Nil: a MemoryEventStore bounded per session by
	// MaxStoredEvents and MaxStoredEventBytes, and across sessions by
	// MaxEventStoreBytes.
	EventStore EventStore
	// MaxStoredEvents bounds the events the default store holds per legacy
	// session (default 256); older ones are evicted.
	MaxStoredEvents int
	// MaxStoredEventBytes bounds the bytes of the events the default store
	// holds per legacy session (default 1 MiB).
	MaxStoredEventBytes int64
	// MaxEventStoreBytes bounds the bytes of the events the default store
	// holds for all legacy sessions together (default 64 MiB); past it the oldest events, whichever
	// session they belong to, are evicted.
	MaxEventStoreBytes int64
	// RetryInterval is the retry hint written before the server closes a
	// legacy stream early (CloseStream), rounded to milliseconds (default
	// one second).
	RetryInterval time.Duration
	// Logger receives the handler's logs (default slog.Default()).
	Logger *slog.Logger
	// UnreadyWhenFull makes ReadyHandler answer 503 while the POSTs in
	// flight hold MaxRequests or MaxRequestBytes, so that a load balancer
	// sends new work elsewhere. It is off by default: when every instance
	// is full at once the balancer then has none left to send to, and the
	// 503s with Retry-After that admission answers already shed the
	// excess, request by request; turn it on where the balancer sheds
	// better than the clients retry.
	UnreadyWhenFull bool
}

func (o *Options) withDefaults() Options {
	var c Options
	if o != nil {
		c = *o
	}
	if c.MaxBodyBytes <= 0 {
		c.MaxBodyBytes = defaultMaxBodyBytes
	}
	if c.MaxRequests <= 0 {
		c.MaxRequests = defaultMaxRequests
	}
	if c.MaxRequestBytes <= 0 {
		c.MaxRequestBytes = defaultMaxRequestBytes
	}
	if c.MaxSessions <= 0 {
		c.MaxSessions = defaultMaxSessions
	}
	if c.SessionIdleTimeout <= 0 {
		c.SessionIdleTimeout = defaultSessionIdleTimeout
	}
	if c.KeepAlive <= 0 {
		c.KeepAlive = defaultKeepAlive
	}
	if c.RetryInterval <= 0 {
		c.RetryInterval = defaultRetryInterval
	}
	if c.BodyTimeout <= 0 {
		c.BodyTimeout = defaultBodyTimeout
	}
	if c.MinBodyRate <= 0 {
		c.MinBodyRate = defaultMinBodyRate
	}
	if c.WriteTimeout <= 0 {
		c.WriteTimeout = defaultWriteTimeout
	}
	if c.HandshakeTimeout <= 0 {
		c.HandshakeTimeout = defaultHandshakeTimeout
	}
	if c.MaxSessionsPerCaller <= 0 {
		c.MaxSessionsPerCaller = defaultMaxSessionsPerCaller
	}
	if c.MaxEventStoreBytes <= 0 {
		c.MaxEventStoreBytes = defaultMaxEventStoreBytes
	}
	if c.MaxSessionStreams <= 0 {
		c.MaxSessionStreams = defaultMaxSessionStreams
	}
	if c.MinFreeDescriptors <= 0 {
		c.MinFreeDescriptors = defaultMinFreeDescriptors
	}
	if c.EventStore == nil {
		c.EventStore = NewMemoryEventStore(c.MaxStoredEvents, c.MaxStoredEventBytes, c.MaxEventStoreBytes)
	}
	if c.Logger == nil {
		c.Logger = slog.Default()
	}
	return c
}

// Handler serves one mcp.Server over Streamable HTTP at one endpoint, both
// protocol eras at once (see the package documentation for the routing
// rules). Its methods are safe for concurrent use.
type Handler struct {
	srv       *mcp.Server
	opts      Options
	log       *slog.Logger
	stateless *mcp.Endpoint  // every 2026-07-28 request
	proxies   trustedProxies // Options.TrustedProxies
	dog       *watchdog      // bounds body reads and writes (BodyTimeout, MinBodyRate, WriteTimeout)
	sessions  sessionTable
	admission admission       // POSTs in flight (MaxRequests, MaxRequestBytes)
	fds       descriptorGauge // MinFreeDescriptors
	closing   chan struct{}   // closed by Close
	draining  atomic.Bool     // set by Drain: readiness is 503
	closeOnce sync.Once
	bg        sync.WaitGroup // sessions being closed, the janitor
}

// NewHandler returns a Handler serving srv. The same Server may serve stdio
// connections and other handlers at the same time. Call Close to end the
// handler's sessions and streams.
func NewHandler(srv *mcp.Server, opts *Options) *Handler {
	o := opts.withDefaults()
	if err := checkSessionIDPrefix(o.SessionIDPrefix); err != nil {
		panic("mcphttp: " + err.Error())
	}
	proxies, err := parseTrustedProxies(o.TrustedProxies)
	if err != nil {
		panic("mcphttp: " + err.Error())
	}
	h := &Handler{
		srv:       srv,
		opts:      o,
		log:       o.Logger,
		stateless: srv.NewEndpoint(mcp.EndpointOptions{Stateless: true, RunOnCaller: true}),
		closing:   make(chan struct{}),
		proxies:   proxies,
	}
	h.dog = newWatchdog(o, h.closing)
	h.admission.maxCount, h.admission.maxBytes = int64(o.MaxRequests), o.MaxRequestBytes
	h.sessions.init()
	return h
}

// allowedMethods is the Allow header of a 405.
const allowedMethods = "GET, POST, DELETE"

// ServeHTTP serves one HTTP request: POST carries a JSON-RPC message, GET
// opens a legacy session's stream, DELETE ends a legacy session. Every
// request is first checked for its Host and Origin (403).
func (h *Handler) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	bw := newBoundedWriter(w, h.dog)
	defer h.finishResponse(bw)
	w = bw
	if !h.hostAllowed(r.Host) {
		h.log.Warn("mcphttp: request refused", "header", "Host", "category", "not allowed", "status", http.StatusForbidden)
		writeError(w, http.StatusForbidden, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "forbidden: the Host header names a host this server does not serve")
		return
	}
	if origin, ok := singleHeader(r.Header, "Origin"); !ok || (origin != "" && !h.originAllowed(origin)) {
		h.log.Warn("mcphttp: request refused", "header", "Origin", "category", "not allowed", "status", http.StatusForbidden)
		writeError(w, http.StatusForbidden, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "forbidden: the Origin header names an origin this server does not accept")
		return
	}
	// Who the request comes from, for the per-caller limits here and in
	// the server (see "Who is a caller").
	r = r.WithContext(auth.WithRemoteAddr(r.Context(), h.remoteAddr(r)))
	if h.isClosed() && r.Method != http.MethodPost { // a POST is answered with its id (servePost)
		writeError(w, http.StatusServiceUnavailable, jsonrpc.ID{}, jsonrpc.CodeInternalError, "server shutting down: the handler is closed")
		return
	}
	switch r.Method {
	case http.MethodPost:
		h.servePost(w, r)
	case http.MethodGet:
		h.serveGet(w, r)
	case http.MethodDelete:
		h.serveDelete(w, r)
	default:
		w.Header().Set("Allow", allowedMethods)
		writeError(w, http.StatusMethodNotAllowed, jsonrpc.ID{}, jsonrpc.CodeInvalidRequest, "method not allowed: use POST (or GET and DELETE with an Mcp-Session-Id)")
	}
}

// finishResponse ends a response (see boundedWriter.finish) and logs one
// that was dropped because its client did not read it in time.
func (h *Handler) finishResponse(bw *boundedWriter) {
	if bw.finish() {
		h.log.Warn("mcphttp: response dropped: the client did not read it in time", "write_timeout", h.opts.WriteTimeout)
	}
}

// Close shuts the handler down gracefully: readiness and new requests get
// 503 (call Drain first to have a load balancer stop sending), legacy
// sessions end (their GET streams close), listen streams end with their
// graceful result, and requests in flight get the server's ShutdownGrace to
// finish before they are answered with an error. It returns once all of
// that is done. Closing twice is fine. Close does not close the http.Server;
// register it with http.Server.RegisterOnShutdown so that Shutdown does not
// wait for streams that never end.
func (h *Handler) Close() {
	h.closeOnce.Do(func() {
		close(h.closing)
		var wg sync.WaitGroup
		for _, s := range h.sessions.removeAll() {
			wg.Go(s.end)
		}
		wg.Go(h.stateless.Close)
		wg.Wait()
		h.bg.Wait()
	})
}

func (h *Handler) isClosed() bool {
	select {
	case <-h.closing:
		return true
	default:
		return false
	}
}

// singleHeader returns the value of a header that may appear at most once;
// ok is false when it appears more than once.
func singleHeader(hd http.Header, name string) (string, bool) {
	vs := hd.Values(name)
	switch len(vs) {
	case 0:
		return "", true
	case 1:
		return vs[0], true
	}
	return "", false
}
