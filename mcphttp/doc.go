// Package mcphttp serves an mcp.Server over the Streamable HTTP transport,
// both protocol eras on one endpoint: 2026-07-28 requests statelessly,
// legacy clients (2025-03-26 to 2025-11-25) in sessions opened with
// initialize. It is a net/http Handler; mount it at the endpoint's path:
//
//	h := mcphttp.NewHandler(srv, nil)
//	httpSrv := &http.Server{Addr: "127.0.0.1:8080", Handler: h}
//	httpSrv.RegisterOnShutdown(h.Close)
//
// # Safety checks, first
//
// Every request is checked before anything else: a Host that is neither a
// loopback name (localhost, 127.0.0.1, [::1], any port) nor in
// Options.AllowedHosts gets 403 (DNS rebinding); an Origin, when present,
// that is neither a loopback origin nor in Options.AllowedOrigins gets 403.
// A method other than POST, GET and DELETE gets 405 with Allow. A POST
// body larger than Options.MaxBodyBytes gets 413 and is not read further.
// After Close every request gets 503.
//
// What the Host check protects, and what it does not: it stops a web page
// that a browser loaded from elsewhere from reaching a server on the
// user's machine through a name that resolves to it (DNS rebinding), since
// the browser then sends that name as Host. It is not access control: any
// client that is not a browser sets Host to what it likes, "localhost"
// included. A server reachable from other machines needs authentication
// (package oauth) or a network that admits only its clients; Serve warns
// when it listens beyond loopback with no AllowedHosts.
//
// POSTs in flight are bounded across the handler, both eras and every
// legacy session together, by count (Options.MaxRequests) and by body
// bytes (Options.MaxRequestBytes): one more gets 503 with Retry-After and
// the JSON-RPC overload error. Within that bound the stateless endpoint,
// and each legacy session, has the per-connection limits of mcp.Options
// (MaxConcurrentCalls, MaxQueuedCalls, MaxQueuedBytes), whose overload
// error is a JSON-RPC response like any other. A 2026-07-28 request runs
// on its POST's own goroutine, waiting there for a slot when
// MaxConcurrentCalls are taken or its caller runs its share of them (see
// below).
//
// # Who is a caller
//
// The limits kept per caller (listen streams, tasks, a share of the
// running calls, legacy sessions) count a request against its principal
// when an authentication middleware put one with a subject in its context
// (auth.WithPrincipal; package oauth does), else against the address it
// came from. That address is the connection's peer, unless the peer is
// one of Options.TrustedProxies: then it is the client address the
// proxies forwarded, read from Forwarded (RFC 7239), else X-Forwarded-For,
// from the right, past every trusted hop. Every request's context carries
// it (auth.RemoteAddrFrom). Behind nginx, list nginx's address in
// TrustedProxies (127.0.0.1 when it runs on the same machine) and have it
// send the client's:
//
//	proxy_set_header X-Forwarded-For $remote_addr;
//
// Without that, every client behind the proxy is one caller: still served
// (a caller's share is large, and nothing is refused because of other
// clients at the same address alone), but sharing its quotas. A proxy not
// listed is an ordinary client, and what it forwards is ignored, so that
// no client can choose the address it is counted against.
//
// # Slow and greedy clients
//
// Nothing a client has not sent, or does not read, holds the handler's
// room for long:
//
//   - A body holds MaxRequestBytes only for the buffer it arrived into,
//     which starts at 4 KiB and doubles as bytes come, and a POST counts
//     towards MaxRequests only once its body is read. A body must arrive
//     in full by Options.BodyTimeout (default 10 s) after it began, plus a
//     second for every Options.MinBodyRate bytes (default 64 KiB) that
//     arrived; one still missing then gets 408 and its connection is
//     closed.
//   - Every write of every response (a JSON answer in pieces of 64 KiB,
//     an SSE event, a keep-alive) must be taken by the client within
//     Options.WriteTimeout (default 20 s); an answer that is not is
//     dropped, its connection closed, and its POST's room given back.
//     Both bounds are kept by one watchdog goroutine that looks at the
//     reads and writes in progress about once a second (an eighth of the
//     shorter timeout, at most a second), not by a deadline set and lifted
//     on the connection for each, which would cost a runtime timer per
//     read and write.
//   - On the stateless endpoint one caller runs at most
//     mcp.Options.MaxConcurrentCallsPerCaller calls at once (default three
//     quarters of MaxConcurrentCalls); its further calls wait their turn
//     rather than fail, and a freed slot goes to the waiting caller that
//     runs the fewest. A task's handler runs under the same bound, in a
//     slot of its own: the task is acknowledged at once, and its handler
//     waits its turn when the slots are taken.
//   - Listen streams are bounded per caller (mcp.Options
//     .MaxListenStreamsPerCaller, default 256) and in all (mcp.Options
//     .MaxListenStreamsTotal, default 4096), and tasks per caller
//     (mcp.Options.MaxTasksPerCaller, default 1000). A caller over a
//     quota gets 429 with mcp.CodeQuotaExceeded, whose data names the
//     limit; a bound the server as a whole reached gets the overload
//     error.
//   - A new stream (subscriptions/listen, a legacy GET) is refused with
//     503 while fewer than Options.MinFreeDescriptors file descriptors
//     (default 128) are free below the process's limit, so that the
//     process can still accept connections.
//
// # Routing a POST
//
// The body is one JSON-RPC message: not JSON is 400 with -32700, not a
// valid message 400 with -32600. A batch is served only in a legacy
// session that negotiated 2025-03-26, the one revision with batches (its
// responses come back as one array, or as one event after its calls' own
// messages; a batch with nothing to answer gets 202); anywhere else it is
// 400 with -32600, and so is a batch holding a 2026-07-28 message (one
// whose params._meta names its protocol version: its era has no batches,
// and its headers could not be checked against it). An error answered for
// a request carries its id. Then:
//
//  1. A request or notification whose params._meta holds
//     "io.modelcontextprotocol/protocolVersion" is modern (2026-07-28): it
//     is served on one stateless mcp.Endpoint shared by all modern
//     clients. So is one without that key, when it carries no
//     Mcp-Session-Id and its MCP-Protocol-Version header names a modern
//     revision: the Endpoint then answers the missing _meta with -32602.
//     Mcp-Session-Id on a modern request is ignored: never minted, never
//     echoed. subscriptions/listen answers with a stream only: a client
//     whose Accept refuses text/event-stream gets 406.
//  2. Otherwise an initialize request opens a legacy session: an
//     mcp.Endpoint of its own, whose id (128 random bits, hex) is sent as
//     Mcp-Session-Id with a successful response. At Options.MaxSessions
//     it may be refused (see Legacy sessions).
//  3. Otherwise the message belongs to the legacy session its
//     Mcp-Session-Id names: none is 400, an unknown or ended one 404. A
//     notification or a response (the client answering the server's
//     elicitation, sampling or roots request) gets 202.
//
// # Responses
//
// A request's response is decided by the first message the Endpoint
// sends for it. If that is the response, it goes out as application/json;
// if something comes first (progress, log messages, a listen stream's
// acknowledgement, a legacy call's requests to the client), the response
// switches to text/event-stream, provided the Accept header allows it,
// with X-Accel-Buffering: no, every event flushed, and a ": keep-alive"
// comment every Options.KeepAlive while quiet; the response is the last
// event. A client that does not accept a stream gets the response alone;
// the notifications are dropped and requests to the client are answered
// as failed at once. The client closing its connection cancels the
// request (the handler's context ends with mcp.ErrExchangeClosed as
// cause), except for a legacy call whose stream sent an event already,
// which goes on for the client to resume (see Resumability). subscriptions/listen is such a stream that lasts until the
// client leaves or Close ends it with its graceful result.
//
// Modern responses map JSON-RPC errors to HTTP statuses (the status table of the 2026-07-28 Streamable HTTP transport):
// -32700, -32600, -32602, -32020 (header mismatch), -32021 (missing client
// capability) and -32022 (unsupported version) are 400, -32601 is 404,
// mcp.CodeQuotaExceeded (a caller over a quota) is 429, any other error and
// every result 200. Legacy responses are 200 whatever
// their outcome, as the 2025 revisions expect.
//
// # Header parity (2026-07-28)
//
// Before a modern message is served its headers are checked against its
// body, as the server routed it (mcp.Endpoint.HandleRouted): the body is
// read once. MCP-Protocol-Version must be present and equal _meta's
// protocolVersion; Mcp-Method must equal the method (required on
// requests); Mcp-Name must equal params.name of tools/call and prompts/get,
// params.uri of resources/read and params.taskId of the tasks extension's
// methods; every Mcp-Param-{Name} must equal the argument annotated with
// x-mcp-header: Name in the inputSchema of the tool called (mcp.Routed),
// when the caller may see that tool. Names match case-insensitively; values
// in the "=?base64?…?=" form are decoded first (package header), integers
// compare numerically, booleans are "true" or "false". A body value absent
// or null wants no header; a present one wants it. Missing, duplicated,
// malformed or mismatched headers get 400 with -32020 and a message naming
// the header; the rejection is logged with the header's name and the
// category, never a value.
//
// # Legacy sessions
//
// GET with a session's id opens its stream of unsolicited messages
// (list_changed, resource updates), one at a time per session (a second is
// 409); without an id GET is 405, as on a modern-only server. DELETE ends
// the session (204; its id is 404 afterwards). Every request in a session,
// DELETE included, must come from the caller who opened it (the same
// principal, when one is known): anyone else gets the 404 of an unknown
// session. A session nothing used for Options.SessionIdleTimeout (no POST
// in flight, no GET open) ends. A legacy call's requests to the client go
// out on that call's own POST stream, and the client POSTs its answers
// back. A notifications/cancelled for a call in flight ends that call's
// POST (204 when nothing was written yet), since no response will come.
//
// A client completes the handshake by POSTing notifications/initialized
// to its session. A session whose client has not done so
// Options.HandshakeTimeout (10 s) after its initialize was answered ends,
// unless it is in use: an initialize costs one request, and an unfinished
// session must not hold a place for the 30 minutes of SessionIdleTimeout.
// Sessions are bounded per caller, its principal or else its remote
// address (Options.MaxSessionsPerCaller, 256), and in all
// (Options.MaxSessions, 1024). At either bound an initialize ends the
// oldest idle session that never completed its handshake (the caller's
// own for its bound, anyone's for the total) and takes its place at once.
// Only when there is none is it refused: 429 with mcp.CodeQuotaExceeded
// (data {"reason": "quota", "limit": "MaxSessionsPerCaller", "max": N})
// for the caller's bound, 503 with the overload error for the total. Both
// carry Retry-After: the seconds until the soonest session counted can
// expire, at least 1, a session in use counting as if it were released
// now (the soonest it could begin to idle). The server's observer hears of
// both refusals, as mcp.Overload with the limit's name.
//
// A session holds at most Options.MaxSessionStreams (8) GET streams at
// once, its stream of unsolicited messages and its resumptions together:
// one more gets 429 with mcp.CodeQuotaExceeded (limit
// "MaxSessionStreams"). No GET stream opens while fewer than
// Options.MinFreeDescriptors (128) file descriptors are free below the
// process's limit (RLIMIT_NOFILE; counted on Linux, at most every 100 ms):
// it gets 503 with Retry-After and Connection: close, so that the process
// keeps the descriptors to accept connections and serve requests.
//
// # Resumability (legacy sessions)
//
// Every SSE event of a legacy session is appended to Options.EventStore
// before it is written and carries the id the store gives: unique in the
// session, naming the event's stream ("p…" for a POST's, "g…" for a GET's)
// and its position. The default store (MemoryEventStore) holds the last
// Options.MaxStoredEvents events and Options.MaxStoredEventBytes bytes per
// session, and Options.MaxEventStoreBytes (64 MiB) across all sessions:
// past that the oldest events are evicted, whichever session they belong
// to. It forgets a session when it ends. 2026-07-28 streams are not
// resumable; their ids count from 1.
//
// Losing the client is not cancelling (the 2025 transports): once a legacy
// POST's stream has sent an event, the call goes on when its connection
// drops, and what it sends, its response included, is stored. A client
// that left before any event cannot resume, so its call is cancelled.
//
// A GET with Mcp-Session-Id and Last-Event-ID resumes that event's stream:
// the stored events after it are replayed, then the stream goes on. A
// POST's stream ends after the call's response; a GET stream goes on with
// the session's unsolicited messages (409 while another GET stream is
// open). A POST's stream is followed by one GET at a time: a new
// resumption of it replaces the one before, which ends (the new one
// replays from its own Last-Event-ID, so nothing is lost); one replaced
// before it began gets 409. A Last-Event-ID the store no longer holds
// (evicted) or never gave out gets 400 with a JSON-RPC -32600 error saying
// which, with data.reason "event evicted" or "unknown event": the messages
// after it are lost, and the session stays valid (a 404 would tell the
// client its session ended).
//
// SSE polling (2025-11-25): a handler may call CloseStream to end its
// call's stream before the response. The stream then gets a priming event
// (an id and empty data) if nothing was sent yet, and the retry hint
// (Options.RetryInterval), and ends; the client reconnects with
// Last-Event-ID after the hint and gets the rest. Sessions of earlier
// revisions are never closed early and get no priming events.
//
// # Health checks and draining
//
// LiveHandler (liveness) answers 200 for as long as the process serves;
// ReadyHandler (readiness) answers 200 until Drain or Close, 503 after, so
// that a load balancer takes the instance out before it stops, and, with
// Options.UnreadyWhenFull, 503 while the POSTs in flight hold all of
// MaxRequests or MaxRequestBytes (off by default: a fleet that is full
// everywhere would have no instance left in rotation; the per-request 503s
// shed the excess). Both skip the Host and Origin checks, for probes that
// name the instance by address. Serve answers them at "/livez" and
// "/readyz" (ServeOptions.LivePath and ReadyPath), and at shutdown drains
// for ServeOptions.DrainDelay before it closes. Mounting the Handler yourself, mount them beside it:
//
//	mux.Handle("/mcp", h)
//	mux.Handle("/livez", h.LiveHandler())
//	mux.Handle("/readyz", h.ReadyHandler())
//	// on SIGTERM: h.Drain(); sleep past the balancer's probes; httpSrv.Shutdown(ctx)
//
// The server's mcp.Options.Observer hears of every 503 and 429 this
// package answers for its own limits (MaxRequests, MaxRequestBytes,
// MaxSessions, MinFreeDescriptors, MaxSessionsPerCaller,
// MaxSessionStreams), as mcp.Overload events, and a legacy session's
// requests carry its id as mcp.ObservedRequest.SessionID.
package mcphttp
