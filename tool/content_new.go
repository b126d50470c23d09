package tool

import (
	"encoding/base64"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// BlockOption sets an optional field of a content block built by NewText,
// NewImage, NewAudio, NewResourceLink, NewEmbeddedText or NewEmbeddedBlob.
type BlockOption func(*blockFields)

// blockFields collects the optional fields the options set.
type blockFields struct {
	ann  protocol.Annotations
	meta protocol.Meta

	// resource_link only
	title, description, mimeType string
	size                         *int64
}

// Audience says who the block is for: "user", "assistant" or both.
func Audience(roles ...string) BlockOption {
	return func(f *blockFields) {
		f.ann.Audience = nil // no roles leaves the audience out
		for _, r := range roles {
			f.ann.Audience = append(f.ann.Audience, protocol.Role(r))
		}
	}
}

// Priority says how important the block is, from 0 (optional) to 1
// (effectively required).
func Priority(p float64) BlockOption {
	return func(f *blockFields) { f.ann.Priority = &p }
}

// LastModified records when the block's data last changed; it is sent as
// an RFC 3339 timestamp in UTC.
func LastModified(t time.Time) BlockOption {
	return func(f *blockFields) { f.ann.LastModified = t.UTC().Format(time.RFC3339Nano) }
}

// BlockMeta sets the block's _meta object. Each value is encoded as JSON
// here; a value that cannot be is kept as an empty raw value, which the
// server's check of the result reports.
func BlockMeta(meta map[string]any) BlockOption {
	return func(f *blockFields) {
		if len(meta) == 0 {
			return
		}
		f.meta = make(protocol.Meta, len(meta))
		for k, v := range meta {
			b, err := json.Marshal(v)
			if err != nil {
				b = nil
			}
			f.meta[k] = b
		}
	}
}

// LinkTitle sets a resource link's display title. Only NewResourceLink
// reads it.
func LinkTitle(title string) BlockOption {
	return func(f *blockFields) { f.title = title }
}

// LinkDescription sets a resource link's description. Only
// NewResourceLink reads it.
func LinkDescription(description string) BlockOption {
	return func(f *blockFields) { f.description = description }
}

// LinkMimeType sets a resource link's MIME type. Only NewResourceLink
// reads it.
func LinkMimeType(mimeType string) BlockOption {
	return func(f *blockFields) { f.mimeType = mimeType }
}

// LinkSize sets a resource link's size in bytes. Only NewResourceLink
// reads it.
func LinkSize(n int64) BlockOption {
	return func(f *blockFields) { f.size = &n }
}

func collect(opts []BlockOption) (*protocol.Annotations, *blockFields) {
	var f blockFields
	for _, o := range opts {
		o(&f)
	}
	a := f.ann
	if a.Audience == nil && a.Priority == nil && a.LastModified == "" {
		return nil, &f
	}
	return &a, &f
}

// NewText returns a text block.
func NewText(text string, opts ...BlockOption) *Text {
	ann, f := collect(opts)
	return &Text{Text: text, Annotations: ann, Meta: f.meta}
}

// NewImage returns an image block holding data, base64-encoded, of the
// given MIME type (such as "image/png").
func NewImage(data []byte, mimeType string, opts ...BlockOption) *Image {
	ann, f := collect(opts)
	return &Image{Data: base64.StdEncoding.EncodeToString(data), MimeType: mimeType, Annotations: ann, Meta: f.meta}
}

// NewAudio returns an audio block holding data, base64-encoded, of the
// given MIME type (such as "audio/wav"). Clients before 2025-03-26 receive
// a text block describing it instead.
func NewAudio(data []byte, mimeType string, opts ...BlockOption) *Audio {
	ann, f := collect(opts)
	return &Audio{Data: base64.StdEncoding.EncodeToString(data), MimeType: mimeType, Annotations: ann, Meta: f.meta}
}

// NewResourceLink returns a link to the resource at uri (an absolute URI)
// named name. LinkTitle, LinkDescription, LinkMimeType and LinkSize set
// its optional fields. Clients before 2025-06-18 receive a text block
// describing it instead.
func NewResourceLink(uri, name string, opts ...BlockOption) *ResourceLink {
	ann, f := collect(opts)
	return &ResourceLink{
		URI: uri, Name: name, Title: f.title, Description: f.description,
		MimeType: f.mimeType, Size: f.size, Annotations: ann, Meta: f.meta,
	}
}

// NewEmbeddedText returns an embedded resource holding text.
func NewEmbeddedText(uri, mimeType, text string, opts ...BlockOption) *EmbeddedResource {
	ann, f := collect(opts)
	return &EmbeddedResource{
		Resource:    protocol.ResourceContents{Text: &protocol.TextResourceContents{URI: uri, MimeType: mimeType, Text: text}},
		Annotations: ann, Meta: f.meta,
	}
}

// NewEmbeddedBlob returns an embedded resource holding binary data,
// base64-encoded.
func NewEmbeddedBlob(uri, mimeType string, data []byte, opts ...BlockOption) *EmbeddedResource {
	ann, f := collect(opts)
	return &EmbeddedResource{
		Resource: protocol.ResourceContents{Blob: &protocol.BlobResourceContents{
			URI: uri, MimeType: mimeType, Blob: base64.StdEncoding.EncodeToString(data),
		}},
		Annotations: ann, Meta: f.meta,
	}
}
