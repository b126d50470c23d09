package scenario

import (
	"encoding/json"
	"time"

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

// serverCapabilities returns the capabilities in the server's last
// successful answer to initialize or server/discover, or nil when there was
// none.
func (x *run) serverCapabilities() map[string]json.RawMessage {
	return capabilitiesOf(x.wire.Lines())
}

func capabilitiesOf(lines []harness.Line) map[string]json.RawMessage {
	method := map[string]string{}
	var caps map[string]json.RawMessage
	for _, l := range lines {
		if l.Dir == harness.ClientToServer {
			if l.IsRequest() {
				method[l.ID] = l.Method
			}
			continue
		}
		if !l.IsResponse() || l.IsError || (method[l.ID] != "initialize" && method[l.ID] != "server/discover") {
			continue
		}
		var res struct {
			Capabilities map[string]json.RawMessage `json:"capabilities"`
		}
		if json.Unmarshal(l.Result, &res) == nil && res.Capabilities != nil {
			caps = res.Capabilities
		}
	}
	return caps
}

// hasCapability reports whether the server declared a capability.
func (x *run) hasCapability(name string) bool {
	_, ok := x.serverCapabilities()[name]
	return ok
}

// request finds the first request for method that the client wrote at or
// after transcript position from and whose params satisfy match.
func (x *run) request(from int, method string, match func(params json.RawMessage) bool) (harness.Line, bool) {
	lines := x.wire.Lines()
	if from > len(lines) {
		from = len(lines)
	}
	for _, l := range lines[from:] {
		if l.Dir == harness.ClientToServer && l.IsRequest() && l.Method == method && (match == nil || match(l.Params)) {
			return l, true
		}
	}
	return harness.Line{}, false
}

// notifications returns the server's notifications for method written at
// or after transcript position from whose params satisfy match.
func (x *run) notifications(from int, method string, match func(params json.RawMessage) bool) []harness.Line {
	var out []harness.Line
	lines := x.wire.Lines()
	if from > len(lines) {
		from = len(lines)
	}
	for _, l := range lines[from:] {
		if l.Dir == harness.ServerToClient && l.IsNotification() && l.Method == method && (match == nil || match(l.Params)) {
			out = append(out, l)
		}
	}
	return out
}

// paramString returns a top-level string field of params, or "".
func paramString(params json.RawMessage, key string) string {
	var m map[string]json.RawMessage
	var s string
	if json.Unmarshal(params, &m) == nil {
		_ = json.Unmarshal(m[key], &s)
	}
	return s
}

// subscriptionID returns the canonical JSON of the
// _meta["io.modelcontextprotocol/subscriptionId"] a notification carries,
// or "".
func subscriptionID(params json.RawMessage) string {
	var p struct {
		Meta map[string]json.RawMessage `json:"_meta"`
	}
	if json.Unmarshal(params, &p) != nil {
		return ""
	}
	return canonical(p.Meta["io.modelcontextprotocol/subscriptionId"])
}

// waitFor polls cond every 20 ms until it holds or limit has passed, and
// reports whether it held.
func waitFor(limit time.Duration, cond func() bool) bool {
	deadline := time.Now().Add(limit)
	for {
		if cond() {
			return true
		}
		if time.Now().After(deadline) {
			return false
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// cancellation is how the client told the server that it gave up a
// request, and when.
type cancellation struct {
	at  time.Time
	how string
}

// cancellation finds how the client cancelled req: a notifications/cancelled
// for it or, over HTTP, closing the stream its response was to come on
// before the response. In 2026-07-28 that close is the Streamable HTTP
// transport's own cancellation; in the 2025 revisions it is a disconnect,
// which they say a server should not take for one (mcp-go sends no
// notifications/cancelled over HTTP in either era).
func (x *run) cancellation(req harness.Line) (cancellation, bool) {
	if l, ok := x.cancelledFor(req.ID); ok {
		return cancellation{l.At, "notifications/cancelled"}, true
	}
	if req.Exchange == 0 {
		return cancellation{}, false
	}
	ex := x.wire.Exchanges()[req.Exchange-1]
	if ex.ClosedEarly.IsZero() {
		return cancellation{}, false
	}
	how := "closing the request's SSE response (2026-07-28's cancellation over HTTP), with no notifications/cancelled"
	if !x.modern {
		how = "closing the request's SSE response only, with no notifications/cancelled (a disconnect, which the 2025 revisions say is no cancellation)"
	}
	return cancellation{ex.ClosedEarly, how}, true
}
