// Package mcptest helps you test your own MCP server from Go tests: it
// serves an *mcp.Server over an in-memory pipe and connects a client of
// package client to it, the client a host would use, in either protocol
// era.
//
//	func TestAdd(t *testing.T) {
//		c := mcptest.NewClient(t, newServer(), nil)
//		sum, err := client.CallToolAs[Sum](t.Context(), c, "add", map[string]int{"a": 2, "b": 3})
//		if err != nil || sum.Sum != 5 {
//			t.Errorf("add = %+v, %v", sum, err)
//		}
//	}
//
// # Eras
//
// [NewClient] takes the client's *client.Options. Nil, like the zero
// Options, detects the era as hosts do and so speaks 2026-07-28 with an
// *mcp.Server: every request carries its own _meta, and a call the server
// answers input_required is answered and retried inside the client, so a
// test sees only the final result. Options.Era protocol.Legacy (with
// ProtocolVersion, such as "2025-06-18") speaks a revision of the
// initialize era, where the server sends the client requests instead;
// the same handlers answer them. A table of both tests one server in both
// eras.
//
// # The client's side
//
// Options.Elicit, Sample and Roots script what the user or the model would
// answer, and declare the matching capability; Options.Capabilities
// declares something else (or nothing) instead. Options.OnNotification
// gets the server's log messages (after [client.Client.SetLogLevel]), and
// [client.WithProgress] a call's progress.
//
// # Results and errors
//
// The client returns package protocol's wire types. A JSON-RPC error
// response is returned as a *jsonrpc.Error, matched by code:
//
//	_, err := c.CallTool(ctx, "no-such-tool", nil)
//	if !errors.Is(err, jsonrpc.ErrInvalidParams) { ... }
//
// while a tool that failed is a result whose IsError is set. The client's
// Admit and Consume gates judge what the server sends, as they would in a
// host: a tool whose descriptor breaks the specification cannot be
// called, and a result that breaks its tool's output schema is an error
// (a *client.Finding). What a client of the negotiated revision gets is
// what the test gets: a 2025-era client receives a non-object structured
// result wrapped as {"result": value}, exactly as on the wire.
//
// # Checking the contract
//
// [Check] reviews a server as `mcpwire check` reviews any server, as a
// client decides whether to admit what it lists and use what it answers,
// and fails the test once per finding:
//
//	func TestContract(t *testing.T) {
//		mcptest.Check(t, newServer()) // 2026-07-28
//		for _, v := range []string{"2025-06-18", "2025-11-25"} {
//			mcptest.Check(t, newServer(), mcptest.WithClient(&client.Options{Era: protocol.Legacy, ProtocolVersion: v}))
//		}
//	}
//
// [WithClient] also gives Check the test's answers to the server's
// questions instead of the reviewer's, who declines every elicitation.
//
// Every list is read twice, page by page; every descriptor is reviewed
// (names, input and output schemas for the revision, x-mcp-header rules);
// every tool that declares readOnlyHint true and needs no argument is
// called, every such tool with [CallAll], and each result is reviewed
// (content blocks, structuredContent against the outputSchema, its text
// mirror). An error reads
//
//	mcptest.Check: tool "stats": consume structured-text-mirror at "/content": no text block holds ...
//
// naming the item, the gate (discover, admit, invoke, consume), the rule
// id and the JSON pointer into the descriptor or result. The rules and
// their ids are those of `mcpwire check` (see its documentation).
//
// # Golden transcripts
//
// [Replay] replays a golden transcript against a server and fails the
// test at every server line that differs from the transcript's, naming
// the file and line with a diff:
//
//	func TestGolden(t *testing.T) {
//		mcptest.Replay(t, newServer(), "testdata/session.golden")
//	}
//
// A transcript is the file `mcpwire record` writes from a real host's
// session and `mcpwire replay` replays against any stdio server: prose
// "#" lines, then the client's lines ("> ") each followed by the server
// lines expected after it ("< "). Lines compare as JSON; "$NAME" stands
// for a value that changes from run to run (cursors and requestState
// values are written so), RFC 3339 times match each other, and the
// header can name JSON pointers whose values never matter ("#
// volatile: /result/content/0/text"). Directives send what no host
// would: "!close" closes the server's input mid-session, "!pad N
// TEMPLATE" sends a long line, "!sleep D" waits.
//
// Run the test with -update to rewrite the transcript from what the
// server writes: mcptest defines no flag of its own, so that it never
// clashes with a test's, and reads a boolean -update flag when the test
// binary declares one (var _ = flag.Bool("update", false, "...")); the
// environment variable MCPTEST_UPDATE=1 does the same in every package,
// and [Update] decides in code. Read the rewritten file before keeping
// it. A rewrite ends each step once the server owes nothing: when every
// request sent so far has its response, 40 ms after the server's last
// line (a step that sends only notifications waits those 40 ms too).
// While a response is owed it waits up to 400 ms after each line, as it
// does when the server has asked the client something and waits for the
// answer; a "!close" step ends when the server's output does. The
// response of a long-lived request (subscriptions/listen, tasks/result)
// is owed by no step, and on replay it matches wherever it comes, since
// when a stream ends depends on when the host ends it. So a rewrite
// costs about 40 ms per client line rather than 400 ms, and a server
// that writes a notification more than 40 ms after its step's last
// response needs a "!sleep" step before the line that should see it.
//
// # Cleanup
//
// The test's cleanup closes the client and fails the test if the server's
// Serve does not return, returns an error, wrote anything the client
// could not read (a finding of Gate "wire"), or sent anything the Admit or
// Consume gate refused: a test of one's own server fails on what a host
// would refuse. Check and Replay end their connection before they return,
// with the same checks of Serve.
package mcptest
