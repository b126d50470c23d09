package protocol

import json "github.com/goccy/go-json"

// Tool describes a tool a client can call, as tools/list lists it.
type Tool struct {
	// Name identifies the tool; required. It SHOULD be 1-128 characters
	// of A-Z, a-z, 0-9, "_", "-" and ".".
	Name string `json:"name"`
	// Title is the display name; it takes precedence over
	// Annotations.Title and Name.
	Title string `json:"title,omitempty"`
	// Description says what the tool does.
	Description string `json:"description,omitempty"`
	// Icons are sized icons a client may display.
	Icons []Icon `json:"icons,omitzero"`
	// InputSchema is the JSON Schema (2020-12 unless it says otherwise)
	// of the arguments: an object schema; required.
	InputSchema json.RawMessage `json:"inputSchema"`
	// OutputSchema is the JSON Schema of structuredContent, of any type.
	OutputSchema json.RawMessage `json:"outputSchema,omitempty"`
	// Annotations are hints about the tool's behaviour; untrusted unless
	// the server is.
	Annotations *ToolAnnotations `json:"annotations,omitempty"`
	// Meta is the tool's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ToolAnnotations are hints about a tool's behaviour. Each hint is a
// pointer because an absent hint has a default that differs from false
// for some of them.
type ToolAnnotations struct {
	// Title is a display name.
	Title string `json:"title,omitempty"`
	// ReadOnlyHint: the tool does not modify its environment (default
	// false).
	ReadOnlyHint *bool `json:"readOnlyHint,omitempty"`
	// DestructiveHint: the tool may destroy or overwrite data (default
	// true; meaningful only when not read-only).
	DestructiveHint *bool `json:"destructiveHint,omitempty"`
	// IdempotentHint: repeating a call with the same arguments has no
	// further effect (default false; meaningful only when not read-only).
	IdempotentHint *bool `json:"idempotentHint,omitempty"`
	// OpenWorldHint: the tool reaches an open world of external entities
	// (default true).
	OpenWorldHint *bool `json:"openWorldHint,omitempty"`
}
