// Package client connects to MCP servers: a subprocess over stdio, a
// Streamable HTTP endpoint, or any transport.Conn, in either era of the
// protocol (the legacy revisions with initialize and sessions, and
// 2026-07-28's stateless requests), with the same code for both.
//
//	c, err := client.Connect(ctx, client.Stdio{Command: []string{"./server"}}, nil)
//	if err != nil { ... }
//	defer c.Close()
//	for tool, err := range c.Tools(ctx) { ... }
//	res, err := c.CallTool(ctx, "add", map[string]int{"a": 2, "b": 3})
//
// # Eras
//
// By default [Connect] detects the era as hosts do (the 2026-07-28
// specification's stdio transport, Backward Compatibility):
// server/discover first, bounded by Options.DiscoverTimeout; a
// DiscoverResult or an unsupported-version error means 2026-07-28, and
// anything else (an error, no answer in time) means a legacy server, which
// then gets initialize. [Info].Detection records how it went.
// Options.Era pins an era instead. Everything else reads the same in both:
// lists follow cursors to the end, the server's questions go to the same
// handlers (legacy server requests, or 2026-07-28 input_required results
// answered and retried with their requestState echoed), [Client.Listen]
// is subscriptions/listen or the legacy unsolicited notifications, and
// [Client.SetLogLevel] is logging/setLevel or the _meta logLevel.
//
// # Admit and Consume
//
// The client does not trust what a server sends; "a server cannot force
// the client to trust its annotations, schemas or output". Two gates stand
// between the server and the caller, with the rules `mcpwire check`
// applies to other servers:
//
//   - Admit: a listed tool whose name is missing, whose inputSchema does
//     not compile as JSON Schema 2020-12 with an object root, whose
//     outputSchema is not valid for the revision, or whose x-mcp-header
//     annotations break the 2026-07-28 rules is left out of
//     [Client.Tools] and cannot be called; so is one Options.Admit
//     refuses (by name, annotation, server: the caller's policy).
//     Resources, templates and prompts get their rules too.
//   - Consume: a tool result whose content blocks are invalid (bad
//     base64, a relative URI, an unknown block type for the revision) or
//     whose structured content breaks the tool's outputSchema is not
//     returned: the call fails with a [*Finding] naming the rule and the
//     JSON pointer.
//
// Only what breaks a MUST of the specification is refused. What breaks a
// SHOULD (a tool name outside the recommended characters, structured
// content without its text mirror, an x-mcp-header on a parameter named
// like a secret) is a warning: the item passes, and the finding is in
// [Client.Findings] and logged, as every refusal is. Options.Lenient
// refuses nothing, for debugging a server.
//
// # Caching
//
// On 2026-07-28, results of tools/list, prompts/list, resources/list,
// resources/templates/list and resources/read that carry ttlMs and
// cacheScope are reused for their ttlMs (at most a day) by this client
// only, so a "private" result is never shared with another caller. A
// list-changed notification drops its lists, a resource update its reads;
// [Fresh] skips the cache for one call; Options.NoCache turns it off.
//
// # What the server gets wrong
//
// Every wait is bounded by the caller's context. A line or body over
// Options.MaxMessageBytes, garbage, a response to no request, a server
// that dies or closes its stream mid-call: each fails the calls it
// concerns with an error, and the client goes on where it can (a closed
// legacy SSE stream is resumed with Last-Event-ID). A call whose context
// ends sends notifications/cancelled and drops the late answer.
package client
