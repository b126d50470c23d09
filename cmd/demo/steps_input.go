package main

import (
	"bytes"

	json "github.com/goccy/go-json"
)

// The elicitation both eras ask for: test_input_required_result_elicitation
// asks for a name under the key askKey and greets it.
const (
	askTool   = "test_input_required_result_elicitation"
	askKey    = "user_name"
	askAnswer = `{"action":"accept","content":{"name":"Ada"}}`
	askGreets = "Hello, Ada!"
)

// elicitLegacy calls the asking tool in the legacy session: the server
// sends elicitation/create (an id of its own) and waits; the demo answers
// as a user would, and the call completes.
func (s *session) elicitLegacy() {
	s.wide(func() {
		id := s.request("tools/call", `{"name":"`+askTool+`","arguments":{}}`)
		q, _, ok := s.await("the server's elicitation/create request", func(m message) bool {
			return m.Method == "elicitation/create" && len(m.ID) > 0
		})
		if !ok {
			return
		}
		s.send(`{"jsonrpc":"2.0","id":` + string(q.ID) + `,"result":` + askAnswer + `}`)
		m, ok := s.response(id)
		var r toolResult
		if ok && s.result(m, &r) {
			s.check(r.text() == askGreets, "the tool answered %q, want %q", r.text(), askGreets)
		}
	})
}

// elicitModern calls the same tool in the modern era: the server never
// sends a request; it answers input_required with the question and a
// sealed requestState, and the retry (a new id, the answer under the same
// key, the state echoed) completes.
func (s *session) elicitModern() {
	s.cut = beforeState
	defer func() { s.cut = nil }()
	s.wide(func() {
		m, ok := s.response(s.request("tools/call", `{"name":"`+askTool+`","arguments":{},`+modernMetaAsking+`}`))
		var ir struct {
			ResultType    string                     `json:"resultType"`
			InputRequests map[string]json.RawMessage `json:"inputRequests"`
			RequestState  string                     `json:"requestState"`
		}
		if !ok || !s.result(m, &ir) {
			return
		}
		if !s.check(ir.ResultType == "input_required" && ir.InputRequests[askKey] != nil && ir.RequestState != "",
			"round 1 is not input_required with %q and a requestState", askKey) {
			return
		}
		m, ok = s.response(s.request("tools/call", `{"name":"`+askTool+`","arguments":{},`+
			`"inputResponses":{"`+askKey+`":`+askAnswer+`},"requestState":`+jsonString(ir.RequestState)+`,`+modernMetaAsking+`}`))
		var r toolResult
		if ok && s.result(m, &r) {
			s.check(r.ResultType == "complete" && r.text() == askGreets, "round 2 answered %q (%s), want %q", r.text(), r.ResultType, askGreets)
		}
	})
}

// beforeState cuts a line at its requestState, which is random per run
// (sealed with a fresh nonce).
func beforeState(line []byte) int {
	const marker = `"requestState":"`
	if i := bytes.Index(line, []byte(marker)); i >= 0 {
		return i + len(marker)
	}
	return 0
}

// modernMetaAsking is modernMeta for a client that declares elicitation.
const modernMetaAsking = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernVersion + `",` +
	`"io.modelcontextprotocol/clientCapabilities":{"elicitation":{}},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"mcpwire-demo","version":"1.0.0"}}`
