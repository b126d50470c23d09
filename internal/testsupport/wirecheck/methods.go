package wirecheck

import "slices"

// Kind says who sends a method's messages, and so which of them a server
// writes.
type Kind int

const (
	// ClientRequest is a request the client sends; the server writes the
	// response, whose result is Method.Result.
	ClientRequest Kind = iota + 1
	// ServerNotification is a notification the server writes, of
	// definition Method.Message.
	ServerNotification
	// ServerRequest is a request the server writes, of definition
	// Method.Message (legacy revisions only; 2026-07-28 servers send none).
	ServerRequest
)

// Method maps one MCP method to the schema definitions wirecheck uses for
// what the server writes. A method exists in a revision when that
// revision's ClientRequest, ServerNotification or ServerRequest union
// (by Kind) lists Message.
type Method struct {
	// Name is the JSON-RPC method, e.g. "tools/call".
	Name string
	// Kind says who sends the method's messages.
	Kind Kind
	// Message is the definition of the request or notification itself,
	// e.g. "CallToolRequest" or "ProgressNotification".
	Message string
	// Result is the definition of the result a server answers a
	// ClientRequest with, e.g. "CallToolResult"; empty for other kinds.
	Result string
}

// methods is the table behind Methods and lookupMethod.
var methods = []Method{
	{"initialize", ClientRequest, "InitializeRequest", "InitializeResult"},
	{"ping", ClientRequest, "PingRequest", "EmptyResult"},
	{"server/discover", ClientRequest, "DiscoverRequest", "DiscoverResult"},
	{"subscriptions/listen", ClientRequest, "SubscriptionsListenRequest", "SubscriptionsListenResult"},
	{"tools/list", ClientRequest, "ListToolsRequest", "ListToolsResult"},
	{"tools/call", ClientRequest, "CallToolRequest", "CallToolResult"},
	{"prompts/list", ClientRequest, "ListPromptsRequest", "ListPromptsResult"},
	{"prompts/get", ClientRequest, "GetPromptRequest", "GetPromptResult"},
	{"resources/list", ClientRequest, "ListResourcesRequest", "ListResourcesResult"},
	{"resources/templates/list", ClientRequest, "ListResourceTemplatesRequest", "ListResourceTemplatesResult"},
	{"resources/read", ClientRequest, "ReadResourceRequest", "ReadResourceResult"},
	{"resources/subscribe", ClientRequest, "SubscribeRequest", "EmptyResult"},
	{"resources/unsubscribe", ClientRequest, "UnsubscribeRequest", "EmptyResult"},
	{"completion/complete", ClientRequest, "CompleteRequest", "CompleteResult"},
	{"logging/setLevel", ClientRequest, "SetLevelRequest", "EmptyResult"},
	{"tasks/get", ClientRequest, "GetTaskRequest", "GetTaskResult"},
	{"tasks/result", ClientRequest, "GetTaskPayloadRequest", "GetTaskPayloadResult"},
	{"tasks/list", ClientRequest, "ListTasksRequest", "ListTasksResult"},
	{"tasks/cancel", ClientRequest, "CancelTaskRequest", "CancelTaskResult"},

	{"notifications/progress", ServerNotification, "ProgressNotification", ""},
	{"notifications/message", ServerNotification, "LoggingMessageNotification", ""},
	{"notifications/cancelled", ServerNotification, "CancelledNotification", ""},
	{"notifications/tools/list_changed", ServerNotification, "ToolListChangedNotification", ""},
	{"notifications/prompts/list_changed", ServerNotification, "PromptListChangedNotification", ""},
	{"notifications/resources/list_changed", ServerNotification, "ResourceListChangedNotification", ""},
	{"notifications/resources/updated", ServerNotification, "ResourceUpdatedNotification", ""},
	{"notifications/subscriptions/acknowledged", ServerNotification, "SubscriptionsAcknowledgedNotification", ""},
	{"notifications/elicitation/complete", ServerNotification, "ElicitationCompleteNotification", ""},
	{"notifications/tasks/status", ServerNotification, "TaskStatusNotification", ""},

	{"ping", ServerRequest, "PingRequest", ""},
	{"sampling/createMessage", ServerRequest, "CreateMessageRequest", ""},
	{"roots/list", ServerRequest, "ListRootsRequest", ""},
	{"elicitation/create", ServerRequest, "ElicitRequest", ""},
	{"tasks/get", ServerRequest, "GetTaskRequest", ""},
	{"tasks/result", ServerRequest, "GetTaskPayloadRequest", ""},
	{"tasks/list", ServerRequest, "ListTasksRequest", ""},
	{"tasks/cancel", ServerRequest, "CancelTaskRequest", ""},
}

// Methods returns the method table wirecheck validates server messages by,
// across all revisions; Checker.MethodsOf filters it for one revision. The
// slice is a copy.
func Methods() []Method {
	return slices.Clone(methods)
}

// lookupMethod returns the table entry for name and kind.
func lookupMethod(name string, kind Kind) (Method, bool) {
	for _, m := range methods {
		if m.Name == name && m.Kind == kind {
			return m, true
		}
	}
	return Method{}, false
}

// unionOf names the schema union that lists the messages of kind.
func unionOf(kind Kind) string {
	switch kind {
	case ClientRequest:
		return "ClientRequest"
	case ServerNotification:
		return "ServerNotification"
	default:
		return "ServerRequest"
	}
}

// MethodsOf returns the entries of Methods that revision rev defines, in
// table order, or nil when rev is not loaded.
func (c *Checker) MethodsOf(rev string) []Method {
	r, ok := c.revs[rev]
	if !ok {
		return nil
	}
	var out []Method
	for _, m := range methods {
		if r.defines(m) {
			out = append(out, m)
		}
	}
	return out
}

// defines reports whether the revision has method m: its union for m's
// kind lists m.Message, and the result definition exists.
func (r *revision) defines(m Method) bool {
	union, _ := r.defs()[unionOf(m.Kind)].(map[string]any)
	branches, _ := union["anyOf"].([]any)
	want := r.defLoc(m.Message)
	listed := false
	for _, b := range branches {
		if bm, ok := b.(map[string]any); ok && bm["$ref"] == want {
			listed = true
		}
	}
	return listed && (m.Result == "" || r.hasDef(m.Result))
}
