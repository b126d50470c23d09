package tool

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Content is one content block of a result: *Text, *Image, *Audio,
// *ResourceLink or *EmbeddedResource. The set is closed (the interface has
// an unexported method): a block type the runtime does not know is a
// compile error, never a call-time surprise.
type Content interface {
	// ContentType returns the block's "type" value.
	ContentType() string
	// wire returns the block as package protocol encodes it.
	wire() (protocol.ContentBlock, error)
}

// ContentAnnotations tell a client how to use a block.
type ContentAnnotations struct {
	// Audience lists "user" and/or "assistant".
	Audience []string `json:"audience,omitempty"`
	// Priority is in [0, 1]; 1 means effectively required.
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is an ISO 8601 timestamp.
	LastModified string `json:"lastModified,omitempty"`
}

// Text is a text block.
type Text struct {
	// Text is the text itself.
	Text string
	// Annotations are optional hints for the client.
	Annotations *ContentAnnotations
	// Meta is the block's optional _meta object (sent from 2025-06-18 on).
	Meta map[string]any
}

// Image is a base64-encoded image.
type Image struct {
	// Data is the image, base64-encoded (standard alphabet, padded).
	Data string
	// MimeType is the image's MIME type, such as "image/png"; required.
	MimeType string
	// Annotations are optional hints for the client.
	Annotations *ContentAnnotations
	// Meta is the block's optional _meta object (sent from 2025-06-18 on).
	Meta map[string]any
}

// Audio is base64-encoded audio (2025-03-26 and later; earlier clients get
// a text block describing it).
type Audio struct {
	// Data is the audio, base64-encoded (standard alphabet, padded).
	Data string
	// MimeType is the audio's MIME type, such as "audio/wav"; required.
	MimeType string
	// Annotations are optional hints for the client.
	Annotations *ContentAnnotations
	// Meta is the block's optional _meta object (sent from 2025-06-18 on).
	Meta map[string]any
}

// ResourceLink points at a resource by URI (2025-06-18 and later; earlier
// clients get a text block describing it).
type ResourceLink struct {
	// URI is the resource's absolute URI; required.
	URI string
	// Name is the resource's name; required.
	Name string
	// Title is an optional display name.
	Title string
	// Description optionally says what the resource is.
	Description string
	// MimeType is the resource's optional MIME type.
	MimeType string
	// Size is the resource's optional size in bytes.
	Size *int64
	// Annotations are optional hints for the client.
	Annotations *ContentAnnotations
	// Meta is the block's optional _meta object.
	Meta map[string]any
}

// EmbeddedResource carries a resource's contents inline.
type EmbeddedResource struct {
	// Resource is the embedded contents.
	Resource ResourceContents
	// Annotations are optional hints for the client.
	Annotations *ContentAnnotations
	// Meta is the block's optional _meta object (sent from 2025-06-18 on).
	Meta map[string]any
}

// ResourceContents is a text or blob resource: exactly one of Text and
// Blob is used (Blob when IsBlob is true).
type ResourceContents struct {
	// URI is the resource's absolute URI; required.
	URI string
	// MimeType is the resource's optional MIME type.
	MimeType string
	// Text is the contents of a text resource.
	Text string
	// Blob is the contents of a binary resource, base64-encoded.
	Blob string
	// IsBlob selects Blob over Text.
	IsBlob bool
	// Meta is the contents' optional _meta object (sent from 2025-06-18
	// on).
	Meta map[string]any
}

// ContentType implements Content.
func (*Text) ContentType() string { return "text" }

// ContentType implements Content.
func (*Image) ContentType() string { return "image" }

// ContentType implements Content.
func (*Audio) ContentType() string { return "audio" }

// ContentType implements Content.
func (*ResourceLink) ContentType() string { return "resource_link" }

// ContentType implements Content.
func (*EmbeddedResource) ContentType() string { return "resource" }

// MarshalJSON implements json.Marshaler: the block as package protocol
// encodes it.
func (c *Text) MarshalJSON() ([]byte, error) { return marshalBlock(c) }

// MarshalJSON implements json.Marshaler.
func (c *Image) MarshalJSON() ([]byte, error) { return marshalBlock(c) }

// MarshalJSON implements json.Marshaler.
func (c *Audio) MarshalJSON() ([]byte, error) { return marshalBlock(c) }

// MarshalJSON implements json.Marshaler.
func (c *ResourceLink) MarshalJSON() ([]byte, error) { return marshalBlock(c) }

// MarshalJSON implements json.Marshaler.
func (c *EmbeddedResource) MarshalJSON() ([]byte, error) { return marshalBlock(c) }

func marshalBlock(c Content) ([]byte, error) {
	b, err := c.wire()
	if err != nil {
		return nil, err
	}
	return json.Marshal(b)
}
