package main

import (
	"errors"
	"fmt"
	"os"
	"strings"
	"time"

	json "github.com/goccy/go-json"
)

// protocolVersion is the revision the demo asks for.
const protocolVersion = "2025-11-25"

// echoText exercises escaping and multi-byte UTF-8 in both directions.
const echoText = "héllo\nworld ✓"

// demoTools are the tools the session calls; tools/list must list them.
var demoTools = []string{"echo", "add", "fail", "slow", "panic"}

// maxPages bounds the tools/list loop against a cursor that never ends.
const maxPages = 50

// quietWindow is how long the cancellation step keeps listening after the
// ping, to show that no response for the cancelled call arrives.
const quietWindow = 400 * time.Millisecond

// handshake initializes the session at protocolVersion.
func (s *session) handshake() {
	id := s.request("initialize", `{"protocolVersion":"`+protocolVersion+`","capabilities":{},"clientInfo":{"name":"mcpwire-demo","version":"1.0.0"}}`)
	if m, _, ok := s.response(id); ok {
		var r struct {
			ProtocolVersion string `json:"protocolVersion"`
			Capabilities    struct {
				Tools json.RawMessage `json:"tools"`
			} `json:"capabilities"`
			ServerInfo struct {
				Name    string `json:"name"`
				Version string `json:"version"`
			} `json:"serverInfo"`
		}
		switch {
		case !s.result(m, &r):
		case r.ProtocolVersion != protocolVersion:
			s.fail("the server negotiated %q, not %q", r.ProtocolVersion, protocolVersion)
		case r.Capabilities.Tools == nil:
			s.fail("the server did not declare the tools capability")
		default:
			s.ok("negotiated %s with %s %s, which offers tools", r.ProtocolVersion, r.ServerInfo.Name, r.ServerInfo.Version)
		}
	}
	if s.gone == "" {
		s.notify("notifications/initialized", "")
		s.p.note("a notification: no reply is due")
	}
}

// listTools pages through tools/list.
func (s *session) listTools() {
	seen := map[string]int{}
	cursor := ""
	for page := 1; ; page++ {
		params := "{}"
		if cursor != "" {
			params = `{"cursor":` + jsonString(cursor) + `}`
		}
		m, _, ok := s.response(s.request("tools/list", params))
		var r struct {
			Tools []struct {
				Name string `json:"name"`
			} `json:"tools"`
			NextCursor *string `json:"nextCursor"`
		}
		if !ok || !s.result(m, &r) {
			return
		}
		names := make([]string, len(r.Tools))
		for i, t := range r.Tools {
			names[i] = t.Name
			seen[t.Name]++
		}
		switch {
		case r.NextCursor == nil:
			s.ok("page %d: %s (no nextCursor: the last page)", page, strings.Join(names, ", "))
		case *r.NextCursor == "":
			s.fail("page %d: nextCursor is the empty string; the last page must omit it", page)
			return
		case page == maxPages:
			s.fail("still a nextCursor after %d pages", page)
			return
		default:
			s.ok("page %d: %s (nextCursor given: ask for the next page)", page, strings.Join(names, ", "))
			cursor = *r.NextCursor
			continue
		}
		s.checkListing(seen, page)
		return
	}
}

// checkListing checks that every tool was listed once and that the demo's
// tools are among them.
func (s *session) checkListing(seen map[string]int, pages int) {
	for name, n := range seen {
		if n > 1 {
			s.fail("tool %q was listed %d times", name, n)
			return
		}
	}
	var missing []string
	for _, name := range demoTools {
		if seen[name] == 0 {
			missing = append(missing, name)
		}
	}
	if len(missing) > 0 {
		s.fail("tools/list lacks %s", strings.Join(missing, ", "))
		return
	}
	s.ok("%d tools over %d pages, each listed once", len(seen), pages)
}

// toolResult is the result of tools/call.
type toolResult struct {
	Content []struct {
		Type string `json:"type"`
		Text string `json:"text"`
	} `json:"content"`
	StructuredContent json.RawMessage `json:"structuredContent"`
	IsError           bool            `json:"isError"`
}

// text is the result's first content block's text.
func (r toolResult) text() string {
	if len(r.Content) == 0 {
		return ""
	}
	return r.Content[0].Text
}

// call calls a tool and returns its result; ok is false (with a failure
// recorded) when no successful tool result arrived.
func (s *session) call(params string) (r toolResult, before []message, ok bool) {
	m, before, ok := s.response(s.request("tools/call", params))
	if !ok || !s.result(m, &r) {
		return r, before, false
	}
	return r, before, true
}

// callTools calls echo, add and slow.
func (s *session) callTools() {
	if r, _, ok := s.call(`{"name":"echo","arguments":{"text":` + jsonString(echoText) + `}}`); ok {
		if r.text() == echoText && !r.IsError {
			s.ok("echo returned the text byte for byte: %q", r.text())
		} else {
			s.fail("echo returned %q, want %q", r.text(), echoText)
		}
	}

	if r, _, ok := s.call(`{"name":"add","arguments":{"a":2,"b":40}}`); ok {
		var sc struct {
			Sum *int `json:"sum"`
		}
		if json.Unmarshal(r.StructuredContent, &sc) == nil && sc.Sum != nil && *sc.Sum == 42 {
			s.ok("2 + 40: structuredContent %s, and the same JSON as text for older clients", r.StructuredContent)
		} else {
			s.fail("add: structuredContent is %s, want {\"sum\":42}", r.StructuredContent)
		}
	}

	r, before, ok := s.call(`{"name":"slow","arguments":{"steps":3,"delay_ms":100},"_meta":{"progressToken":"demo-slow"}}`)
	if !ok {
		return
	}
	s.checkProgress(progressFor(before, `"demo-slow"`), 3)
	if r.text() != "done: 3 steps" {
		s.fail("slow returned %q, want %q", r.text(), "done: 3 steps")
	}
}

