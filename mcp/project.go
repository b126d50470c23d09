package mcp

import (
	"fmt"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/protocol"
)

// projectContent returns the block as a client of revision r may see it,
// one case per block type of protocol.Content: a block r does not define
// becomes a text block describing it, and the members r lacks are dropped
// (_meta and annotations.lastModified before 2025-06-18, icons before
// 2025-11-25). A block that needs no change is returned as it is. A type
// without a case is an error, never a block sent with members the client's
// revision does not define.
func projectContent(c protocol.Content, r protocol.Revision) (protocol.Content, error) {
	meta := feature.ContentMeta(r)
	switch b := c.(type) {
	case *protocol.TextContent:
		if meta || b.Meta == nil && keepsAnnotations(b.Annotations, r) {
			return b, nil
		}
		cp := *b
		cp.Meta, cp.Annotations = nil, projectAnnotations(b.Annotations, r)
		return &cp, nil
	case *protocol.ImageContent:
		if meta || b.Meta == nil && keepsAnnotations(b.Annotations, r) {
			return b, nil
		}
		cp := *b
		cp.Meta, cp.Annotations = nil, projectAnnotations(b.Annotations, r)
		return &cp, nil
	case *protocol.AudioContent:
		if !feature.Audio(r) {
			return &protocol.TextContent{Text: fmt.Sprintf("[audio content (%s, %d bytes of base64) omitted: this protocol version cannot carry audio]", b.MimeType, len(b.Data))}, nil
		}
		if meta || b.Meta == nil && keepsAnnotations(b.Annotations, r) {
			return b, nil
		}
		cp := *b
		cp.Meta, cp.Annotations = nil, projectAnnotations(b.Annotations, r)
		return &cp, nil
	case *protocol.ResourceLink:
		if !feature.ResourceLinks(r) {
			return &protocol.TextContent{Text: describeLink(b)}, nil
		}
		if feature.Icons(r) || b.Icons == nil {
			return b, nil
		}
		cp := *b
		cp.Icons = nil
		return &cp, nil
	case *protocol.EmbeddedResource:
		if meta {
			return b, nil
		}
		cp := *b
		cp.Meta, cp.Annotations = nil, projectAnnotations(b.Annotations, r)
		cp.Resource = projectContents(b.Resource, r)
		return &cp, nil
	}
	return nil, fmt.Errorf("content block %T has no projection for revision %s", c, r)
}

func describeLink(l *protocol.ResourceLink) string {
	s := "[resource link] " + l.Name + " <" + l.URI + ">"
	if l.MimeType != "" {
		s += " (" + l.MimeType + ")"
	}
	if l.Description != "" {
		s += ": " + l.Description
	}
	return s
}

// projectContents returns a resource's contents as revision r defines
// them: without _meta before 2025-06-18.
func projectContents(c protocol.ResourceContents, r protocol.Revision) protocol.ResourceContents {
	if feature.ContentMeta(r) {
		return c
	}
	if t := c.Text; t != nil && t.Meta != nil {
		cp := *t
		cp.Meta = nil
		c.Text = &cp
	}
	if b := c.Blob; b != nil && b.Meta != nil {
		cp := *b
		cp.Meta = nil
		c.Blob = &cp
	}
	return c
}

// keepsAnnotations reports whether projectAnnotations returns a as it is.
func keepsAnnotations(a *protocol.Annotations, r protocol.Revision) bool {
	return a == nil || a.LastModified == "" || feature.ContentMeta(r)
}

// projectAnnotations returns annotations as revision r defines them:
// lastModified only from 2025-06-18 on (nil when nothing is left).
func projectAnnotations(a *protocol.Annotations, r protocol.Revision) *protocol.Annotations {
	if keepsAnnotations(a, r) {
		return a
	}
	cp := *a
	cp.LastModified = ""
	if cp.Audience == nil && cp.Priority == nil {
		return nil
	}
	return &cp
}
