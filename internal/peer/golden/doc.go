// Package golden replays golden transcripts against an MCP server and
// compares what it writes with what the transcript expects.
//
// A transcript is a text file:
//
//	# Prose saying what the transcript guards (any number of # lines).
//	-- config --
//	page-size=3
//	-- session --
//	> {"jsonrpc":"2.0","id":1,"method":"ping"}
//	< {"jsonrpc":"2.0","id":1,"result":{}}
//
// Lines starting with "> " are written to the server as they are; the "< "
// lines after them are the server lines expected before the next client
// line is sent. Lines are compared as JSON (key order does not matter). An
// expected string value "$NAME" matches any string and binds NAME to it;
// later client lines get "$NAME" replaced with the bound value, wherever it
// stands in them. Cursors and 2026-07-28 requestState values are random per
// process (a state is sealed with a random nonce under a per-process key),
// so transcripts name them this way: -update writes a
// $CURSOR_<step>_<line> placeholder for each new nextCursor and a
// $STATE_<step>_<line> placeholder for each new requestState it records,
// <step> counting client lines (directives included) from 1 and <line> the
// server lines after it. A client line echoes a state as
// "requestState":"$STATE_3_1"; one that tampers with it can put other text
// around the placeholder, as in "X$STATE_3_1".
//
// Directives on client lines:
//
//	> !pad N TEMPLATE   sends TEMPLATE with @PAD@ replaced by N "x" bytes
//	> !close            closes the server's stdin; the "<" lines after it
//	                    are expected before the server's stdout ends
//	> !sleep DURATION   sends nothing and waits DURATION (as time.ParseDuration
//	                    reads it, such as 300ms), for a state to expire or a
//	                    timeout to pass; the "<" lines after it are what the
//	                    server writes meanwhile and right after
//
// After the last client line the harness closes stdin (if no !close did)
// and expects the server's output to end with no further lines.
//
// A response to a long-lived request, a subscriptions/listen (2026-07-28,
// Subscriptions) or a tasks/result (2025-11-25, Tasks), is the exception
// to step order: it ends a stream, when the host ends the session or the
// task is done, so on replay it matches wherever it comes, before or
// after the step the transcript files it under; one that never comes is
// reported at its line. Record (how -update rewrites) ends a step by the
// rule SettlePeriod states: once every request sent has its response
// (long-lived ones aside), SettlePeriod after the server's last line;
// while one is owed, QuietPeriod; after !close, when the output ends.
//
// "#" lines inside the session are prose: Load keeps them with the client
// line after them (Step.Notes) or after the last step (Transcript.Trailer)
// and Format writes them back, so a rewrite keeps them.
//
// # Transcripts recorded from other servers
//
// Replay and Record compare exactly, as the project's own transcripts are
// compared (mcptest.Replay with mcptest.Exact). ReplayWith and RecordWith
// take Options that normalise what legitimately differs between runs of a
// server someone else wrote, as mcpwire replay does for a session mcpwire
// record wrote (and mcptest.Replay by default):
//
//   - Timestamps: a string that parses as RFC 3339 matches any other.
//   - Volatile: JSON pointers (RFC 6901; "*" matches any one member or
//     element) whose values match whatever the server writes there; a
//     transcript names them in its header (below).
//   - ServerIDs: the id of a request the server sends (elicitation/create,
//     sampling/createMessage, roots/list, ping) matches the id the server
//     picks, by position, and a later client line answering the
//     transcript's id is sent with the server's; Rewrite writes the
//     answers of requests it rewrote with the server's ids.
//   - Text: an expected line that is not JSON matches the same text.
//
// A volatile pointer is a header line of its own, "# volatile: " and the
// pointer (the rest of the line, trimmed), read by Transcript.Volatile:
//
//	# volatile: /result/content/0/text
//	# volatile: /result/tools/*/description
//
// It applies to every server line, and only where the expected line has
// a value: a member the expected line has and the server left out is
// still a difference.
//
// NameSealed turns a recorded session into a replayable one: each literal
// nextCursor and requestState a server line holds becomes a
// $CURSOR_<step>_<line> or $STATE_<step>_<line> placeholder, named as
// Rewrite names them, and so does the same value sent back in a later
// client line. A recorded string that is exactly "$NAME" is read as a
// placeholder too, and a recorded client line starting with "!" as a
// directive; neither comes from a real host.
//
// # Reports
//
// An Outcome's Problems say what went wrong, each starting with the
// client line of its step ("step at line 12: ..."); its Faults are the
// same problems, one for one, with the line each is about (the expected
// "< " line that differs, Step.ExpectedLines) and the message without
// the location, for a report of the form file:line: message, as
// mcptest.Replay prints them. A recording reports no differences, only
// what the Checker finds in the lines it records.
//
// Package mcptest's Replay is the public face of this engine: it serves an
// *mcp.Server over in-memory pipes and replays through ReplayWith, or
// rewrites through RecordWith; the project's own stdio transcripts are
// replayed with it (cmd/everything).
//
// HTTP transcripts (testdata/http) have a format of their own, described in
// http.go: requests with their headers and the statuses, headers, bodies and
// SSE events expected back (LoadHTTP, ReplayHTTP, RecordHTTP).
package golden
