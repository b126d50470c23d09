// Command everything is mcpwire's contract server: an MCP stdio server (or,
// with -http, a Streamable HTTP one) exposing the tools, resources, resource
// templates, prompts and completions that the golden transcripts, the
// interop clients, the load driver and the conformance contract exercise.
//
// Usage:
//
//	everything [-page-size 10] [-max-message-bytes N] [-grace 1s] [-sandbox DIR]
//	           [-caller NAME[:SCOPE,...]] [-completion-rate N] [-watch-interval 3s]
//	           [-input-state-ttl 15m0s] [-client-request-timeout 5m0s] [-task-ttl 1h0m0s]
//	           [-fixtures] [-skills] [-apps] [-gateway] [-http 127.0.0.1:PORT] [-cpuprofile FILE]
//	           [-instance NAME] [-state-key SECRET] [-redis HOST:PORT]
//	           [-trusted-proxies ADDR,...] [-auth dev]
//
// -page-size is the page size of every list (tools, resources, templates,
// prompts).
//
// -caller names who every request acts for, as completion providers and
// tools see it: a name, then optionally a colon and comma-separated scopes,
// such as "ada:operator" ($MCPWIRE_CALLER when the flag is not given; no
// caller when both are empty). The operator scope unlocks what others never
// see: the production choice of deployment_review's completion and the
// restricted evidence resources (neither listed nor found by search_evidence
// for anyone else). -completion-rate bounds completion/complete requests per
// caller and second (0: the runtime's default).
//
// -watch-interval is how often test://watched-resource changes, telling its
// subscribers; 0 changes it only when the tool test_trigger_resource_update
// is called, which is what the golden transcripts use.
//
// -input-state-ttl is how long a 2026-07-28 requestState stays valid: a
// client retrying an input_required call with an older one gets -32602.
// -client-request-timeout bounds how long a legacy call waits for the
// client's answer to an elicitation, sampling or roots request; past it
// the server cancels its request (notifications/cancelled) and the tool
// fails.
//
// -task-ttl is how long a task of the tasks extension is kept after its
// last update (the ttlMs of every task): once it has passed, tasks/get,
// tasks/update and tasks/cancel answer -32602 unknown task, and a
// subscriptions/listen no longer honours the task's id. A handler still
// running then is not stopped by the expiry; its outcome finds no task to
// record it in and is dropped. Like -input-state-ttl it must be positive.
//
// -http ADDR serves the same server over Streamable HTTP instead of stdio,
// at http://ADDR/mcp (both eras: legacy sessions with Mcp-Session-Id, and
// 2026-07-28's stateless requests), until SIGINT or SIGTERM. Give a
// loopback address such as 127.0.0.1:8080; port 0 takes a free port. The
// URL actually served is logged to stderr first, as "everything: listening
// on http://127.0.0.1:PORT/mcp". -max-message-bytes bounds a request body.
// On the signal the server stops accepting connections, ends its sessions
// and streams, lets calls in flight finish within -grace, and exits 0.
// This is how the official conformance suite, which tests servers only over
// HTTP, is run against it (see conformance/ in the repository).
// -trusted-proxies lists the addresses or CIDR prefixes of the reverse
// proxies in front ($MCPWIRE_TRUSTED_PROXIES when the flag is not given):
// behind them, the client address they forward (X-Forwarded-For, or
// Forwarded) names the caller for the per-caller limits (legacy sessions,
// listen streams, tasks, a share of the running calls); from any other
// peer those headers are ignored. Behind nginx on the same machine, give
// 127.0.0.1 and have nginx set X-Forwarded-For (deploy/nginx.conf does).
//
// -auth dev (with -http on a loopback address) makes the endpoint an OAuth
// 2.1 resource server (package oauth): every request needs a bearer token
// whose audience is the endpoint's URL, issued by a development
// authorization server (jwtauth.DevIssuer) that the command starts on a
// loopback port and names on stderr first, as "everything: development
// authorization server (...) at http://127.0.0.1:PORT". A request without
// a usable token gets 401 whose challenge names the Protected Resource
// Metadata document (RFC 9728), served beside the endpoint, which names
// that server; an MCP client registers there, is authorized at once and
// gets its token. THAT SERVER APPROVES EVERY REQUEST, with no user and no
// consent: it is for trying a client's sign-in end to end and for tests,
// never for protecting anything.
//
// -instance, -state-key and -redis make it one instance of a deployment
// behind a load balancer (see deploy/ in the repository, and the README's
// deployment section), each also read from the environment when its flag is
// not given ($MCPWIRE_INSTANCE, $MCPWIRE_STATE_KEY, $MCPWIRE_REDIS).
// -instance names it (1 to 16 letters, digits, - or _): its legacy session
// ids start with the name and a dot, so that nginx sends every request of a
// session to the instance holding it. -state-key is the secret, at least 32
// characters and the same on every instance, that seals cursors and
// requestState, so that any instance accepts the state another handed out
// (a random secret per process when unset). -redis is the Redis server whose
// pub/sub carries list changes and resource updates between instances
// (package redisbroker; this is why cmd/everything is a module of its own),
// and which also keeps the records of tasks (redisbroker.TaskStore, in place
// of the in-memory default), so that a task created through one instance is
// polled, answered with tasks/update and cancelled through any other; the
// task's handler runs on the instance that created it, or that resumed it
// after its last answer. While Redis is down, a call that would become a
// task and the tasks methods are answered -32603.
// With -instance or -redis two more tools are served: instance (which
// instance answered, and how many tool calls it served) and
// touch_resource {"uri": ...} (raises notifications/resources/updated for
// that resource on every instance), so that fan-out can be seen from
// outside.
//
// -gateway serves the server through package gateway in the same
// process, as its one upstream with names as they are: what the gateway
// itself costs per call, without another process's hop
// (bench/run-gateway.sh measures it).
//
// -fixtures also lists the fault fixtures that the tests and the demo call:
// panic (its handler panics), broken_contract (it breaks its own output
// schema) and the resource template test://items/{n}, whose completion
// offers more values than one result carries. They are off by default,
// since a host shows every listed tool to its model.
//
// -skills also serves the Skills extension (io.modelcontextprotocol/skills,
// package skill) on 2026-07-28 connections, with two embedded skills,
// pdf-processing (with a references/ directory) and summarize, their files
// as resources and resources/directory/read: what the conformance suite's
// sep-2640-* server scenarios read. Off by default, so that the lists
// other tests read are unchanged.
//
// -apps also serves an MCP App (io.modelcontextprotocol/ui, package apps):
// the view ui://everything/calculator.html, a form that adds two numbers,
// with the tools calculator (which a host's model calls to open it) and
// calculator_add (which only the view calls). Off by default, like -skills.
//
// What it serves:
//
//   - Tools: echo, add, fail, slow, tag_catalog, evidence_bundle,
//     route_report, search_evidence, write_file, read_file, the tools the
//     official conformance suite calls by name (test_simple_text and the
//     other test_* tools, json_schema_2020_12_tool; with -http also
//     test_reconnection, which closes its SSE stream mid-call, the result
//     reaching the client when it resumes with Last-Event-ID), the triggers
//     test_trigger_tool_change, test_trigger_resource_update and
//     test_trigger_prompt_change, and the tools that ask the client for
//     input through package ask: test_sampling, test_sampling_with_tools,
//     test_elicitation, test_elicitation_sep1034_defaults,
//     test_elicitation_sep1330_enums, test_streaming_elicitation,
//     test_missing_capability and the input-required scenarios'
//     test_input_required_result_elicitation, _sampling, _list_roots,
//     _request_state, _multiple_inputs, _multi_round, _tampered_state and
//     _capabilities. A legacy client gets a request for each question
//     (roots are cached until notifications/roots/list_changed); a
//     2026-07-28 client gets an input_required result and retries.
//   - The tasks extension's tools (io.modelcontextprotocol/tasks, the
//     conformance suite's tasks-* scenarios; tools_tasks.go): greet (no task
//     support), slow_compute (optional: sleeps seconds, cancellable; with
//     seconds 0 it answers at once), failing_job (required: a tool error
//     after a second, a completed task with isError), protocol_error_job
//     (required: panics, a failed task), confirm_delete and multi_input
//     (optional: one question, and two at once, answered with tasks/update)
//     and test_tool_with_task (required, deferred: asks user_name on its
//     request, then calls mcp.StartTask). They are listed only to requests
//     that declare the extension, so that every other client's tools/list
//     (the golden transcripts, the interop counts) is unchanged; the
//     scenarios that call them without the declaration (slow_compute's
//     synchronous fall-through, failing_job's -32021) need no listing.
//     server/discover advertises the extension.
//   - Resources: test://static-text, test://static-binary,
//     test://watched-resource, test://example-resource and the evidence://
//     documents search_evidence finds; the template test://template/{id}/data.
//   - Prompts: test_simple_prompt, test_prompt_with_arguments,
//     test_prompt_with_embedded_resource, test_prompt_with_image,
//     deployment_review and test_input_required_result_prompt (which asks
//     the user for its context first), with completion for the arguments of
//     test_prompt_with_arguments and deployment_review.
package main
