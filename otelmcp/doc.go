// Package otelmcp traces and measures an mcp.Server with OpenTelemetry: it
// is an mcp.Observer, set as mcp.Options.Observer.
//
//	obs, err := otelmcp.New(nil) // the global tracer and meter providers
//	if err != nil { ... }
//	srv := mcp.NewServer(info, &mcp.Options{Observer: obs})
//
// It is a module of its own, so that the main module stays free of
// OpenTelemetry. It follows OpenTelemetry's semantic conventions for the
// Model Context Protocol (the GenAI conventions' mcp.md, status
// Development; the attribute names are those of semconv v1.41.0, the
// last release that carried them before they moved to the GenAI
// repository).
//
// # Spans
//
// One span per request, of kind SERVER, named "{mcp.method.name}
// {target}" where the target is the tool (tools/call) or the prompt
// (prompts/get, and completion/complete of a prompt's argument), and
// "{mcp.method.name}" otherwise; the resource URI joins the name only with
// Options.ResourceURIInSpanName, since it may have high cardinality. Its
// attributes: mcp.method.name, jsonrpc.request.id, mcp.protocol.version,
// mcp.session.id (a legacy HTTP session), gen_ai.tool.name and
// gen_ai.operation.name "execute_tool" (tools/call), gen_ai.prompt.name,
// mcp.resource.uri, network.transport ("pipe" for stdio and other
// streams, "tcp" for HTTP) and network.protocol.name ("http"), and two of
// this package: mcpwire.protocol.era ("legacy" or "modern") and
// mcpwire.outcome (mcp.Outcome's name: "result", "tool_error",
// "input_required", "error", "overloaded", "timeout", "cancelled").
//
// A request that fails has error.type and span status ERROR: for a
// JSON-RPC error, error.type and rpc.response.status_code are its code
// ("-32602"; an overload and a timeout are "-32603", told apart by
// mcpwire.outcome); for an isError tool result error.type is "tool_error";
// for a request cancelled by the client, or by its HTTP exchange ending,
// it is "cancelled". The status description is empty unless
// Options.RecordErrorMessages is set, since a server's error message may
// quote what the client sent (the conventions suggest the message).
// Values of arguments and results are never recorded: the conventions'
// opt-in gen_ai.tool.call.arguments and gen_ai.tool.call.result are not
// offered.
//
// The parent of a span is the trace context the client sent in the
// request's params._meta (the unprefixed traceparent and tracestate keys,
// and baggage, which the 2026-07-28 revision reserves for it), extracted
// with Options.Propagator (default: W3C Trace Context and Baggage). When
// the context also holds a span of its own (an HTTP server span that
// otelhttp started for the POST), that span is linked, as the conventions
// ask, and stays the parent when _meta carries no trace context. The
// handler's context holds the request's span, so the handler's own spans
// are its children.
//
// # Metrics
//
//   - mcp.server.operation.duration (histogram, s; the conventions'
//     metric, with their bucket boundaries): mcp.method.name, error.type,
//     rpc.response.status_code, gen_ai.tool.name, gen_ai.prompt.name,
//     gen_ai.operation.name, mcp.protocol.version, network.transport,
//     network.protocol.name, mcpwire.protocol.era, mcpwire.outcome;
//     mcp.resource.uri only with Options.ResourceURIInMetrics (Opt-In in
//     the conventions).
//   - mcpwire.server.requests (counter, {request}): the requests that
//     ended, with the attributes of the duration.
//   - mcpwire.server.active_requests (up-down counter, {request}): the
//     requests in flight, by mcp.method.name, network.transport and
//     mcpwire.protocol.era (an open subscriptions/listen stream is one,
//     for as long as it lasts, and so is its span).
//   - mcpwire.server.overloads (counter, {request}): the requests refused
//     for a server limit (the MaxQueuedCalls, MaxQueuedBytes,
//     MaxListenStreams and MaxListenStreamsTotal of mcp.Options, the HTTP
//     helper's MaxRequests, MaxRequestBytes and MaxSessions), by
//     mcpwire.limit, mcp.method.name (when it was read) and
//     network.transport. A caller refused for its own quota
//     (mcp.CodeQuotaExceeded) is not counted here: its request ends as an
//     error.
//   - mcpwire.server.input_required (counter, {round}): the rounds of
//     questions to the client (2026-07-28 input_required results), by
//     mcp.method.name, gen_ai.tool.name and gen_ai.prompt.name.
//
// The conventions define only the duration; the others are this
// package's, under its own prefix. A request refused as unknown
// (-32601, or -32602 for tools/call, prompts/get and completion/complete,
// which is how an unknown tool or prompt is answered) keeps its tool and
// prompt name off the metrics, since a client could otherwise mint a new
// series with every name it invents; its span has them.
package otelmcp
