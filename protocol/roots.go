package protocol

// ListRootsRequest asks the client for its filesystem roots (deprecated
// feature). In 2026-07-28 it is not a JSON-RPC request of its own but an
// entry of [InputRequiredResult.InputRequests]; it encodes with
// "method": "roots/list" and no id.
type ListRootsRequest struct {
	// Params are optional.
	Params *ListRootsRequestParams `json:"params,omitempty"`
}

// MarshalJSON encodes the request with its method.
func (r ListRootsRequest) MarshalJSON() ([]byte, error) {
	type plain ListRootsRequest
	return marshalTagged("method", MethodListRoots, plain(r))
}

// UnmarshalJSON decodes a request whose method is roots/list.
func (r *ListRootsRequest) UnmarshalJSON(data []byte) error {
	type plain ListRootsRequest
	return unmarshalTagged(data, "method", MethodListRoots, (*plain)(r))
}

// ListRootsRequestParams are the params of a roots/list input request.
type ListRootsRequestParams struct {
	// Meta is the params' _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// Root is a directory or file the client lets the server work in.
type Root struct {
	// URI is a file:// URI; required.
	URI string `json:"uri"`
	// Name is a display name.
	Name string `json:"name,omitempty"`
	// Meta is the root's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ListRootsResult is the client's answer to a roots/list input request,
// sent back in [InputResponses]. It has no resultType.
type ListRootsResult struct {
	// Roots are the roots; required.
	Roots List[Root] `json:"roots"`
}
