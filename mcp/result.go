package mcp

import (
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/feature"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// encodeCallResult encodes a CallToolResult with what the request's
// revision defines, by hand: the hot path of every server, where the typed
// encoding (protocol.CallToolResult through fillEnvelope and json.Marshal)
// costs more time and allocations (BenchmarkCallResultEncoding). It is
// held byte for byte to the typed encoding by
// TestCallResultEqualsTypedEncoding. The envelope is fillEnvelope's: its
// _meta is encoded once per server (modernMeta) or, for a result with its
// own _meta, filled by fillEnvelope here. Text blocks without annotations
// or _meta, the common case, are written by hand; the rest go through
// their MarshalJSON.
func (s *Server) encodeCallResult(e *entry, res *tool.Result, req *request) (json.RawMessage, error) {
	r := req.rev
	buf := make([]byte, 0, resultSizeHint(res))
	buf = append(buf, '{')
	if r.Modern() {
		buf = append(buf, `"resultType":"`+protocol.ResultTypeComplete+`",`...)
	}
	buf = append(buf, `"content":[`...)
	for i, c := range res.Content {
		if i > 0 {
			buf = append(buf, ',')
		}
		p, err := projectContent(c, r)
		if err == nil {
			buf, err = appendContent(buf, p)
		}
		if err != nil {
			return nil, fmt.Errorf("encoding content block %d: %w", i, err)
		}
	}
	buf = append(buf, ']')
	if res.Structured != nil && feature.Structured(r) {
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
	m := s.modernMeta // what fillEnvelope puts in a modern result's _meta, encoded once
	if len(res.Meta) > 0 {
		var env protocol.Envelope
		var err error
		if env.Meta, err = resultMetaOf(res.Meta); err != nil {
			return nil, err
		}
		s.fillEnvelope(&env, req)
		if m, err = json.Marshal(env.Meta); err != nil {
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
		if t, ok := c.(*protocol.TextContent); ok && t != nil {
			n += len(t.Text) + len(t.Text)/16 + 32
		} else {
			n += 256
		}
	}
	return n
}

// structuredJSON returns structured content as compact JSON. A
// json.RawMessage the tool gave (the tool's contract check has found it
// JSON) is compacted when it spans lines: a stdio line cannot carry it as
// it is.
func structuredJSON(v any) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return jsonx.OneLine(raw)
	}
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("encoding structuredContent: %w", err)
	}
	return b, nil
}

// appendContent appends the block's JSON; a text block without annotations
// or _meta, the common case, is written by hand.
func appendContent(buf []byte, c protocol.Content) ([]byte, error) {
	if t, ok := c.(*protocol.TextContent); ok && t.Annotations == nil && len(t.Meta) == 0 {
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
