package main

import (
	"errors"
	"os"
	"reflect"
	"slices"
	"strings"
	"time"

	json "github.com/goccy/go-json"
)

// step is one part of the scripted session.
type step struct {
	era       string // when set, a heading printed before the step
	caption   string
	run       func(*session)
	inDefault bool // shown by every run; false: only with -all
	// tools names the cmd/everything tools the step calls whose Go source
	// is printed under the heading (see toolSource).
	tools []string
}

// The values of step.inDefault, by name.
const (
	byDefault = true
	allOnly   = false
)

// steps is the scripted session, in order: one legacy session and modern
// requests, on one server process. The last step, which ends the
// process, must be in the default set.
var steps = []step{
	{"Legacy era (2025-11-25): initialize opens one session on the process", "initialize, then notifications/initialized (a notification: no reply)", (*session).handshake, byDefault, nil},
	{"", "tools/list, one tool a page: echo's input schema, inferred from its Go type (cut before nextCursor)", (*session).listTools, byDefault, nil},
	{"", "tools/call: typed arguments; a wrong type is refused by the schema check as an isError result", (*session).typedCalls, byDefault, []string{"echo"}},
	{"", "From running tools: a log message (after logging/setLevel error), progress, then a cancellation", (*session).whileRunning, byDefault, []string{"test_logging_tool", "slow"}},
	{"", "One JSON-RPC error of each class (a tool's own failure is a result with isError, as in step 3)", (*session).errorClasses, byDefault, nil},
	{"", "A resource read, a prompt, and completion of its argument (production is offered to operators only)", (*session).resourcesAndPrompts, allOnly, nil},
	{"", "Elicitation: the tool asks the user through the client (elicitation/create, an id of the server's own) and waits", (*session).elicitLegacy, allOnly, []string{askTool}},
	{"Modern era (2026-07-28), same process: no handshake; every request carries its own _meta", "server/discover, then a read through the template test://template/{id}/data: cache hints and serverInfo", (*session).discoverAndRead, byDefault, nil},
	{"", "The same elicitation, stateless: input_required with the question and a sealed requestState, then the retry", (*session).elicitModern, allOnly, nil},
	{"", "A task (the tasks extension declared): tools/call answers CreateTaskResult; tasks/get after pollIntervalMs has the result", (*session).taskPolled, byDefault, []string{"slow_compute"}},
	{"", "subscriptions/listen: the acknowledgement names what it honours (not test://nowhere); closing stdin ends it", (*session).listenAndShutdown, byDefault, nil},
}

// selected is the steps of list a run shows: every one with all, else
// those in the default set.
func selected(list []step, all bool) []step {
	var out []step
	for _, st := range list {
		if all || st.inDefault {
			out = append(out, st)
		}
	}
	return out
}

// legacyVersion is the revision the legacy session asks for.
const legacyVersion = "2025-11-25"

// modernVersion is the revision of the modern requests.
const modernVersion = "2026-07-28"

// modernMeta is the _meta member every modern request carries.
const modernMeta = `"_meta":{"io.modelcontextprotocol/protocolVersion":"` + modernVersion + `",` +
	`"io.modelcontextprotocol/clientCapabilities":{},` +
	`"io.modelcontextprotocol/clientInfo":{"name":"mcpwire-demo","version":"1.0.0"}}`

// echoText exercises multi-byte UTF-8 in both directions.
const echoText = "héllo ✓"

// Progress and cancellation: the slow call reports every slowDelay and is
// cancelled after its second report; quietWindow (more than two reports'
// time) then shows that nothing more comes for it.
const (
	slowDelay     = 150 * time.Millisecond
	quietWindow   = 400 * time.Millisecond
	progressToken = `"demo-progress"`
)

// toolResult is the result of tools/call.
type toolResult struct {
	ResultType string `json:"resultType"`
	Content    []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
	Meta              resultMeta      `json:"_meta"`
}

// resultMeta is the _meta of a modern result.
type resultMeta struct {
	ServerInfo *struct {
		Name string `json:"name"`
	} `json:"io.modelcontextprotocol/serverInfo"`
	SubscriptionID json.RawMessage `json:"io.modelcontextprotocol/subscriptionId"`
}

// text is the result's first content block's text.
func (r toolResult) text() string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

// call calls a tool (params is the params object) and returns its result,
// which must be the first line to come back; ok is false (with a failure
// recorded) when no tool result arrived.
func (s *session) call(params string) (r toolResult, ok bool) {
	m, ok := s.response(s.request("tools/call", params))
	return r, ok && s.result(m, &r)
}