// checkProgress checks that ps report steps 1..n of n, in order; they were
// all read before the call's result.
func (s *session) checkProgress(ps []progress, n int) {
	if len(ps) != n {
		s.fail("%d progress notifications arrived before the result, want %d", len(ps), n)
		return
	}
	for i, p := range ps {
		if p.Progress != float64(i+1) || p.Total != float64(n) {
			s.fail("progress notification %d reports %g of %g, want %d of %d", i+1, p.Progress, p.Total, i+1, n)
			return
		}
	}
	s.ok("%d progress notifications, 1/%d to %d/%d in order, all before the result", n, n, n, n)
}

// errorClasses provokes one error of each class.
func (s *session) errorClasses() {
	s.send("this is not json")
	if m, _, ok := s.await("error response without an id", func(m message) bool {
		return m.isResponse() && m.ID == nil && m.Error != nil
	}); ok {
		s.expectError(m, -32700, "a line that is not JSON (no id to answer with)")
	}

	id := s.newID()
	s.send(`{"jsonrpc":"1.0","id":` + id + `,"method":"ping"}`)
	if m, _, ok := s.response(id); ok {
		s.expectError(m, -32600, "an invalid request (jsonrpc 1.0), its id kept")
	}

	if m, _, ok := s.response(s.request("no/such/method", "{}")); ok {
		s.expectError(m, -32601, "an unknown method")
	}

	if m, _, ok := s.response(s.request("tools/call", `{"name":"no_such_tool","arguments":{}}`)); ok {
		s.expectError(m, -32602, "an unknown tool")
	}

	if r, _, ok := s.call(`{"name":"fail","arguments":{}}`); ok {
		if r.IsError {
			s.ok("a failing tool → a result with isError: true (%q), not a JSON-RPC error", r.text())
		} else {
			s.fail("fail: the result lacks isError: true")
		}
	}

	if m, _, ok := s.response(s.request("tools/call", `{"name":"panic","arguments":{}}`)); ok {
		s.expectError(m, -32603, "a panicking handler (the stack goes to stderr)")
	}
}

// cancellation cancels a slow call after two progress notifications and
// shows that it is never answered while other requests still are.
func (s *session) cancellation() {
	const token = `"demo-cancel"`
	id := s.request("tools/call", `{"name":"slow","arguments":{"steps":100,"delay_ms":50},"_meta":{"progressToken":`+token+`}}`)
	if _, _, ok := s.await("second progress notification", func(m message) bool {
		p, ok := m.progressFor(token)
		return ok && p.Progress >= 2
	}); !ok {
		return
	}
	s.cancelled[id] = true
	s.notify("notifications/cancelled", `{"requestId":`+id+`,"reason":"the demo pressed stop"}`)

	m, before, ok := s.response(s.request("ping", ""))
	if !ok {
		return
	}
	if m.Error == nil {
		s.ok("ping answered: the server keeps serving")
	} else {
		s.fail("ping answered with error %d", m.Error.Code)
	}
	s.p.note("listening %s more for anything about id %s…", quietWindow, id)
	late := append(before, s.collect(quietWindow)...)
	n := len(progressFor(late, token))
	switch {
	case n > 2:
		s.fail("%d progress notifications after the cancel: the call kept running", n)
	case s.answeredCancel:
	case n == 0:
		s.ok("no response for id %s, and no progress after the cancel", id)
	default:
		s.ok("no response for id %s, and its progress stopped (%d notification(s) already on their way)", id, n)
	}
}

// shutdown closes the server's stdin and waits for it to exit.
func (s *session) shutdown() {
	start := time.Now()
	s.p.clientEvent("closes stdin (EOF)")
	if err := s.srv.closeStdin(); err != nil && !errors.Is(err, os.ErrClosed) {
		s.fail("closing the server's stdin: %v", err)
	}
	deadline := time.NewTimer(s.timeout)
	defer deadline.Stop()
	if !s.drain(deadline.C) {
		s.fail("the server did not close its stdout within %s; killing it", s.timeout)
		s.srv.kill()
		s.drain(nil)
	}
	var err error
	select {
	case err = <-s.srv.exited:
	case <-deadline.C:
		s.fail("the server did not exit within %s; killing it", s.timeout)
		s.srv.kill()
		err = <-s.srv.exited
	}
	s.exited = true
	took := time.Since(start)
	s.p.serverEvent(fmt.Sprintf("process exited: status %d, %s after stdin closed", exitCode(err), roundDuration(took)))
	switch {
	case err != nil:
		s.fail("the server exited with %v", err)
	case took >= 2*time.Second:
		s.fail("the server took %s to exit, want under 2s", roundDuration(took))
	default:
		s.ok("clean exit (status 0) in %s", roundDuration(took))
	}
	if len(s.cancelled) > 0 && !s.answeredCancel {
		s.ok("read to EOF: the cancelled call was never answered")
	}
}
