package tool

import "github.com/mcpwire/mcpwire/protocol"

// Content is one content block of a result: *Text, *Image, *Audio,
// *ResourceLink or *EmbeddedResource, the block types of package protocol
// under their authoring names. The set is closed: a block type the
// runtime does not know is a compile error, never a call-time surprise.
type Content = protocol.Content

// Text is a text block.
type Text = protocol.TextContent

// Image is a base64-encoded image.
type Image = protocol.ImageContent

// Audio is base64-encoded audio (2025-03-26 and later; earlier clients get
// a text block describing it).
type Audio = protocol.AudioContent

// ResourceLink points at a resource by URI (2025-06-18 and later; earlier
// clients get a text block describing it).
type ResourceLink = protocol.ResourceLink

// EmbeddedResource carries a resource's contents inline.
type EmbeddedResource = protocol.EmbeddedResource