// handshake initializes the legacy session.
func (s *session) handshake() {
	id := s.request("initialize", `{"protocolVersion":"`+legacyVersion+`","capabilities":{"elicitation":{}},"clientInfo":{"name":"mcpwire-demo","version":"1.0.0"}}`)
	m, ok := s.response(id)
	var r struct {
		ProtocolVersion string                     `json:"protocolVersion"`
		Capabilities    map[string]json.RawMessage `json:"capabilities"`
	}
	if ok && s.result(m, &r) {
		s.check(r.ProtocolVersion == legacyVersion, "the server negotiated %q, not %q", r.ProtocolVersion, legacyVersion)
		for _, c := range []string{"tools", "logging", "resources", "prompts", "completions"} {
			s.check(r.Capabilities[c] != nil, "the server did not declare the %s capability", c)
		}
	}
	s.notify("notifications/initialized", "")
}

// listTools asks for the first page of tools/list and checks the inferred
// input schema of its one tool, echo.
func (s *session) listTools() {
	s.cut = afterFirstTool
	defer func() { s.cut = nil }()
	var m message
	var ok bool
	s.wide(func() { m, ok = s.response(s.request("tools/list", "")) })
	var r struct {
		Tools []struct {
			Name        string `json:"name"`
			InputSchema struct {
				Type       string `json:"type"`
				Properties map[string]struct {
					Type string `json:"type"`
				} `json:"properties"`
				Required []string `json:"required"`
			} `json:"inputSchema"`
		} `json:"tools"`
		NextCursor string `json:"nextCursor"`
	}
	if !ok || !s.result(m, &r) {
		return
	}
	if !s.check(len(r.Tools) == 1 && r.Tools[0].Name == "echo", "the first page is not echo alone (-page-size 1)") {
		return
	}
	in := r.Tools[0].InputSchema
	s.check(in.Type == "object" && in.Properties["text"].Type == "string" && slices.Contains(in.Required, "text"),
		"echo's input schema lacks a required string property text")
	s.check(r.NextCursor != "", "the first of several pages has no nextCursor")
}

// typedCalls calls echo with its argument, then with one of the wrong
// type.
func (s *session) typedCalls() {
	if r, ok := s.call(`{"name":"echo","arguments":{"text":` + jsonString(echoText) + `}}`); ok {
		s.check(!r.IsError && r.text() == echoText, "echo returned %q, want %q", r.text(), echoText)
	}
	if r, ok := s.call(`{"name":"echo","arguments":{"text":42}}`); ok {
		s.check(r.IsError && strings.Contains(r.text(), "/text"), "echo with a number for text: want an isError result naming /text, got %q", r.text())
	}
}

// whileRunning shows a log message from a tool (the others are below the
// level set), then progress from a slow call, which is cancelled.
func (s *session) whileRunning() {
	if m, ok := s.response(s.request("logging/setLevel", `{"level":"error"}`)); ok {
		var r struct{}
		s.result(m, &r)
	}
	m, before, ok := s.responseAfter(s.request("tools/call", `{"name":"test_logging_tool","arguments":{}}`))
	var r toolResult
	if ok && s.result(m, &r) {
		var levels []string
		for _, n := range before {
			var p struct {
				Level string `json:"level"`
			}
			if n.Method == "notifications/message" && json.Unmarshal(n.Params, &p) == nil {
				levels = append(levels, p.Level)
			}
		}
		s.check(len(before) == 1 && slices.Equal(levels, []string{"error"}),
			"want one notifications/message at level error before the result, got %d lines (levels %v)", len(before), levels)
	}
	s.cancellation()
}

// cancellation starts a slow call, cancels it after two progress
// notifications, and shows that nothing more comes for it.
func (s *session) cancellation() {
	id := s.request("tools/call", `{"name":"slow","arguments":{"steps":100,"delay_ms":`+jsonInt(slowDelay.Milliseconds())+`},"_meta":{"progressToken":`+progressToken+`}}`)
	for want := 1.0; want <= 2; want++ {
		m, _, ok := s.await("progress notification", func(m message) bool { return m.Method != "" || m.isResponse() })
		if !ok {
			return
		}
		p, isProgress := m.progressFor(progressToken)
		if !s.check(isProgress && p.Progress == want && p.Total == 100, "want progress %g of 100 for %s, got %s", want, progressToken, m) {
			return
		}
	}
	s.cancelled[id] = true
	s.notify("notifications/cancelled", `{"requestId":`+id+`,"reason":"the user pressed stop"}`)
	late := s.collect(quietWindow)
	if s.check(len(late) == 0, "%s after the cancel", plural(len(late), "line")) {
		s.p.note("(nothing more for request %s in %s: a cancelled call gets no response)", id, quietWindow)
	}
}

// errorClasses provokes one JSON-RPC error of each class.
func (s *session) errorClasses() {
	s.send("this is not json")
	if m, _, ok := s.await("error response without an id", func(m message) bool {
		return m.isResponse() && m.hasNoID()
	}); ok {
		s.expectError(m, -32700, "a line that is not JSON")
	}

	id := s.newID()
	s.send(`{"jsonrpc":"1.0","id":` + id + `,"method":"ping"}`)
	if m, ok := s.response(id); ok {
		s.expectError(m, -32600, "jsonrpc 1.0")
	}
	if m, ok := s.response(s.request("no/such/method", "{}")); ok {
		s.expectError(m, -32601, "an unknown method")
	}
	if m, ok := s.response(s.request("tools/call", `{"name":"no_such_tool","arguments":{}}`)); ok {
		s.expectError(m, -32602, "an unknown tool")
	}
	if m, ok := s.response(s.request("tools/call", `{"name":"panic","arguments":{}}`)); ok {
		s.expectError(m, -32603, "a panicking handler")
	}
}

