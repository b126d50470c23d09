package protocol

import json "github.com/goccy/go-json"

// DiscoverResult answers server/discover. Its cache hints are required.
type DiscoverResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// SupportedVersions are the protocol revisions the server serves;
	// required.
	SupportedVersions List[string] `json:"supportedVersions"`
	// Capabilities are what the server supports; required.
	Capabilities ServerCapabilities `json:"capabilities"`
	// Instructions tell a client how to use the server.
	Instructions string `json:"instructions,omitempty"`
	// TTLMs is how long, in milliseconds, the result may be cached; see
	// [TTL]. Required, but a pointer so that a result lacking it
	// round-trips.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope says who may reuse the cached result; required.
	CacheScope CacheScope `json:"cacheScope,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// ListToolsResult answers tools/list with one page of tools.
type ListToolsResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Tools are this page's tools; required.
	Tools List[Tool] `json:"tools"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the result may be cached; see
	// [TTL]. Required.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope says who may reuse the cached result; required.
	CacheScope CacheScope `json:"cacheScope,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// CallToolResult answers tools/call when the tool ran.
type CallToolResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Content is the unstructured result; required.
	Content List[ContentBlock] `json:"content"`
	// StructuredContent is the structured result: any JSON value, which
	// must match the tool's outputSchema when it has one.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// IsError reports that the tool failed; absent means false.
	IsError *bool `json:"isError,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// ListPromptsResult answers prompts/list with one page of prompts.
type ListPromptsResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Prompts are this page's prompts; required.
	Prompts List[Prompt] `json:"prompts"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the result may be cached; see
	// [TTL]. Required.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope says who may reuse the cached result; required.
	CacheScope CacheScope `json:"cacheScope,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// GetPromptResult answers prompts/get with the filled-in prompt.
type GetPromptResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Description describes the prompt.
	Description string `json:"description,omitempty"`
	// Messages are the prompt's messages; required.
	Messages List[PromptMessage] `json:"messages"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// ListResourcesResult answers resources/list with one page of resources.
type ListResourcesResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Resources are this page's resources; required.
	Resources List[Resource] `json:"resources"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the result may be cached; see
	// [TTL]. Required.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope says who may reuse the cached result; required.
	CacheScope CacheScope `json:"cacheScope,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// ListResourceTemplatesResult answers resources/templates/list with one
// page of templates.
type ListResourceTemplatesResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// ResourceTemplates are this page's templates; required.
	ResourceTemplates List[ResourceTemplate] `json:"resourceTemplates"`
	// NextCursor fetches the next page; nil on the last page.
	NextCursor *string `json:"nextCursor,omitempty"`
	// TTLMs is how long, in milliseconds, the result may be cached; see
	// [TTL]. Required.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope says who may reuse the cached result; required.
	CacheScope CacheScope `json:"cacheScope,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// ReadResourceResult answers resources/read with the resource's contents.
type ReadResourceResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Contents are the resource's contents; required. A missing resource
	// is an error (-32602), never an empty Contents.
	Contents List[ResourceContents] `json:"contents"`
	// TTLMs is how long, in milliseconds, the result may be cached; see
	// [TTL]. Required.
	TTLMs *int64 `json:"ttlMs,omitempty"`
	// CacheScope says who may reuse the cached result; required.
	CacheScope CacheScope `json:"cacheScope,omitempty"`
	// Meta is the result's _meta.
	Meta *ResultMeta `json:"_meta,omitempty"`
}

// SubscriptionsListenResult ends a subscriptions/listen stream gracefully.
type SubscriptionsListenResult struct {
	// ResultType is "complete".
	ResultType ResultType `json:"resultType,omitempty"`
	// Meta names the subscription that ended; required.
	Meta SubscriptionsListenResultMeta `json:"_meta"`
}
