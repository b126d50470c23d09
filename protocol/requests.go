package protocol

import "github.com/mcpwire/mcpwire/jsonrpc"

// Methods of the 2026-07-28 client requests and of the input requests a
// server may embed in an InputRequiredResult.
const (
	MethodDiscover              = "server/discover"
	MethodListTools             = "tools/list"
	MethodCallTool              = "tools/call"
	MethodListPrompts           = "prompts/list"
	MethodGetPrompt             = "prompts/get"
	MethodListResources         = "resources/list"
	MethodListResourceTemplates = "resources/templates/list"
	MethodReadResource          = "resources/read"
	MethodComplete              = "completion/complete"
	MethodSubscriptionsListen   = "subscriptions/listen"
	MethodCreateMessage         = "sampling/createMessage"
	MethodElicit                = "elicitation/create"
	MethodListRoots             = "roots/list"
)

// DiscoverRequest asks the server for its versions, capabilities and
// instructions (server/discover). Servers must implement it. It encodes as a
// JSON-RPC request with "method": "server/discover"; decoding one with
// another method, or without an id, is an error.
type DiscoverRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params RequestParams
}

// MarshalJSON encodes the request envelope.
func (r DiscoverRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodDiscover, r.ID, r.Params)
}

// UnmarshalJSON decodes a server/discover request envelope.
func (r *DiscoverRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodDiscover, &r.ID, &r.Params)
}

// ListToolsRequest asks for a page of the server's tools (tools/list). It
// encodes as a JSON-RPC request with "method": "tools/list"; decoding one
// with another method, or without an id, is an error.
type ListToolsRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params PaginatedRequestParams
}

// MarshalJSON encodes the request envelope.
func (r ListToolsRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodListTools, r.ID, r.Params)
}

// UnmarshalJSON decodes a tools/list request envelope.
func (r *ListToolsRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodListTools, &r.ID, &r.Params)
}

// CallToolRequest calls a tool (tools/call). It encodes as a JSON-RPC request
// with "method": "tools/call"; decoding one with another method, or without
// an id, is an error.
type CallToolRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params CallToolRequestParams
}

// MarshalJSON encodes the request envelope.
func (r CallToolRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodCallTool, r.ID, r.Params)
}

// UnmarshalJSON decodes a tools/call request envelope.
func (r *CallToolRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodCallTool, &r.ID, &r.Params)
}

// ListPromptsRequest asks for a page of the server's prompts (prompts/list).
// It encodes as a JSON-RPC request with "method": "prompts/list"; decoding
// one with another method, or without an id, is an error.
type ListPromptsRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params PaginatedRequestParams
}

// MarshalJSON encodes the request envelope.
func (r ListPromptsRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodListPrompts, r.ID, r.Params)
}

// UnmarshalJSON decodes a prompts/list request envelope.
func (r *ListPromptsRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodListPrompts, &r.ID, &r.Params)
}

// GetPromptRequest asks for a prompt filled in with arguments (prompts/get).
// It encodes as a JSON-RPC request with "method": "prompts/get"; decoding one
// with another method, or without an id, is an error.
type GetPromptRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params GetPromptRequestParams
}

// MarshalJSON encodes the request envelope.
func (r GetPromptRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodGetPrompt, r.ID, r.Params)
}

// UnmarshalJSON decodes a prompts/get request envelope.
func (r *GetPromptRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodGetPrompt, &r.ID, &r.Params)
}

// ListResourcesRequest asks for a page of the server's resources
// (resources/list). It encodes as a JSON-RPC request with "method":
// "resources/list"; decoding one with another method, or without an id, is an
// error.
type ListResourcesRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params PaginatedRequestParams
}

// MarshalJSON encodes the request envelope.
func (r ListResourcesRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodListResources, r.ID, r.Params)
}

// UnmarshalJSON decodes a resources/list request envelope.
func (r *ListResourcesRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodListResources, &r.ID, &r.Params)
}

// ListResourceTemplatesRequest asks for a page of the server's resource
// templates (resources/templates/list). It encodes as a JSON-RPC request with
// "method": "resources/templates/list"; decoding one with another method, or
// without an id, is an error.
type ListResourceTemplatesRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params PaginatedRequestParams
}

// MarshalJSON encodes the request envelope.
func (r ListResourceTemplatesRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodListResourceTemplates, r.ID, r.Params)
}

// UnmarshalJSON decodes a resources/templates/list request envelope.
func (r *ListResourceTemplatesRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodListResourceTemplates, &r.ID, &r.Params)
}

// ReadResourceRequest reads a resource (resources/read). It encodes as a
// JSON-RPC request with "method": "resources/read"; decoding one with another
// method, or without an id, is an error.
type ReadResourceRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params ReadResourceRequestParams
}

// MarshalJSON encodes the request envelope.
func (r ReadResourceRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodReadResource, r.ID, r.Params)
}

// UnmarshalJSON decodes a resources/read request envelope.
func (r *ReadResourceRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodReadResource, &r.ID, &r.Params)
}

// CompleteRequest asks for completions of a prompt or resource template
// argument (completion/complete). It encodes as a JSON-RPC request with
// "method": "completion/complete"; decoding one with another method, or
// without an id, is an error.
type CompleteRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params CompleteRequestParams
}

// MarshalJSON encodes the request envelope.
func (r CompleteRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodComplete, r.ID, r.Params)
}

// UnmarshalJSON decodes a completion/complete request envelope.
func (r *CompleteRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodComplete, &r.ID, &r.Params)
}

// SubscriptionsListenRequest opens a stream of list-changed and resource-
// updated notifications (subscriptions/listen). It encodes as a JSON-RPC
// request with "method": "subscriptions/listen"; decoding one with another
// method, or without an id, is an error.
type SubscriptionsListenRequest struct {
	// ID is the request id; required.
	ID jsonrpc.ID
	// Params are the request's params; required.
	Params SubscriptionsListenRequestParams
}

// MarshalJSON encodes the request envelope.
func (r SubscriptionsListenRequest) MarshalJSON() ([]byte, error) {
	return marshalRequest(MethodSubscriptionsListen, r.ID, r.Params)
}

// UnmarshalJSON decodes a subscriptions/listen request envelope.
func (r *SubscriptionsListenRequest) UnmarshalJSON(data []byte) error {
	return unmarshalRequest(data, MethodSubscriptionsListen, &r.ID, &r.Params)
}
