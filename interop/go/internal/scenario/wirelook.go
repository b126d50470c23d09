package scenario

import (
	"encoding/json"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// callParams are the tools/call params fields the checks read.
type callParams struct {
	Name string `json:"name"`
	Meta struct {
		ProgressToken json.RawMessage `json:"progressToken"`
	} `json:"_meta"`
}

// toolCall finds the first tools/call request for the named tool that the
// client wrote at or after transcript position from.
func (x *run) toolCall(from int, name string) (harness.Line, bool) {
	for _, l := range x.wire.Lines()[from:] {
		if l.Dir != harness.ClientToServer || l.Method != "tools/call" || !l.IsRequest() {
			continue
		}
		var p callParams
		if json.Unmarshal(l.Params, &p) == nil && p.Name == name {
			return l, true
		}
	}
	return harness.Line{}, false
}

// progressToken returns the canonical JSON of a request's progress token, or
// "" when it has none.
func progressToken(req harness.Line) string {
	var p callParams
	if json.Unmarshal(req.Params, &p) != nil {
		return ""
	}
	return canonical(p.Meta.ProgressToken)
}

// canonical re-encodes a JSON value so that equal values compare equal.
func canonical(raw json.RawMessage) string {
	if len(raw) == 0 {
		return ""
	}
	var v any
	if json.Unmarshal(raw, &v) != nil {
		return string(raw)
	}
	out, _ := json.Marshal(v)
	return string(out)
}

// wireProgress is one notifications/progress line the server wrote.
type wireProgress struct {
	line     harness.Line
	progress float64
}

// progressFor returns the server's progress notifications for token, in order.
func (x *run) progressFor(token string) []wireProgress {
	var out []wireProgress
	for _, l := range x.wire.Lines() {
		if l.Dir != harness.ServerToClient || l.Method != "notifications/progress" {
			continue
		}
		var p struct {
			ProgressToken json.RawMessage `json:"progressToken"`
			Progress      float64         `json:"progress"`
		}
		if json.Unmarshal(l.Params, &p) == nil && canonical(p.ProgressToken) == token {
			out = append(out, wireProgress{l, p.Progress})
		}
	}
	return out
}

// cancelledFor finds the client's notifications/cancelled for a request id.
func (x *run) cancelledFor(id string) (harness.Line, bool) {
	for _, l := range x.wire.Lines() {
		if l.Dir != harness.ClientToServer || l.Method != "notifications/cancelled" {
			continue
		}
		var p struct {
			RequestID json.RawMessage `json:"requestId"`
		}
		if json.Unmarshal(l.Params, &p) == nil && canonical(p.RequestID) == canonical(json.RawMessage(id)) {
			return l, true
		}
	}
	return harness.Line{}, false
}
