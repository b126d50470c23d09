// Command demo is the program behind `make demo`: it builds cmd/everything,
// starts it (with -fixtures -page-size 1) with its stdin and stdout on
// pipes, and drives one scripted session over them, printing every line
// that crosses the pipes as it was sent: → for the client, ← for the
// server. A line longer than 200 bytes (480 in the steps whose lines are
// the point) is cut visibly, "… (N more bytes)"; the tools/list line is
// cut after its first tool, before a nextCursor that is random per process.
// A step that calls a tool first shows the tool's Go source, read from
// cmd/everything's files at run time (its argument type, then the tool.New
// call or tool.Tool literal), so the reader sees what they would write next
// to the exchange it produces.
//
// One process serves both protocol eras, and the demo shows both. By
// default it shows, in 8 steps:
//
//   - Legacy (2025-11-25): initialize and notifications/initialized;
//     tools/list with echo's inferred input schema as the client sees it;
//     a typed call and an argument that fails the schema check (an isError
//     result); a log message after logging/setLevel; progress; a cancelled
//     call that is never answered; one JSON-RPC error of each class
//     (-32700, -32600, -32601, -32602, -32603).
//
//   - Modern (2026-07-28): server/discover, a resources/read through the
//     template test://template/{id}/data carrying the per-request _meta
//     (protocolVersion, clientCapabilities, clientInfo), whose result adds
//     resultType, the cache hints and serverInfo; a task: slow_compute
//     called with the tasks extension declared answers a CreateTaskResult,
//     and tasks/get, pollIntervalMs later, finds it completed with the
//     tool's result (the task id and timestamps, random per run, are
//     shown as placeholders); and subscriptions/listen with its
//     acknowledgement of the honoured filters; closing stdin ends the
//     listen stream with its result and the server exits with status 0.
//
// With -all it shows every step, 13, numbered in order; the title line
// says which mode ran. -all adds:
//
//   - Legacy, after the errors: a resources/read, a prompts/get of
//     deployment_review and the completion of its environment argument
//     (development and staging: the server has no caller, and production
//     is offered to operators only); an elicitation:
//     test_input_required_result_elicitation sends the client
//     elicitation/create and waits for the answer.
//
//   - Modern, after the read: the same elicitation, answered
//     input_required and completed by the retry (the requestState is cut:
//     it is random per run).
//
//   - Streamable HTTP, once the stdio session held: the same binary
//     started with -http 127.0.0.1:0; a 2026-07-28 tools/call whose
//     headers mirror its body and whose progress arrives as SSE events
//     before the result, then a legacy session opened by initialize
//     (Mcp-Session-Id) and ended by DELETE, and SIGTERM with exit status
//     0. An HTTP request is shown as its method, path and MCP headers, then
//     its body; a response as its status, content type and session header,
//     then its body or each SSE data line; the port and the session id,
//     random per run, are not shown.
//
// Each step runs its checks when it is shown: the default run checks what
// it shows, and -all runs every check.
//
// The output is the same on every run: no times, process ids, cursors or
// request states, and each step waits for what it expects before sending
// more. Each wait
// is bounded (5 s, and 60 s for the whole session, after which the server
// is killed), so the demo cannot hang. Checks are silent while they hold;
// one that does not prints a FAIL line, the server's stderr is shown, and
// the program exits with status 1.
//
// Colour is used only when stdout is a terminal (and NO_COLOR is unset), so
// `make demo | cat` and CI logs stay plain text.
//
// Usage, from anywhere inside the module (-h prints it):
//
//	go run ./cmd/demo [-all]
package main
