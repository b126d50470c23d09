package protocol

import "reflect"

// Content block "type" values.
const (
	TypeText         = "text"
	TypeImage        = "image"
	TypeAudio        = "audio"
	TypeResourceLink = "resource_link"
	TypeResource     = "resource"
	TypeToolUse      = "tool_use"
	TypeToolResult   = "tool_result"
)

// Annotations tell a client how to use or display an object.
type Annotations struct {
	// Audience lists who the object is meant for.
	Audience []Role `json:"audience,omitzero"`
	// Priority is the importance from 0 (optional) to 1 (effectively
	// required).
	Priority *float64 `json:"priority,omitempty"`
	// LastModified is an ISO 8601 timestamp, such as
	// "2025-01-12T15:00:58Z".
	LastModified string `json:"lastModified,omitempty"`
}

// TextContent is a text block. It encodes with "type": "text".
type TextContent struct {
	// Type is TypeText, written and checked by the codec; it needs no
	// setting.
	Type tag[textType] `json:"type"`
	// Text is the text; required.
	Text string `json:"text"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Meta is the block's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ImageContent is a base64-encoded image. It encodes with "type": "image".
type ImageContent struct {
	// Type is TypeImage, written and checked by the codec; it needs no
	// setting.
	Type tag[imageType] `json:"type"`
	// Data is the image, base64-encoded; required.
	Data string `json:"data"`
	// MimeType is the image's MIME type, such as "image/png"; required.
	MimeType string `json:"mimeType"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Meta is the block's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// AudioContent is base64-encoded audio. It encodes with "type": "audio".
type AudioContent struct {
	// Type is TypeAudio, written and checked by the codec; it needs no
	// setting.
	Type tag[audioType] `json:"type"`
	// Data is the audio, base64-encoded; required.
	Data string `json:"data"`
	// MimeType is the audio's MIME type, such as "audio/wav"; required.
	MimeType string `json:"mimeType"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Meta is the block's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ResourceLink is a content block that points at a resource the client
// may read; it has all of [Resource]'s fields and encodes with
// "type": "resource_link". It need not appear in resources/list.
type ResourceLink Resource

// MarshalJSON encodes the link with "type": "resource_link".
func (l ResourceLink) MarshalJSON() ([]byte, error) {
	return marshalTagged("type", TypeResourceLink, Resource(l))
}

// UnmarshalJSON decodes a block whose type is "resource_link".
func (l *ResourceLink) UnmarshalJSON(data []byte) error {
	return unmarshalTagged(data, "type", TypeResourceLink, (*Resource)(l))
}

// EmbeddedResource is a content block carrying a resource's contents. It
// encodes with "type": "resource".
type EmbeddedResource struct {
	// Type is "resource", written and checked by the codec; it needs no
	// setting.
	Type tag[embeddedType] `json:"type"`
	// Resource is the text or blob contents; required.
	Resource ResourceContents `json:"resource"`
	// Annotations are optional hints for the client.
	Annotations *Annotations `json:"annotations,omitempty"`
	// Meta is the block's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// Content is one content block of a tool result or prompt message:
// *[TextContent], *[ImageContent], *[AudioContent], *[ResourceLink] or
// *[EmbeddedResource]. The set is closed (the interface has an unexported
// method), and [ContentBlock] is their union on the wire.
type Content interface {
	// ContentType returns the block's "type" value.
	ContentType() string
	content()
}

// ContentType implements Content.
func (*TextContent) ContentType() string { return TypeText }

// ContentType implements Content.
func (*ImageContent) ContentType() string { return TypeImage }

// ContentType implements Content.
func (*AudioContent) ContentType() string { return TypeAudio }

// ContentType implements Content.
func (*ResourceLink) ContentType() string { return TypeResourceLink }

// ContentType implements Content.
func (*EmbeddedResource) ContentType() string { return TypeResource }

func (*TextContent) content()      {}
func (*ImageContent) content()     {}
func (*AudioContent) content()     {}
func (*ResourceLink) content()     {}
func (*EmbeddedResource) content() {}

// BlockOf returns the union holding c (an empty one for a nil c).
func BlockOf(c Content) ContentBlock {
	var b ContentBlock
	if c == nil {
		return b
	}
	u := reflect.ValueOf(&b).Elem()
	for i := range u.NumField() {
		if f := u.Field(i); f.Type() == reflect.TypeOf(c) {
			f.Set(reflect.ValueOf(c))
		}
	}
	return b
}

// ContentBlock is one block of a tool result or prompt message on the
// wire: the union of the [Content] types, exactly one of its fields set.
// It encodes as that variant, whose "type" member tells them apart;
// decoding a block of any other type is an error. A new block type is a
// new field here, also passed to marshalVariant in MarshalJSON: decoding,
// Content and BlockOf read the fields (TestContentBlockEveryVariant
// checks all four).
type ContentBlock struct {
	Text         *TextContent      // "text"
	Image        *ImageContent     // "image"
	Audio        *AudioContent     // "audio"
	ResourceLink *ResourceLink     // "resource_link"
	Resource     *EmbeddedResource // "resource"
}

// contentBlocks is ContentBlock's union: a case per field, named by its
// type's ContentType.
var contentBlocks = union[ContentBlock]{
	tag:  "content block type",
	pick: tagged("type"),
	cases: fieldCases[ContentBlock](func(t reflect.Type) string {
		return reflect.New(t).Interface().(Content).ContentType()
	}),
}

// TextBlock returns a block holding the text s.
func TextBlock(s string) ContentBlock {
	return ContentBlock{Text: &TextContent{Text: s}}
}

// Type returns the block's "type" value, or "" when no variant is set.
func (b ContentBlock) Type() string {
	if c := b.Content(); c != nil {
		return c.ContentType()
	}
	return ""
}

// Content returns the variant that is set (the first, should several be),
// nil when none is.
func (b ContentBlock) Content() Content {
	u := reflect.ValueOf(b)
	for i := range u.NumField() {
		if f := u.Field(i); !f.IsNil() {
			return f.Interface().(Content)
		}
	}
	return nil
}

// MarshalJSON encodes the one variant that is set.
func (b ContentBlock) MarshalJSON() ([]byte, error) {
	return marshalVariant("content block", b.Text, b.Image, b.Audio, b.ResourceLink, b.Resource)
}

// UnmarshalJSON decodes a block into the variant its "type" names.
func (b *ContentBlock) UnmarshalJSON(data []byte) error {
	return contentBlocks.unmarshal(data, b)
}
