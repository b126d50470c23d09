// Command mcpwire reviews MCP servers, in any language, the way a client
// decides whether to admit what they list and use what they answer, and
// records and replays their sessions as golden transcripts; and serves
// several servers as one (gateway).
//
//	mcpwire check [--json] [--call-all] [--era E] [--timeout D] [--total D] -- CMD [ARGS...]
//	mcpwire check [--json] [--call-all] [--era E] [--timeout D] [--total D] [--header 'Name: value']... [--bearer-env VAR] [--no-sign-in] --url URL
//	mcpwire record --out FILE [--note TEXT] -- CMD [ARGS...]
//	mcpwire replay [--update] FILE -- CMD [ARGS...]
//	mcpwire gateway --config FILE [--http ADDR]
//	mcpwire help
//
// gateway serves the upstreams a configuration file lists as one MCP
// server (package gateway), on stdio or, with --http, over Streamable
// HTTP at http://ADDR/mcp.
//
// # check
//
// check starts CMD with pipes for its stdin and stdout (its stderr is kept,
// last 20 lines, and shown when the review cannot run), or with --url
// reaches a Streamable HTTP endpoint (see Streamable HTTP below), and goes
// through the gates of a tool's life on the client's side:
//
//   - Discover: the era is detected as hosts do it (server/discover first,
//     then initialize; package internal/peer/client), and the report says which
//     answered and how; --era legacy or --era modern speaks that era
//     without detecting it (a dual-era server reviewed in each). tools/list is paged to its end (nextCursor followed
//     until it is absent, "" being a real cursor), and so are resources/list,
//     resources/templates/list and prompts/list when the server declares
//     resources or prompts. Every list is read twice: other items, the same
//     items in another order, or a changed descriptor is a finding, and so is
//     a name listed twice.
//   - Admit: every descriptor is reviewed on its own by package
//     internal/peer/review (review.Tool, review.Resource, review.ResourceTemplate,
//     review.Prompt), so one bad descriptor never stops the others, and each
//     tool's x-mcp-header annotations are audited (review.Headers: names,
//     paths and verdicts, never values).
//   - Invoke, Execute, Consume: every admitted tool that declares
//     annotations.readOnlyHint true and needs no argument (its inputSchema
//     accepts {}: no required members, nor anything else that refuses an
//     empty object) is called with {} — with --call-all every admitted tool
//     that needs no argument — one at a time, each call bounded by
//     --timeout. The answer is a JSON-RPC error, an isError result or a
//     success, and every result is reviewed (review.Result).
//
// Garbage on stdout, a response to no request and the like are recorded
// by the client (Session.Problems) and reported, never fatal; the first
// line of stdout that is not JSON is quoted, since that is the print a
// server author needs to find.
//
// # Streamable HTTP
//
// With --url the session runs over package internal/peer/httpconn, both eras:
// each message is POSTed to the URL (Accept: application/json,
// text/event-stream), and the answer, a JSON body or an SSE stream of
// notifications, server requests and the response, is read as stdout
// would be. 2026-07-28 requests carry the headers that mirror their body
// (MCP-Protocol-Version, Mcp-Method, Mcp-Name, and the Mcp-Param-{Name}
// of x-mcp-header annotated arguments, taken from tools/list); a legacy
// session carries the Mcp-Session-Id its initialize response gave and the
// negotiated MCP-Protocol-Version, opens its GET stream (405: there is
// none), resumes a stream the server closes early with Last-Event-ID, and
// is ended with DELETE. A server/discover refused at the HTTP level (a 400,
// 404 or 405, as legacy servers answer it) falls back to initialize
// quietly. A request answered with no JSON-RPC response (another status,
// content type or empty body, a stream that ends early) fails with the
// status, the content type and an excerpt of the body; an unreachable URL,
// or one that answers no MCP at all (a web page, a 404), stops the review
// before it starts (exit 2).
//
// An endpoint protected as the specification's Authorization section
// describes is reviewed with a token: --bearer-env VAR sends
// Authorization: Bearer and the token in the environment variable VAR, and
// --header 'Name: value' (repeatable) sends any header with every request.
// Neither value is ever printed, not even when the command line is wrong.
// Without either, check signs in when the endpoint answers 401, as the
// Authorization section has clients do (package client/signin): it
// discovers the authorization server, registers dynamically, opens the
// user's browser at the authorization URL (or prints it on stderr) and
// takes the redirect on a loopback port (RFC 8252); --total bounds the
// wait; a sign-in that fails stops the review with its reason (the rule
// the server broke, or the authorization server's error). With
// --no-sign-in, a handshake answered 401 Unauthorized says that the endpoint wants a token (or
// refused the one sent), names these flags, and gives the protected
// resource metadata URL of the WWW-Authenticate challenge's
// resource_metadata when the server sent one.
//
// # What the reviewer answers the server
//
// The reviewer is a user who says no: it declares elicitation (form mode)
// and roots, declines every elicitation and lists no roots. It does not
// declare sampling: a legacy sampling request gets -32601, and a
// 2026-07-28 tool whose input_required asks for sampling anyway is a
// finding ("input-undeclared").
//
// # Findings of the command
//
// Besides package review's rule ids (admit and consume gates), check adds:
//
//	discover list-refused      a declared list answered with an error
//	discover list-invalid      a page that is not an object, items that are not an array, a bad nextCursor
//	discover list-order        two listings gave the same items in another order
//	discover list-content      two listings gave different items, or an item changed
//	discover list-duplicate    one listing named two items alike
//	discover wire-message      stdout (or an HTTP answer) carried a message no client can use
//	discover http-transport    an HTTP exchange broke the transport's rules outside any message:
//	                           a notification or response POST answered otherwise than 202, the
//	                           legacy GET refused otherwise than 405, an SSE event of another type
//	invoke   call-error        a call the inputSchema allows was refused as a bad request (-32700, -32600, -32601, -32602)
//	invoke   call-timeout      no answer within --timeout
//	invoke   call-failed       an answer that cannot be read, or the server ended the connection
//	invoke   input-undeclared  the tool asked for input the client did not declare
//
// Other JSON-RPC errors (-32603, or -32021 for a missing client capability)
// are shown as the call's outcome but refuse nothing: a client can act on
// them.
//
// # Output and exit status
//
// On stdout, a table (coloured only when stdout is a terminal and NO_COLOR
// is unset; server text is escaped so that it cannot drive the terminal;
// its header names the command, or the URL and Streamable HTTP), or with
// --json one JSON document: transport (stdio or streamable-http), server,
// era, revision, detection,
// capabilities, pages (per list), tools (name, admitted, called, outcome,
// reason, problems, headers), resources, resourceTemplates, prompts, the
// server-level problems, failure (when the review could not run), verdict
// and exit. A tool is admitted when no gate refused it: its descriptor, and
// its result when it was called. Progress lines go to stderr once a review
// has run for a second.
//
// The exit status is 0 when everything is admitted, 1 when anything is
// refused (a descriptor, a result, a call, or the server's own findings),
// and 2 when the review could not run: the server did not start or could
// not be reached, ended or
// stopped answering during the handshake or a listing (the handshake is
// bounded by the server/discover probe plus --timeout, each listing by
// --timeout), spoke no MCP, or the review outlasted --total; and for a
// wrong command line. A server that ends the connection during a call is a
// finding (call-failed): the tools after it are not called.
//
// # record
//
// record is a transparent stdio proxy: a host configured to launch
// "mcpwire record --out session.golden -- ./server" instead of "./server"
// works as before (bytes relayed unchanged both ways, stderr passed
// through, SIGINT, SIGTERM and SIGHUP forwarded, EOF closing the server's
// stdin, the server's exit status kept), while the session is written to
// FILE in the project's golden transcript format (package internal/peer/golden),
// with a header naming the time, the client (clientInfo of initialize, or
// of a 2026-07-28 request's _meta), the server, the command and the note.
// The way the host ends the session is written as what a replay can do:
// EOF on stdin, or a signal (Claude Code sends SIGINT) is a "> !close"
// step, once, with a "#" line naming the signal, and what the server
// writes in answer (the end of a subscriptions/listen stream, say) after
// it. Cursors and requestState values become placeholders, so the
// file replays. The file is rewritten shortly after new lines arrive and
// when the server exits; a SIGKILL of the recorder can lose the last tenth
// of a second.
//
// # replay
//
// replay sends the transcript's client lines to CMD and compares what it
// writes as JSON, key order ignored, normalising what differs between runs:
// cursors and requestState (by position), the ids of requests the server
// sends (the client's answers follow the server's ids), RFC 3339
// timestamps, and the JSON pointers a "# volatile: /pointer" header line
// names (a "*" segment matches any key or element). The response of a
// long-lived request (subscriptions/listen, tasks/result) matches wherever
// it comes, so a transcript that files the end of a listen stream under
// another step replays. It prints one diff per
// differing line and exits 0 on a match, 1 on a difference, 2 when it could
// not run; --update rewrites the file from what the server wrote.
package main
