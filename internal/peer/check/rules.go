package check

// Gates this package adds to package review's admit and consume.
const (
	GateDiscover = "discover" // listing: may a client rely on what is listed?
	GateInvoke   = "invoke"   // calling: did the call get a usable answer?
)

// Rule ids of this package's own findings (package review has the rest).
const (
	RuleListRefused     = "list-refused"     // a list the server declares was answered with an error
	RuleListInvalid     = "list-invalid"     // a page is not an object, its items not an array, or nextCursor not a string
	RuleListOrder       = "list-order"       // two listings gave the same items in another order
	RuleListContent     = "list-content"     // two listings gave different items, or an item changed
	RuleListDuplicate   = "list-duplicate"   // one listing gave two items of the same name (or uri)
	RuleWire            = "wire-message"     // the server wrote a line no client can use (garbage, a stray response, a batch)
	RuleCallError       = "call-error"       // a no-argument call was refused as a bad request (-32700, -32600, -32601, -32602)
	RuleCallTimeout     = "call-timeout"     // no answer within Options.Timeout
	RuleCallFailed      = "call-failed"      // the answer could not be read, or the server ended the connection
	RuleInputUndeclared = "input-undeclared" // the server asked for input the client did not declare (sampling)
)

// Outcomes of a tools/call (ToolReport.Outcome).
const (
	OutcomeNotCalled  = "not-called"
	OutcomeSuccess    = "success"
	OutcomeIsError    = "is-error"   // an isError result
	OutcomeError      = "error"      // a JSON-RPC error response
	OutcomeTimeout    = "timeout"    // no answer within Options.Timeout
	OutcomeFailed     = "failed"     // no usable answer
	OutcomeIncomplete = "incomplete" // a resultType other than complete, such as task
)

// Why a tool is not called (ToolReport.Reason). The messages name
// mcpwire check's flags, the options of the same names.
const (
	SkipNotAdmitted = "not admitted"
	SkipNeedsArgs   = "needs arguments"
	SkipNotReadOnly = "not read-only (--call-all calls it)"
	SkipServerGone  = "the server ended the connection"
	SkipOutOfTime   = "the review ran out of time (--total)"
)
