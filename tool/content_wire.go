package tool

import (
	"fmt"

	"github.com/mcpwire/mcpwire/protocol"
)

// WireContent returns a block as package protocol, the one wire model,
// encodes it; encoding fails only for a _meta value that cannot be encoded.
func WireContent(c Content) (protocol.ContentBlock, error) {
	if c == nil {
		return protocol.ContentBlock{}, fmt.Errorf("content block is nil")
	}
	return c.wire()
}

func (c *Text) wire() (protocol.ContentBlock, error) {
	meta, err := protocol.MetaOf(c.Meta)
	return protocol.ContentBlock{Text: &protocol.TextContent{
		Text: c.Text, Annotations: c.Annotations.wire(), Meta: meta,
	}}, err
}

func (c *Image) wire() (protocol.ContentBlock, error) {
	meta, err := protocol.MetaOf(c.Meta)
	return protocol.ContentBlock{Image: &protocol.ImageContent{
		Data: c.Data, MimeType: c.MimeType, Annotations: c.Annotations.wire(), Meta: meta,
	}}, err
}

func (c *Audio) wire() (protocol.ContentBlock, error) {
	meta, err := protocol.MetaOf(c.Meta)
	return protocol.ContentBlock{Audio: &protocol.AudioContent{
		Data: c.Data, MimeType: c.MimeType, Annotations: c.Annotations.wire(), Meta: meta,
	}}, err
}

func (c *ResourceLink) wire() (protocol.ContentBlock, error) {
	meta, err := protocol.MetaOf(c.Meta)
	return protocol.ContentBlock{ResourceLink: &protocol.ResourceLink{
		URI: c.URI, Name: c.Name, Title: c.Title, Description: c.Description,
		MimeType: c.MimeType, Size: c.Size, Annotations: c.Annotations.wire(), Meta: meta,
	}}, err
}

func (c *EmbeddedResource) wire() (protocol.ContentBlock, error) {
	meta, err := protocol.MetaOf(c.Meta)
	if err != nil {
		return protocol.ContentBlock{}, err
	}
	contents, err := c.Resource.Wire()
	return protocol.ContentBlock{Resource: &protocol.EmbeddedResource{
		Resource: contents, Annotations: c.Annotations.wire(), Meta: meta,
	}}, err
}

// Wire returns the contents as package protocol, the one wire model,
// encodes them (text or blob, as IsBlob says); it fails only for a _meta
// value that cannot be encoded.
func (c ResourceContents) Wire() (protocol.ResourceContents, error) {
	meta, err := protocol.MetaOf(c.Meta)
	var w protocol.ResourceContents
	if c.IsBlob {
		w.Blob = &protocol.BlobResourceContents{URI: c.URI, MimeType: c.MimeType, Blob: c.Blob, Meta: meta}
	} else {
		w.Text = &protocol.TextResourceContents{URI: c.URI, MimeType: c.MimeType, Text: c.Text, Meta: meta}
	}
	return w, err
}

// wire returns the annotations as package protocol encodes them.
func (a *ContentAnnotations) wire() *protocol.Annotations {
	if a == nil {
		return nil
	}
	w := &protocol.Annotations{Priority: a.Priority, LastModified: a.LastModified}
	for _, r := range a.Audience {
		w.Audience = append(w.Audience, protocol.Role(r))
	}
	return w
}
