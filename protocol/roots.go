package protocol

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
