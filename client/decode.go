package client

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
)

// decodeResult decodes a tools/call result the Consume gate passed. The
// commonest result, text blocks with nothing but their text, is read on a
// path of its own; any other goes through the decoder, with the same
// outcome.
func decodeResult(raw json.RawMessage) (*protocol.CallToolResult, error) {
	r := new(protocol.CallToolResult)
	if plainResult(raw, r) {
		return r, nil
	}
	*r = protocol.CallToolResult{}
	if err := json.Unmarshal(raw, r); err != nil {
		return nil, err
	}
	return r, nil
}

// plainResult decodes raw into r when it is an object of the members
// resultType, content, structuredContent, isError and _meta, whose content
// blocks are all {"type":"text","text":…}; false otherwise, r then being
// half filled.
func plainResult(raw []byte, r *protocol.CallToolResult) bool {
	if jsonx.FirstByte(raw) != '{' {
		return false
	}
	// The result is part of a message the wire's decoder checked: the
	// scan need not check its strings again.
	sc := jsonx.Scanner{Collect: true, Trusted: true}
	if _, ok := sc.Scan(raw); !ok {
		return false
	}
	for i := range sc.NumMembers() {
		mb := sc.Member(i)
		if mb.Key.Escaped {
			return false
		}
		v := raw[mb.Value.Start:mb.Value.End]
		if v[0] == 'n' {
			return false // null: the decoder's rules for each member
		}
		var ok bool
		switch string(mb.Key.Content(raw)) {
		case "resultType":
			r.ResultType, ok = resultType(v)
		case "content":
			r.Content, ok = textBlocks(v)
		case "structuredContent":
			r.StructuredContent, ok = append(json.RawMessage(nil), v...), true
		case "isError":
			r.IsError, ok = boolean(v)
		case "_meta":
			r.Meta = new(protocol.ResultMeta)
			ok = r.Meta.UnmarshalJSON(v) == nil
		}
		if !ok {
			return false
		}
	}
	return true
}

// resultType reads a resultType the protocol defines, without a copy.
func resultType(v []byte) (protocol.ResultType, bool) {
	for _, t := range [...]protocol.ResultType{protocol.ResultTypeComplete, protocol.ResultTypeInputRequired} {
		if len(v) == len(t)+2 && string(v[1:len(v)-1]) == string(t) && v[0] == '"' {
			return t, true
		}
	}
	return "", false
}

// textBlocks reads an array of {"type":"text","text":…} blocks.
func textBlocks(v []byte) (protocol.List[protocol.ContentBlock], bool) {
	if v[0] != '[' {
		return nil, false
	}
	blocks := protocol.List[protocol.ContentBlock]{}
	i, empty := jsonx.Open(v, 0)
	for more := !empty; more; {
		end, ok := (&jsonx.Scanner{Trusted: true}).Skip(v, i, 1)
		if !ok {
			return nil, false
		}
		t, ok := textBlock(v[i:end])
		if !ok {
			return nil, false
		}
		blocks = append(blocks, protocol.ContentBlock{Text: t})
		i, more, _ = jsonx.Next(v, end, ']')
	}
	return blocks, true
}

// textBlock reads a block of exactly the members type, "text", and text.
func textBlock(b []byte) (*protocol.TextContent, bool) {
	if b[0] != '{' {
		return nil, false
	}
	sc := jsonx.Scanner{Collect: true, Trusted: true}
	if _, ok := sc.Scan(b); !ok || sc.NumMembers() != 2 {
		return nil, false
	}
	var typed bool
	var t *protocol.TextContent
	for i := range 2 {
		mb := sc.Member(i)
		v := b[mb.Value.Start:mb.Value.End]
		switch {
		case jsonx.EqualText(mb.Key.Content(b), mb.Key.Escaped, "type"):
			typed = string(v) == `"`+protocol.TypeText+`"`
		case jsonx.EqualText(mb.Key.Content(b), mb.Key.Escaped, "text") && v[0] == '"':
			s, _, ok := jsonx.ScanString(v, 0, jsonx.Lenient)
			if !ok {
				return nil, false
			}
			t = &protocol.TextContent{Text: s.Text(v)}
		}
	}
	return t, typed && t != nil
}

// boolean reads a JSON boolean.
func boolean(v []byte) (*bool, bool) {
	switch string(v) {
	case "true":
		b := true
		return &b, true
	case "false":
		b := false
		return &b, true
	}
	return nil, false
}
