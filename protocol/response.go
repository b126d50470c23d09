package protocol

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// ResultResponse is a JSON-RPC success response whose result is an R:
// {"jsonrpc": "2.0", "id": ..., "result": ...}.
type ResultResponse[R any] struct {
	// ID is the id of the request answered; required.
	ID jsonrpc.ID
	// Result is the result.
	Result R
}

// resultWire is the JSON form of a success response.
type resultWire[R any] struct {
	JSONRPC string     `json:"jsonrpc"`
	ID      jsonrpc.ID `json:"id"`
	Result  R          `json:"result"`
}

// MarshalJSON encodes the response envelope; the id is required.
func (r ResultResponse[R]) MarshalJSON() ([]byte, error) {
	if !r.ID.IsValid() {
		return nil, errorf("result response has no id")
	}
	return json.Marshal(resultWire[R]{JSONRPC: jsonrpcVersion, ID: r.ID, Result: r.Result})
}

// UnmarshalJSON decodes a response envelope with "jsonrpc": "2.0" and an
// id.
func (r *ResultResponse[R]) UnmarshalJSON(data []byte) error {
	var w resultWire[R]
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.JSONRPC != jsonrpcVersion {
		return errorf("jsonrpc is %q, want %q", w.JSONRPC, jsonrpcVersion)
	}
	if !w.ID.IsValid() {
		return errorf("result response has no id")
	}
	r.ID, r.Result = w.ID, w.Result
	return nil
}

// Responses to each client request. tools/call, prompts/get and
// resources/read may answer with an InputRequiredResult instead, hence
// [Outcome].
type (
	// DiscoverResultResponse answers server/discover.
	DiscoverResultResponse = ResultResponse[DiscoverResult]
	// ListToolsResultResponse answers tools/list.
	ListToolsResultResponse = ResultResponse[ListToolsResult]
	// CallToolResultResponse answers tools/call.
	CallToolResultResponse = ResultResponse[Outcome[CallToolResult]]
	// ListPromptsResultResponse answers prompts/list.
	ListPromptsResultResponse = ResultResponse[ListPromptsResult]
	// GetPromptResultResponse answers prompts/get.
	GetPromptResultResponse = ResultResponse[Outcome[GetPromptResult]]
	// ListResourcesResultResponse answers resources/list.
	ListResourcesResultResponse = ResultResponse[ListResourcesResult]
	// ListResourceTemplatesResultResponse answers resources/templates/list.
	ListResourceTemplatesResultResponse = ResultResponse[ListResourceTemplatesResult]
	// ReadResourceResultResponse answers resources/read.
	ReadResourceResultResponse = ResultResponse[Outcome[ReadResourceResult]]
	// CompleteResultResponse answers completion/complete.
	CompleteResultResponse = ResultResponse[CompleteResult]
	// SubscriptionsListenResultResponse ends a subscriptions/listen stream.
	SubscriptionsListenResultResponse = ResultResponse[SubscriptionsListenResult]
)

// ErrorResponse is a JSON-RPC error response:
// {"jsonrpc": "2.0", "id": ..., "error": {...}}. The id is left out when
// the request's id could not be read; MCP never sends "id": null.
type ErrorResponse struct {
	// ID is the id of the request answered; zero when unknown.
	ID jsonrpc.ID
	// Error is the error object.
	Error jsonrpc.Error
}

// errorWire is the JSON form of an error response.
type errorWire struct {
	JSONRPC string        `json:"jsonrpc"`
	ID      *jsonrpc.ID   `json:"id,omitempty"`
	Error   jsonrpc.Error `json:"error"`
}

// MarshalJSON encodes the response envelope, without "id" when ID is zero.
func (r ErrorResponse) MarshalJSON() ([]byte, error) {
	w := errorWire{JSONRPC: jsonrpcVersion, Error: r.Error}
	if r.ID.IsValid() {
		w.ID = &r.ID
	}
	return json.Marshal(w)
}

// UnmarshalJSON decodes a response envelope with "jsonrpc": "2.0".
func (r *ErrorResponse) UnmarshalJSON(data []byte) error {
	var w errorWire
	if err := json.Unmarshal(data, &w); err != nil {
		return err
	}
	if w.JSONRPC != jsonrpcVersion {
		return errorf("jsonrpc is %q, want %q", w.JSONRPC, jsonrpcVersion)
	}
	r.ID, r.Error = jsonrpc.ID{}, w.Error
	if w.ID != nil {
		r.ID = *w.ID
	}
	return nil
}

// UnsupportedProtocolVersionData is the error data of -32022
// (UnsupportedProtocolVersionError).
type UnsupportedProtocolVersionData struct {
	// Supported are the revisions the server serves; required.
	Supported List[string] `json:"supported"`
	// Requested is the revision the request asked for; required.
	Requested string `json:"requested"`
}

// MissingRequiredClientCapabilityData is the error data of -32021
// (MissingRequiredClientCapabilityError).
type MissingRequiredClientCapabilityData struct {
	// RequiredCapabilities are the capabilities the request lacked;
	// required.
	RequiredCapabilities ClientCapabilities `json:"requiredCapabilities"`
}
