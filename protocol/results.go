package protocol

import json "github.com/goccy/go-json"

// DiscoverResult answers server/discover. Its cache hints are required.
type DiscoverResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// CacheHints hold ttlMs and cacheScope (required in 2026-07-28).
	CacheHints
	// SupportedVersions are the protocol revisions the server serves;
	// required.
	SupportedVersions List[string] `json:"supportedVersions"`
	// Capabilities are what the server supports; required.
	Capabilities ServerCapabilities `json:"capabilities"`
	// Instructions tell a client how to use the server.
	Instructions string `json:"instructions,omitempty"`
}

// ListToolsResult answers tools/list with one page of tools.
type ListToolsResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// CacheHints hold ttlMs and cacheScope (required in 2026-07-28).
	CacheHints
	// Tools are this page's tools; required.
	Tools List[Tool] `json:"tools"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
}

// CallToolResult answers tools/call when the tool ran.
type CallToolResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// Content is the unstructured result; required.
	Content List[ContentBlock] `json:"content"`
	// StructuredContent is the structured result: any JSON value, which
	// must match the tool's outputSchema when it has one.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// IsError reports that the tool failed; absent means false.
	IsError *bool `json:"isError,omitempty"`
}

// ListPromptsResult answers prompts/list with one page of prompts.
type ListPromptsResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// CacheHints hold ttlMs and cacheScope (required in 2026-07-28).
	CacheHints
	// Prompts are this page's prompts; required.
	Prompts List[Prompt] `json:"prompts"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
}

// GetPromptResult answers prompts/get with the filled-in prompt.
type GetPromptResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// Description describes the prompt.
	Description string `json:"description,omitempty"`
	// Messages are the prompt's messages; required.
	Messages List[PromptMessage] `json:"messages"`
}

// ListResourcesResult answers resources/list with one page of resources.
type ListResourcesResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// CacheHints hold ttlMs and cacheScope (required in 2026-07-28).
	CacheHints
	// Resources are this page's resources; required.
	Resources List[Resource] `json:"resources"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
}

// ListResourceTemplatesResult answers resources/templates/list with one
// page of templates.
type ListResourceTemplatesResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// CacheHints hold ttlMs and cacheScope (required in 2026-07-28).
	CacheHints
	// ResourceTemplates are this page's templates; required.
	ResourceTemplates List[ResourceTemplate] `json:"resourceTemplates"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
}

// ReadResourceResult answers resources/read with the resource's contents.
type ReadResourceResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// CacheHints hold ttlMs and cacheScope (required in 2026-07-28).
	CacheHints
	// Contents are the resource's contents; required. A missing resource
	// is an error (-32602), never an empty Contents.
	Contents List[ResourceContents] `json:"contents"`
}

// SubscriptionsListenResult ends a subscriptions/listen stream gracefully.
type SubscriptionsListenResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Meta names the subscription that ended; required.
	Meta SubscriptionsListenResultMeta `json:"_meta"`
}

// Envelope is what every 2026-07-28 result carries beside its own members:
// resultType and the result's _meta (which SHOULD name the server). Legacy
// results (2024-11-05 to 2025-11-25) carry neither: a server answering a
// legacy request leaves the envelope zero, and nothing of it is encoded.
type Envelope struct {
	// ResultType is "complete", or "input_required" for an
	// InputRequiredResult.
	ResultType ResultType `json:"resultType,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// ResultEnvelope returns the envelope, so that code handling any result
// type (the server filling it in, a client reading it) reaches it the same
// way: every result type embeds Envelope.
func (e *Envelope) ResultEnvelope() *Envelope { return e }

// CacheHints are the ttlMs and cacheScope of a cacheable 2026-07-28 result
// (server/discover, the list methods, resources/read); legacy results carry
// neither.
type CacheHints struct {
	// TTLMs is how long, in milliseconds, the result may be cached; see
	// [TTL]. Required in 2026-07-28, but a pointer so that a result
	// lacking it round-trips.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope says who may reuse the cached result.
	CacheScope CacheScope `json:"cacheScope,omitempty"`
}

// ResultCacheHints returns the hints; every cacheable result type embeds
// CacheHints.
func (h *CacheHints) ResultCacheHints() *CacheHints { return h }
