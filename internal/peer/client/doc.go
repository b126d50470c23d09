// Package client is a small MCP client over a transport.Conn, for both
// protocol eras. It drives servers we did not write (mcpwire check runs it
// against subprocesses over stdio) and servers in the same process
// (package mcptest runs it over transport.Pipe), so it assumes nothing of
// the peer: every wait is bounded by the caller's context, and whatever the
// server writes, however wrong, is reported and never panics the client.
//
// # Connecting
//
// [Connect] starts a [Session] in the era Options.Era names. Legacy sends
// initialize, then notifications/initialized. Modern sends server/discover
// with the per-request _meta and takes the server's capabilities and
// serverInfo from its result. Auto detects the era the way hosts do
// (spec 2026-07-28, basic/transports/stdio.mdx, Backward Compatibility):
//
//   - server/discover goes first, with the modern version, bounded by
//     Options.DiscoverTimeout;
//   - a DiscoverResult means modern, with the preferred version when the
//     server lists it (or lists nothing), else the first modern version it
//     lists; one that lists only legacy versions gets initialize instead;
//   - an unsupported-version error (-32022, or the pre-release -32004 with
//     data.supported) is modern too: the client retries server/discover once
//     with a modern version from data.supported, or, when the list has only
//     legacy versions, initializes with the first of them;
//   - any other error, an answer that is not a DiscoverResult, or no answer
//     in time means legacy: initialize follows. The fallback is not keyed to
//     one error code (legacy servers answer -32601 or -32602, or nothing).
//
// [Session.Detection] records which request answered and how, for reports.
// A version before 2026-07-28 (revisions are dates, compared as strings) is
// a legacy version everywhere in this package.
//
// # Calls
//
// [Session.Call] sends one request and waits for its response, matched by
// id: the session's ids are integers it counts from 1, and the ids of the
// server's own requests are echoed exactly as the server wrote them. In the
// modern era Call adds the per-request _meta (protocolVersion,
// clientCapabilities, clientInfo) to params, keeping any _meta key the
// caller set; and when the result is input_required it answers each input
// request with Options.Handlers and sends the request again, with a new id,
// inputResponses and the requestState echoed, for at most
// Options.MaxInputRounds rounds. A call whose context ends first sends
// notifications/cancelled for it, and a late answer is dropped. The
// handshake's requests are never cancelled: the spec forbids it for
// initialize, and a legacy server would not know the server/discover id.
//
// In the legacy era the server's requests (elicitation/create,
// sampling/createMessage, roots/list, ping) are answered by the handlers,
// each on a goroutine of its own whose context ends when the server cancels
// the request or the session closes; a request without a handler gets
// -32601. Notifications go to Options.OnNotification in arrival order.
//
// # What the server gets wrong
//
// A line that is not a valid JSON-RPC message, a response to no request
// awaited, a batch, and a request from the server in the modern era (which
// forbids them) are never answered: each is recorded, and
// [Session.Problems] lists them. An invalid message whose id names a request
// awaited fails that call with the decode error. The end of the connection
// fails every call waiting with [ErrDisconnected].
package client
