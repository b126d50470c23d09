// Package mcp serves the Model Context Protocol over any message-level
// connection (see package transport). It knows nothing of stdio.
//
// # Eras and revisions
//
// The legacy era starts with an initialize handshake. Supported revisions
// are 2024-11-05, 2025-03-26, 2025-06-18 and 2025-11-25. A client asking for
// one of them gets it echoed; any other version gets a counter-offer of
// 2025-11-25, never an error. Every result carries only the fields its
// negotiated revision defines.
//
// # Choices where the spec leaves room
//
//   - An error response to a message whose id cannot be read omits "id"
//     (see package jsonrpc).
//   - A request other than initialize and ping that arrives before
//     initialize gets -32602 saying a session must be initialized first; an
//     unknown method gets -32601 at any time.
//   - JSON-RPC batches are accepted only when 2025-03-26 was negotiated,
//     the one revision that defines them; otherwise an array gets a single
//     -32600.
//   - A cursor is an opaque, integrity-protected token bound to the tool
//     list's generation: a malformed, tampered or stale cursor (the list
//     changed since it was issued) gets -32602. An empty cursor "" is taken
//     as the first page.
//   - A request beyond MaxConcurrentCalls+MaxQueuedCalls in flight is
//     rejected with -32603 and data {"reason": "overloaded"}.
//   - A request cancelled with notifications/cancelled gets no response and
//     no further progress. A request still running when the shutdown grace
//     period ends is answered with -32603 "server shutting down" and its
//     handler's context is cancelled.
//   - A duplicate id of a request still in flight gets -32600.
//   - Invalid tool arguments are a tool result with isError (SEP-1303).
package mcp
