package protocol

import json "github.com/goccy/go-json"

// RequestParams are the params every 2026-07-28 request has, and all of
// server/discover's.
type RequestParams struct {
	// Meta carries the per-request protocol version, capabilities and
	// client info; required.
	Meta RequestMeta `json:"_meta"`
}

// PaginatedRequestParams are the params of the list methods.
type PaginatedRequestParams struct {
	// Meta carries the per-request metadata; required.
	Meta RequestMeta `json:"_meta"`
	// Cursor is the nextCursor of the previous page; nil asks for the
	// first page. "" is a valid cursor, not the first page.
	Cursor *string `json:"cursor,omitempty"`
}

// CallToolRequestParams are the params of tools/call.
type CallToolRequestParams struct {
	// Meta carries the per-request metadata; required.
	Meta RequestMeta `json:"_meta"`
	// Name is the tool's name; required.
	Name string `json:"name"`
	// Arguments is the arguments object, as sent.
	Arguments json.RawMessage `json:"arguments,omitempty"`
	// InputResponses answer the input requests of an earlier
	// InputRequiredResult.
	InputResponses InputResponses `json:"inputResponses,omitzero"`
	// RequestState echoes the requestState of an earlier
	// InputRequiredResult.
	RequestState string `json:"requestState,omitempty"`
}

// GetPromptRequestParams are the params of prompts/get.
type GetPromptRequestParams struct {
	// Meta carries the per-request metadata; required.
	Meta RequestMeta `json:"_meta"`
	// Name is the prompt's name; required.
	Name string `json:"name"`
	// Arguments are the prompt's arguments, all strings.
	Arguments map[string]string `json:"arguments,omitzero"`
	// InputResponses answer the input requests of an earlier
	// InputRequiredResult.
	InputResponses InputResponses `json:"inputResponses,omitzero"`
	// RequestState echoes the requestState of an earlier
	// InputRequiredResult.
	RequestState string `json:"requestState,omitempty"`
}

// ReadResourceRequestParams are the params of resources/read.
type ReadResourceRequestParams struct {
	// Meta carries the per-request metadata; required.
	Meta RequestMeta `json:"_meta"`
	// URI is the resource to read; required.
	URI string `json:"uri"`
	// InputResponses answer the input requests of an earlier
	// InputRequiredResult.
	InputResponses InputResponses `json:"inputResponses,omitzero"`
	// RequestState echoes the requestState of an earlier
	// InputRequiredResult.
	RequestState string `json:"requestState,omitempty"`
}

// SubscriptionsListenRequestParams are the params of subscriptions/listen.
type SubscriptionsListenRequestParams struct {
	// Meta carries the per-request metadata; required.
	Meta RequestMeta `json:"_meta"`
	// Notifications are the notification types asked for; required.
	Notifications SubscriptionFilter `json:"notifications"`
}

// SubscriptionFilter selects the notifications of a subscriptions/listen
// stream. The server's acknowledgement repeats the subset it honours.
type SubscriptionFilter struct {
	// ToolsListChanged asks for notifications/tools/list_changed.
	ToolsListChanged *bool `json:"toolsListChanged,omitempty"`
	// PromptsListChanged asks for notifications/prompts/list_changed.
	PromptsListChanged *bool `json:"promptsListChanged,omitempty"`
	// ResourcesListChanged asks for
	// notifications/resources/list_changed.
	ResourcesListChanged *bool `json:"resourcesListChanged,omitempty"`
	// ResourceSubscriptions are resource URIs to get
	// notifications/resources/updated for.
	ResourceSubscriptions []string `json:"resourceSubscriptions,omitzero"`
	// TaskIDs are the tasks to get notifications/tasks for: a member of
	// the tasks extension (io.modelcontextprotocol/tasks), honoured only
	// for requests that declare it.
	TaskIDs []string `json:"taskIds,omitzero"`
}
