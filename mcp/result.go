package mcp

import (
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// encodeCallResult encodes a CallToolResult with what the request's
// revision defines. Text blocks without annotations or _meta, the common
// case, are written by hand; the rest go through their MarshalJSON.
func (s *Server) encodeCallResult(e *entry, res *tool.Result, req *request) (json.RawMessage, error) {
	r := req.rev
	buf := make([]byte, 0, resultSizeHint(res))
	buf = append(buf, '{')
	if r.Modern() {
		buf = append(buf, `"resultType":"complete",`...)
	}
	buf = append(buf, `"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			buf = append(buf, ',')
		}
		var err error
		if buf, err = appendContent(buf, project(c, r)); err != nil {
			return nil, fmt.Errorf("encoding content block %d: %w", i, err)
		}
	}
	buf = append(buf, ']')
	if res.Structured != nil && r.HasStructured() {
		v, err := structuredJSON(res.Structured)
		if err != nil {
			return nil, err
		}
		if !r.Modern() && e.needsWrap(v) {
			v = wrapResult(v)
		}
		buf = append(buf, `,"structuredContent":`...)
		buf = append(buf, v...)
	}
	if res.IsError {
		buf = append(buf, `,"isError":true`...)
	}
	if len(res.Meta) == 0 && !r.Modern() {
		return append(buf, '}'), nil
	}
	m := s.modernMeta
	if len(res.Meta) > 0 {
		rm, err := resultMetaOf(res.Meta)
		if err != nil {
			return nil, err
		}
		if r.Modern() {
			rm.ServerInfo = &s.modernInfo
		}
		if m, err = json.Marshal(rm); err != nil {
			return nil, fmt.Errorf("encoding result _meta: %w", err)
		}
	}
	buf = append(buf, `,"_meta":`...)
	buf = append(buf, m...)
	return append(buf, '}'), nil
}

// resultMetaOf is a tool result's _meta on the wire. The serverInfo key is
// the server's own: a tool's value for it is dropped (fillEnvelope and the
// modern encoding put the server's identity there).
func resultMetaOf(meta map[string]any) (*protocol.ResultMeta, error) {
	other, err := protocol.MetaOf(meta)
	if err != nil {
		return nil, fmt.Errorf("encoding result _meta: %w", err)
	}
	delete(other, protocol.MetaServerInfo)
	return &protocol.ResultMeta{Other: other}, nil
}

func resultSizeHint(res *tool.Result) int {
	n := 64
	for _, c := range res.Content {
		if t, ok := c.(*tool.Text); ok {
			n += len(t.Text) + len(t.Text)/16 + 32
		} else {
			n += 256
		}
	}
	return n
}

// structuredJSON returns structured content as compact JSON.
func structuredJSON(v any) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding structuredContent: %w", err)
	}
	return b, nil
}

func appendContent(buf []byte, c tool.Content) ([]byte, error) {
	if t, ok := c.(*tool.Text); ok && t.Annotations == nil && len(t.Meta) == 0 {
		buf = append(buf, `{"type":"text","text":`...)
		buf = jsonx.AppendString(buf, t.Text)
		return append(buf, '}'), nil
	}
	b, err := json.Marshal(c)
	if err != nil {
		return buf, err
	}
	return append(buf, b...), nil
}

// project returns the block as revision r can carry it: blocks r does not
// define become a text block describing them, and fields r lacks are
// dropped.
func project(c tool.Content, r protocol.Revision) tool.Content {
	switch b := c.(type) {
	case *tool.Audio:
		if !r.HasAudio() {
			return &tool.Text{Text: fmt.Sprintf("[audio content (%s, %d bytes of base64) omitted: this protocol version cannot carry audio]", b.MimeType, len(b.Data))}
		}
	case *tool.ResourceLink:
		if !r.HasResourceLinks() {
			return &tool.Text{Text: describeLink(b)}
		}
	}
	if r.HasContentMeta() {
		return c
	}
	return stripMeta(c)
}

func describeLink(l *tool.ResourceLink) string {
	s := "[resource link] " + l.Name + " <" + l.URI + ">"
	if l.MimeType != "" {
		s += " (" + l.MimeType + ")"
	}
	if l.Description != "" {
		s += ": " + l.Description
	}
	return s
}

// stripMeta drops _meta and annotations.lastModified, which revisions
// before 2025-06-18 do not define on content blocks.
func stripMeta(c tool.Content) tool.Content {
	ann := func(a *tool.ContentAnnotations) *tool.ContentAnnotations {
		if a == nil || a.LastModified == "" {
			return a
		}
		cp := *a
		cp.LastModified = ""
		if cp.Audience == nil && cp.Priority == nil {
			return nil
		}
		return &cp
	}
	switch b := c.(type) {
	case *tool.Text:
		cp := *b
		cp.Meta, cp.Annotations = nil, ann(b.Annotations)
		return &cp
	case *tool.Image:
		cp := *b
		cp.Meta, cp.Annotations = nil, ann(b.Annotations)
		return &cp
	case *tool.Audio:
		cp := *b
		cp.Meta, cp.Annotations = nil, ann(b.Annotations)
		return &cp
	case *tool.EmbeddedResource:
		cp := *b
		cp.Meta, cp.Annotations = nil, ann(b.Annotations)
		cp.Resource.Meta = nil
		return &cp
	}
	return c
}
