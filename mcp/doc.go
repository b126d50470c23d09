// Package mcp serves the Model Context Protocol over any message-level
// connection (see package transport); RunStdio serves a Server on the
// process's standard input and output. With package tool (typed tools) and
// package ask (asking the client) it is all a stdio server imports;
// package mcphttp adds Streamable HTTP.
//
// # What a server offers
//
// Tools come from package tool (tool.New) and are registered with
// Server.AddTool. Resources (Resource, with TextContents, BlobContents and
// StaticRead), resource templates (ResourceTemplate), prompts (NewPrompt,
// or a Prompt literal) and completion providers (CompleteFunc,
// CompletePrefix) are values of this package. Every handler, whatever it
// handles, reaches its own request through its context: RequestFrom (era,
// revision, client, caller), Logger (the specification's "Logging") and
// ReportProgress (its "Progress").
//
// # Two eras, one server
//
// The legacy era starts with an initialize handshake; the revisions served
// are 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25. A client asking for
// one of them gets it echoed; any other version (including 2026-07-28, since
// initialize always selects the legacy era) gets a counter-offer of
// 2025-11-25, never an error. Every legacy result carries only the fields its
// negotiated revision defines.
//
// The modern era (2026-07-28) is stateless: a request is modern when its
// params._meta holds "io.modelcontextprotocol/protocolVersion". Its version,
// client capabilities and client info come from that request alone, never
// from the legacy session or from earlier requests, and both eras can be
// served by one process at once. A modern request is checked in this order:
// the required _meta keys (protocolVersion, clientCapabilities) or params
// itself missing gives -32602; an unsupported version gives -32022 with
// data {supported, requested}; a method 2026-07-28 does not define
// (initialize, ping, logging/setLevel, resources/subscribe,
// resources/unsubscribe, unknown ones) gives -32601; a missing client
// capability is reported by the tool that needs it with -32021 (see
// ask.Require). Every modern result carries
// resultType "complete" and _meta["io.modelcontextprotocol/serverInfo"];
// server/discover, tools/list, prompts/list, resources/list,
// resources/templates/list and resources/read also carry ttlMs and
// cacheScope (Options.CacheHints; by default one minute, private; a
// resource's own CacheHint wins for its reads). Every modern
// result gets that envelope in one place (package protocol's Envelope and
// CacheHints, which every result type embeds).
//
// Handlers never learn which era they serve beyond what RequestFrom
// reports; the server projects their results for each client. Modern
// clients get any-JSON structuredContent and output schemas as they are.
// 2025-era clients, whose schema requires objects, get a non-object output
// schema S advertised as {"type":"object","properties":{"result":S},
// "required":["result"]} and the value wrapped as {"result": v}; 2024-11-05
// clients get neither field, only the text block every structured result
// carries. Content blocks a revision does not define become a text block
// describing them (audio before 2025-03-26, resource_link before
// 2025-06-18).
//
// # Connections and endpoints
//
// Serve serves one connection (stdio, a pipe). An Endpoint serves messages
// that arrive one at a time with their own way back (HTTP POSTs): the same
// routing, era rules and handlers, with each request's own messages
// (progress, log messages, listen notifications, legacy requests to the
// client) and its response sent to that request's exchange. A stateless
// endpoint serves 2026-07-28 requests that stand alone (ids may repeat;
// ending a request's context cancels it); a session endpoint serves one
// legacy session, with what the server sends outside any request going to
// its Unsolicited stream. A transport that carries parts of a message
// outside its body (HTTP's routing headers) checks them with
// HandleRouted, on the message as the server read it.
//
// # Asking the client
//
// The handlers of tools/call, prompts/get and resources/read may ask the
// client for elicitation, sampling and roots through package ask; other
// handlers cannot. In the legacy era a question is a request to the
// client with an id of the server's own ("s1", "s2", ...): the client's
// response is routed back to the waiting handler, an answer to an id not
// awaited is ignored, Options.ClientRequestTimeout bounds the wait, a
// cancelled or timed-out call sends notifications/cancelled for its
// pending request, and a disconnect or shutdown releases every waiting
// handler at once. roots/list answers are cached per connection until
// notifications/roots/list_changed. A client of a revision before
// 2025-11-25 gets a titled choice field as enum with enumNames; a multiple
// choice, which such a client cannot show, is the handler's error.
//
// In the 2026-07-28 era a run that leaves questions unanswered is
// answered, whatever the handler returned, with resultType
// "input_required": inputRequests under each question's key and a
// requestState sealed with AES-256-GCM (see State across instances). The
// state carries the answers so far, the keys asked, the handler's
// remembered values, the round and an expiry (Options.InputStateTTL), and
// is bound to the method, the tool, prompt or URI, the arguments in
// canonical form and the caller (its subject and its scopes, in any
// order). On the retry the state is opened first: altered or sealed under
// a key this server does not hold, bound to another request or caller, or
// expired, it is -32602 saying which. Then the answers to the keys it
// lists are taken from inputResponses (one that does not answer its
// question's method is -32602; keys not asked are ignored; missing ones
// are asked again in a new input_required), and the handler runs again. A call takes at most 16 rounds.
//
// # State across instances
//
// What the server hands to clients and must get back unchanged, list
// cursors and requestState, depends on no process: any instance that
// holds the key that sealed it accepts it, so instances behind a load
// balancer need no affinity for it. The keys come from Options.StateKey
// (one secret) or Options.StateKeys (a key set, the first key sealing and
// every key opening, for rotation); without either a process seals with a
// random key of its own. Secrets are at least MinStateKeyLen (32) bytes,
// or NewServer panics (Options.CheckStateKeys says why first); the keys
// that seal are derived from them, one per purpose. Every sealed value
// carries its key's ID in the clear, authenticated, so a server opens it
// with that key or refuses it as it refuses one that was altered.
//
// A cursor (24 characters with the empty key ID, a few more with a longer
// one or a large offset) holds the key ID, a tag of the list it pages,
// its offset and a MAC. The tag is a
// digest of the list's content (every entry's descriptor as the newest
// revision lists it, in order), computed once per change of the list, and,
// for a caller who may see only some entries, of which ones: pages are
// counted in what the caller sees. So a cursor is valid on every instance
// with the same registrations and keys, and for any caller who sees the
// same entries, and it is stale (-32602 saying the list changed) once
// the list or what its caller sees differs; a list changed back to what
// it was accepts it again.
//
// # Notifications
//
// Progress goes out only for a request carrying _meta.progressToken, in
// order, with increasing values, and never after that request's response.
// Log messages (Logger) go to a legacy client at or above the level
// set by logging/setLevel ("info" until it is set; an unknown
// level gets -32602), and to a modern client only for a request that set
// _meta["io.modelcontextprotocol/logLevel"]; they are rate-limited
// (Options.LogRate) and always also written to the server's own log.
//
// When tools are added or removed at run time, a legacy session gets an
// unsolicited notifications/tools/list_changed (listChanged is declared),
// and modern clients get it only on an open subscriptions/listen stream
// that asked for toolsListChanged. A listen stream starts with
// notifications/subscriptions/acknowledged carrying the honoured subset of
// the filter; every message on it is tagged with the listen request's id as
// _meta["io.modelcontextprotocol/subscriptionId"]; notifications/cancelled
// ends it without a response; at shutdown it ends with its graceful result.
//
// # Resources, prompts and completion
//
// Resources (AddResource), templates (AddResourceTemplate) and prompts
// (AddPrompt) are served in both eras and declared as capabilities only
// while some are registered (or Options.DynamicResources, DynamicPrompts);
// without them their methods are -32601, as is completion/complete
// without a provider. Lists page with cursors bound to their list's
// content and stale once it changes. resources/read answers a registered URI, else
// the first matching template; a URI nothing answers is -32002 with
// data.uri for a legacy client and -32602 with data.uri for a modern one,
// never an empty contents. Legacy sessions follow URIs with
// resources/subscribe; modern clients name them in a listen stream's
// resourceSubscriptions; ResourceUpdated reaches both. prompts/get refuses
// an unknown prompt, a missing required argument and an unknown one with
// -32602. completion/complete checks its reference and argument (-32602),
// caps values at 100 with hasMore and an honest total, rate-limits each
// caller (Options.CompletionRate; -32603 with data.reason "rate_limited"),
// and gives providers the caller (Options.Caller on stdio).
//
// # Choices where the spec leaves room
//
//   - An error response to a message whose id cannot be read omits "id"
//     (see package jsonrpc).
//   - A request without modern _meta, other than initialize and ping, that
//     arrives before initialize gets -32602 naming both ways to proceed; an
//     unknown method gets -32601 at any time. server/discover without modern
//     _meta gets -32602, so a dual-era client can fall back to initialize.
//   - supportedVersions and the -32022 data list the modern revision first,
//     then the legacy ones, as the official example does.
//   - JSON-RPC batches are accepted only when 2025-03-26 was negotiated,
//     the one revision that defines them; otherwise an array gets a single
//     -32600. A batch's responses come back in the order of its requests.
//   - A cursor is an opaque, integrity-protected token bound to the
//     content of the list it pages: a malformed, tampered, foreign or
//     stale cursor (the list changed since it was issued) gets -32602. An empty cursor "" is taken
//     as the first page.
//   - A request beyond MaxConcurrentCalls+MaxQueuedCalls in flight, one
//     that would make the requests waiting for a handler hold more than
//     MaxQueuedBytes, a subscriptions/listen stream beyond
//     MaxListenStreams on one connection or legacy session, and one beyond
//     MaxListenStreamsTotal on a stateless endpoint are rejected at once
//     with -32603 and data {"reason": "overloaded"}.
//   - What one caller may hold of what all callers share is bounded per
//     caller (its principal's subject, else its remote address), so that
//     no caller can take it all from the others: subscriptions/listen
//     streams on a stateless endpoint (the one the HTTP helper serves
//     every 2026-07-28 request with, shared by all its clients) beyond
//     MaxListenStreamsPerCaller, and, on every transport, task records
//     beyond MaxTasksPerCaller in the task store (finished ones count until
//     they expire, since the store may not drop them sooner; the store
//     does the counting, so the bound holds across the instances sharing
//     it). One more is refused with CodeQuotaExceeded (-31000, HTTP status
//     429) and data {"reason": "quota", "limit": the option's name, "max":
//     its value}, while other callers are still served. A caller the
//     transport names neither way (stdio's one client) has no quota of its
//     own: the totals alone bound it (MaxListenStreamsTotal, the store's
//     bound).
//   - A params._meta that is not an object (null is taken as absent) gets
//     -32602 for every method, so that a probe flag or a protocol version
//     inside it is never silently missed.
//   - Error messages have one style: lower case, the error's class
//     ("invalid request", "invalid params", "method not found",
//     "unsupported protocol version", "server overloaded", "server shutting
//     down", "internal error"), then the detail. Clients should match the
//     code, never the text.
//   - Input quoted in an error message (a tool or method name, a log
//     level, a version) is clipped to its first 64 bytes, an ellipsis and
//     its length; ids are always echoed whole, as JSON-RPC requires.
//   - A peer that stops reading cannot wedge the server: once ctx is done
//     or the input ended, nothing waits for output space, and what cannot
//     be written is dropped (see Server.Serve).
//   - A request cancelled with notifications/cancelled gets no response and
//     no further progress or log messages. A request still running when the
//     shutdown grace period ends is answered with -32603 "server shutting
//     down" and its handler's context is cancelled.
//   - A duplicate id of a request still in flight gets -32600.
//   - Invalid tool arguments are a tool result with isError (SEP-1303), in
//     both eras.
//   - Error codes a revision does not define are mapped for modern requests:
//     -32002 (resource not found) becomes -32602 and -32042 becomes -32603.
//   - -32021 (missing client capability) is also used in the legacy era,
//     where it is a plain JSON-RPC error code.
package mcp
