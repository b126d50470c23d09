// Package check is the contract review of one MCP server as a client
// sees it: the sequence that `mcpwire check` runs against a subprocess
// and mcptest.Check runs against an *mcp.Server in the same process, one
// implementation for both. Package review holds the rules (pure functions
// over raw JSON); this package drives a connected *client.Session through
// the gates and gathers what they find into a [Report].
//
// [Run] takes a session the caller connected, in either era (as the
// reviewer: [ClientOptions]), and:
//
//   - Discover: lists tools, and the resources, resource templates and
//     prompts the server declares, every page of each (client.ListPages),
//     twice; other items, the same items in another order, a changed
//     descriptor and a name listed twice are findings of the server
//     (Report.Problems). A list the server refuses or writes wrong is a
//     finding and the review goes on without it; a list that gets no answer
//     within Options.Timeout, or a connection that ends, stops the review
//     (Failure, stage "discover").
//   - Admit: every descriptor is reviewed on its own (review.Tool,
//     review.Resource, review.ResourceTemplate, review.Prompt), and every
//     tool's x-mcp-header annotations are audited (review.Headers).
//   - Invoke, Execute, Consume: every admitted tool that needs no argument
//     and declares readOnlyHint true (every one that needs no argument with
//     Options.CallAll) is called with {}, one at a time, each call bounded
//     by Options.Timeout; the answer is classified (an Outcome* constant)
//     and every complete result is reviewed (review.Result). A server that
//     ends the connection during a call ends the calls (Report.Ended).
//   - What the session found wrong on the wire (Session.Problems), after
//     what the caller found below it (Options.Wire), is reported once per
//     distinct finding.
//
// The report's verdict is [Admitted] when nothing was refused, [Rejected]
// when a descriptor, a call, a result or the server was, and [NotRun] when
// the review could not run; Report.Exit is mcpwire check's exit status for
// it. A caller that could not reach Run (its server did not start, or the
// handshake failed) reports that with [NewReport], [Report.Fail] and
// [Report.Finish]. The Report is mcpwire check's --json document, field for
// field: its names and rule ids are stable.
//
// The messages name mcpwire check's flags (--timeout, --total,
// --call-all) for the options of the same meaning; a caller with other
// names for the bounds gives them (Options.TimeoutName, TotalName).
package check
