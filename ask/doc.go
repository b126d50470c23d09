// Package ask lets a handler ask the client for what only the client has:
// an answer from the user ([Elicit], [ElicitAs], [ElicitURL]), a
// completion from the model ([Sample], [SampleText]), or the workspace
// roots ([Roots]). It works from the handler of a tool, a prompt or a
// resource, in both protocol eras, and the handler cannot tell them apart.
//
// # Two eras, one handler
//
// In the legacy era (initialize, 2024-11-05 to 2025-11-25) the server
// sends the client a request and the ask blocks until the client answers,
// the call is cancelled, the connection ends or mcp.Options.
// ClientRequestTimeout passes.
//
// In the 2026-07-28 era a server never sends a request. An ask whose
// answer the client has not given yet returns [ErrInputRequired], and the
// server answers the call with resultType "input_required": every
// question the handler asked in this run, under stable keys, and a sealed
// requestState. The client retries the call with the answers, and the
// server runs the handler again from the start; this time each ask
// returns its answer at once. A handler may ask again depending on an
// answer: each run that asks something new is one more round.
//
// What the re-run model means for a handler:
//
//   - Everything before the last question runs once per round. Keep side
//     effects (writes, payments, messages) after the questions, or guard
//     them with [Remember] and [Recall], which carry small values from one
//     round to the next inside the sealed state (in the legacy era they
//     live as long as the one run).
//   - Ask every question you can before checking errors, and a modern
//     client gets them all in one round (see the example of [Roots]).
//   - Return the error an ask gave (or any error): while a question is
//     unanswered, the server answers input_required whatever the handler
//     returns.
//   - The handler must ask the same questions given the same answers. A
//     question's key is derived from its content (or set with [Key]), so
//     an answer is only ever returned to the question it answers.
//
// # What is checked
//
// An ask never reaches the wire for something the client did not declare
// (legacy: its initialize capabilities; modern: this request's
// clientCapabilities): it returns a [*CapabilityError] at once. A handler
// that cannot work without the capability returns that error, and the
// caller gets -32021 with data.requiredCapabilities. The client's answer
// is checked before the handler sees it: an accepted form must satisfy
// the requested schema ([*AnswerError] otherwise), and decline and cancel
// are actions of their own ([Decline], [Cancel]), never an empty accept.
package ask
