package review

import (
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
)

// plainResult reports whether result is, beyond doubt, a tools/call
// result Result finds nothing wrong with, for a tool whose descriptor
// declares no outputSchema: an object whose members are content (an array
// of {"type":"text","text":…} blocks), isError (a boolean), _meta and, on
// 2026-07-28, resultType "complete". It reads the result in one scan,
// without copying or decoding any of it; anything else (another member or
// block, an output schema) is left to the full review, which then decides.
func plainResult(r protocol.Revision, descriptor, result []byte) bool {
	if o := outputs.of(descriptor); o.notObject || o.declared {
		return false
	}
	if jsonx.FirstByte(result) != '{' {
		return false
	}
	sc := jsonx.Scanner{Collect: true}
	if _, ok := sc.Scan(result); !ok {
		return false
	}
	content, complete := false, !r.Modern()
	for i := range sc.NumMembers() {
		mb := sc.Member(i)
		if mb.Key.Escaped {
			return false
		}
		v := result[mb.Value.Start:mb.Value.End]
		switch string(mb.Key.Content(result)) {
		case "content":
			if content = textBlocksOnly(v); !content {
				return false
			}
		case "isError":
			if string(v) != "true" && string(v) != "false" {
				return false
			}
		case "resultType":
			if complete = string(v) == `"`+ResultComplete+`"`; !complete {
				return false
			}
		case "_meta":
		default:
			return false
		}
	}
	return content && complete
}

// textBlocksOnly reports whether v, a checked JSON value, is an array of
// blocks that are {"type":"text","text":…} and nothing more.
func textBlocksOnly(v []byte) bool {
	if v[0] != '[' {
		return false
	}
	i, empty := jsonx.Open(v, 0)
	for more := !empty; more; {
		end, ok := (&jsonx.Scanner{Trusted: true}).Skip(v, i, 1)
		if !ok || !textBlock(v[i:end]) {
			return false
		}
		i, more, _ = jsonx.Next(v, end, ']')
	}
	return true
}

// textBlock reports whether b is exactly {"type":"text","text":…}.
func textBlock(b []byte) bool {
	if b[0] != '{' {
		return false
	}
	sc := jsonx.Scanner{Collect: true, Trusted: true}
	if _, ok := sc.Scan(b); !ok || sc.NumMembers() != 2 {
		return false
	}
	typed, texted := false, false
	for i := range 2 {
		mb := sc.Member(i)
		if mb.Key.Escaped {
			return false
		}
		v := b[mb.Value.Start:mb.Value.End]
		switch string(mb.Key.Content(b)) {
		case "type":
			typed = string(v) == `"`+protocol.TypeText+`"`
		case "text":
			texted = v[0] == '"'
		}
	}
	return typed && texted
}
