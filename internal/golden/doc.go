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
// HTTP transcripts (testdata/http) have a format of their own, described in
// http.go: requests with their headers and the statuses, headers, bodies and
// SSE events expected back (LoadHTTP, ReplayHTTP, RecordHTTP).
package golden
