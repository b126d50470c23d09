// Package scenario is the interop scenario that every Go client SDK runs
// against the server under test: connect, list every tool across pages, call
// echo, add, tag_catalog, fail, evidence_bundle and an unknown tool, run slow
// with progress and with a cancel, list resources, resource templates and
// prompts across pages, read text, binary, templated and missing resources,
// get prompts with and without their required arguments, complete a prompt
// argument, subscribe to a resource and unsubscribe, answer the server's
// sampling, elicitation (accept and decline), roots and two-step questions
// (server requests in the legacy era, input_required rounds in 2026-07-28),
// check the wire, then close stdin and expect the server to exit.
//
// A client SDK takes part through a small adapter, a [Connect] function that
// returns a [Session], and registers its SDK's handlers to answer with
// [Handlers]; everything else (the child process, the wire
// transcript, the checks and their report) is shared. [ProgressRoutes],
// [UpdateRoutes], [ToolsOf], [ItemsOf], [NewResult], [ContentsOf] and
// [MessagesOf] are the parts every adapter needs.
package scenario