// discover asks for the server's versions and capabilities, the modern
// way.
func (s *session) discover() {
	var m message
	var ok bool
	s.wide(func() { m, ok = s.response(s.request("server/discover", "{"+modernMeta+"}")) })
	var r struct {
		ResultType        string                          `json:"resultType"`
		SupportedVersions []string                        `json:"supportedVersions"`
		Capabilities      struct{ Tools json.RawMessage } `json:"capabilities"`
		TTLMs             *int                            `json:"ttlMs"`
		CacheScope        string                          `json:"cacheScope"`
		Meta              resultMeta                      `json:"_meta"`
	}
	if !ok || !s.result(m, &r) {
		return
	}
	s.check(r.ResultType == "complete", "resultType is %q, want complete", r.ResultType)
	s.check(slices.Contains(r.SupportedVersions, modernVersion) && slices.Contains(r.SupportedVersions, legacyVersion),
		"supportedVersions %v lacks %s or %s", r.SupportedVersions, modernVersion, legacyVersion)
	s.check(r.Capabilities.Tools != nil, "the capabilities lack tools")
	s.check(r.TTLMs != nil && *r.TTLMs >= 0 && (r.CacheScope == "public" || r.CacheScope == "private"),
		"the cache hints are missing or wrong: ttlMs %v, cacheScope %q", r.TTLMs, r.CacheScope)
	s.check(r.Meta.ServerInfo != nil && r.Meta.ServerInfo.Name != "", "the result's _meta lacks serverInfo")
}

// listen opens a subscription and checks its acknowledgement.
func (s *session) listen() {
	s.listenID = s.request("subscriptions/listen", `{"notifications":{"toolsListChanged":true,"resourceSubscriptions":["test://static-text","test://nowhere"]},`+modernMeta+`}`)
	m, _, ok := s.await("notifications/subscriptions/acknowledged", func(m message) bool { return m.Method != "" || m.isResponse() })
	if !ok {
		return
	}
	var ack struct {
		Notifications json.RawMessage `json:"notifications"`
		Meta          resultMeta      `json:"_meta"`
	}
	if !s.check(m.Method == "notifications/subscriptions/acknowledged" && json.Unmarshal(m.Params, &ack) == nil,
		"the first line after subscriptions/listen is not its acknowledgement: %s", m) {
		return
	}
	s.check(string(ack.Meta.SubscriptionID) == s.listenID, "the acknowledgement's subscriptionId is %s, want %s", ack.Meta.SubscriptionID, s.listenID)
	s.check(jsonEqual(ack.Notifications, listenHonoured), "the acknowledgement honours %s, want %s", ack.Notifications, listenHonoured)
}

// shutdown closes the server's stdin; the open subscription must end with
// its result, then the server must close its stdout and exit with status 0.
func (s *session) shutdown() {
	s.p.clientEvent("closes stdin")
	if err := s.srv.closeStdin(); err != nil && !errors.Is(err, os.ErrClosed) {
		s.check(false, "closing the server's stdin: %v", err)
	}
	if s.listenID != "" && s.gone == "" {
		m, before, ok := s.responseAfter(s.listenID)
		var r toolResult
		if ok && s.result(m, &r) {
			s.check(len(before) == 0, "%s before the listen result", plural(len(before), "unexpected line"))
			s.check(r.ResultType == "complete" && string(r.Meta.SubscriptionID) == s.listenID,
				"the listen result lacks resultType complete or subscriptionId %s", s.listenID)
		}
	}
	deadline := time.NewTimer(s.timeout)
	defer deadline.Stop()
	before := len(s.wire)
	if !s.drain(deadline.C) {
		s.check(false, "the server did not close its stdout within %s; killing it", s.timeout)
		s.srv.kill()
		s.drain(nil)
	}
	s.check(len(s.wire) == before, "the server wrote after the listen result")
	var err error
	select {
	case err = <-s.srv.exited:
	case <-deadline.C:
		s.check(false, "the server did not exit within %s; killing it", s.timeout)
		s.srv.kill()
		err = <-s.srv.exited
	}
	s.exited = true
	s.p.serverEvent("exits with status " + jsonInt(int64(exitCode(err))))
	s.check(err == nil, "the server exited with %v", err)
}

// jsonInt formats n as JSON.
func jsonInt(n int64) string {
	b, _ := json.Marshal(n)
	return string(b)
}

// jsonEqual reports whether got and want are the same JSON value.
func jsonEqual(got json.RawMessage, want string) bool {
	var a, b any
	return json.Unmarshal(got, &a) == nil && json.Unmarshal([]byte(want), &b) == nil && reflect.DeepEqual(a, b)
}
