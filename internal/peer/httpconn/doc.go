// Package httpconn is the client side of the Streamable HTTP transport as
// a transport.Conn: each message the client writes is POSTed to the MCP
// endpoint, and what the server answers, a JSON body or an SSE stream of
// several messages, is handed to Read in the order it came. It serves
// package client (mcpwire check --url) in both eras without the client
// knowing HTTP: the Conn watches the messages go by for what the transport
// needs (the legacy session id and revision, the annotations of the tools
// listed), so that transport stays free of MCP and client of HTTP.
//
// # What a POST carries
//
// Every POST has Content-Type application/json and Accept
// "application/json, text/event-stream", plus Options.Header. A
// 2026-07-28 message (its params._meta holds the protocol version) gets
// the headers that mirror its body (2026-07-28 Streamable HTTP, header
// parity): MCP-Protocol-Version from _meta, Mcp-Method, Mcp-Name for
// tools/call and prompts/get (name) and resources/read (uri), and, on a
// tools/call, one Mcp-Param-{Name} per argument its tool annotates with
// x-mcp-header: Name, present and not null (strings in the "=?base64?…?="
// form when they are not plain ASCII, integers in decimal, booleans as
// true or false). The annotations come from the tools/list results the
// Conn carried; a tool whose annotations break the rules gets none. A
// legacy message gets the Mcp-Session-Id the initialize response gave, and,
// from 2025-06-18 on, the negotiated MCP-Protocol-Version; initialize
// itself has neither.
//
// # Answers
//
// A request's POST runs on a goroutine of its own: Write returns once the
// request is written. While Each hands the messages to the session (on
// the goroutine of the stream that carried each, with no hand-off to a
// reader), a 2026-07-28 request is instead POSTed and answered on the
// caller's goroutine, its Write returning once it is answered: that
// revision cancels a request by closing its stream, which the caller's
// context does. Its answer is application/json (one message) or
// text/event-stream (notifications and, in a legacy session, the server's
// own requests, then the response), read until the response; events of
// another type than message are ignored (Problems), events with empty data
// (priming) are skipped. A legacy stream that ends before its response,
// having given an event id, is resumed with GET and Last-Event-ID after
// the retry hint. A notification or a response is POSTed by Write itself,
// which returns when the server answered: 202 Accepted is right, anything
// else is one of Problems. Once notifications/initialized is accepted, a
// legacy session opens its GET stream of the server's own messages (405:
// there is none), unless Options.NoStream; the Write of
// notifications/initialized returns once that GET is answered (at most
// two seconds), since a server may send a request on it at once and drops
// what it cannot send.
//
// # What the server gets wrong
//
// Nothing the server sends panics the Conn or makes it wait beyond the
// caller's contexts. A message that does not decode reaches Read as the
// *jsonrpc.DecodeError jsonrpc.Decode gives, as a garbage line of stdio
// would. A request whose answer holds no response to it (a non-2xx status
// without a JSON-RPC response of its id, another content type, no body, a
// stream that ends early, a body or event beyond Options.MaxMessageBytes)
// gets a *jsonrpc.DecodeError with its id, whose message gives the status,
// the content type and an excerpt of the body: the client fails that call
// and records it. server/discover alone is answered with an error response
// instead, made of the status, since a legacy server refuses the probe at
// the HTTP level and the client must fall back to initialize quietly. A
// server that cannot be reached, or whose answer breaks off, breaks the
// Conn: Write returns that error and Read returns it after the messages
// already read, as a stdio server's exit ends its connection.
//
// # Ending
//
// Close cancels every POST in flight and the GET stream, waits for their
// goroutines, ends a legacy session with DELETE, and closes the idle
// connections of the Conn's own HTTP client. In the 2026-07-28 era a
// notifications/cancelled is not POSTed: closing the request's stream is
// the cancellation. In a legacy session it is POSTed, and the stream is
// closed too.
package httpconn
