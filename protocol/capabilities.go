package protocol

// ClientCapabilities are what a client supports. In 2026-07-28 they are
// declared per request, in _meta; {} declares none.
type ClientCapabilities struct {
	// Experimental holds non-standard capabilities.
	Experimental map[string]Object `json:"experimental,omitzero"`
	// Extensions holds extension capabilities by prefixed identifier, such
	// as "io.modelcontextprotocol/ui".
	Extensions map[string]Object `json:"extensions,omitzero"`
	// Roots is present when the client can answer roots/list input
	// requests (deprecated feature).
	Roots Object `json:"roots,omitzero"`
	// Sampling is present when the client can answer
	// sampling/createMessage input requests (deprecated feature).
	Sampling *SamplingCapability `json:"sampling,omitempty"`
	// Elicitation is present when the client can answer
	// elicitation/create input requests.
	Elicitation *ElicitationCapability `json:"elicitation,omitempty"`
}

// SamplingCapability details a client's sampling support.
type SamplingCapability struct {
	// Context is present when the client supports includeContext values
	// other than "none" (deprecated).
	Context Object `json:"context,omitzero"`
	// Tools is present when the client supports tools and toolChoice.
	Tools Object `json:"tools,omitzero"`
}

// ElicitationCapability details a client's elicitation support; an empty
// one means form mode only.
type ElicitationCapability struct {
	// Form is present when the client supports form mode.
	Form Object `json:"form,omitzero"`
	// URL is present when the client supports URL mode.
	URL Object `json:"url,omitzero"`
}

// ServerCapabilities are what a server supports, as server/discover
// reports them.
type ServerCapabilities struct {
	// Experimental holds non-standard capabilities.
	Experimental map[string]Object `json:"experimental,omitzero"`
	// Extensions holds extension capabilities by prefixed identifier, such
	// as "io.modelcontextprotocol/tasks".
	Extensions map[string]Object `json:"extensions,omitzero"`
	// Logging is present when the server can send log notifications
	// (deprecated feature).
	Logging Object `json:"logging,omitzero"`
	// Completions is present when the server answers completion/complete.
	Completions Object `json:"completions,omitzero"`
	// Prompts is present when the server offers prompts.
	Prompts *PromptsCapability `json:"prompts,omitempty"`
	// Resources is present when the server offers resources.
	Resources *ResourcesCapability `json:"resources,omitempty"`
	// Tools is present when the server offers tools.
	Tools *ToolsCapability `json:"tools,omitempty"`
}

// PromptsCapability details a server's prompt support.
type PromptsCapability struct {
	// ListChanged reports that subscriptions/listen can deliver
	// prompt list changes.
	ListChanged *bool `json:"listChanged,omitempty"`
}

// ResourcesCapability details a server's resource support.
type ResourcesCapability struct {
	// Subscribe reports that subscriptions/listen accepts
	// resourceSubscriptions.
	Subscribe *bool `json:"subscribe,omitempty"`
	// ListChanged reports that subscriptions/listen can deliver resource
	// list changes.
	ListChanged *bool `json:"listChanged,omitempty"`
}

// ToolsCapability details a server's tool support.
type ToolsCapability struct {
	// ListChanged reports that subscriptions/listen can deliver tool list
	// changes.
	ListChanged *bool `json:"listChanged,omitempty"`
}
