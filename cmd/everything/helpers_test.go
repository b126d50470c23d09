package main

import (
	"bytes"
	stdjson "encoding/json"
	"fmt"
	"io"
	"log/slog"
	"slices"
	"strings"
	"testing"

	json "github.com/goccy/go-json"
	"github.com/google/go-cmp/cmp"

	"github.com/mcpwire/mcpwire/internal/peer/golden"
	"github.com/mcpwire/mcpwire/internal/testsupport/wirecheck"
	"github.com/mcpwire/mcpwire/protocol"
)

// quietLogger discards the server's logs in tests.
func quietLogger() *slog.Logger { return slog.New(slog.NewTextHandler(io.Discard, nil)) }

// schemaChecker validates every server line of a transcript against the
// official schema of the negotiated revision, strictly (no key the revision
// does not define), and round-trips every modern result, and the tasks
// extension's status notification, through the protocol package's types
// (roundTrip).
//
// A modern request declaring a version this server does not serve is
// answered (-32022) in the modern form, checked against 2026-07-28. Two
// cases have no schema of their own and are checked against 2025-11-25:
// lines written before initialize, and error responses whose request id
// could not be read. Revisions before 2025-11-25 require an id in every
// error response, yet JSON-RPC has none to give when the id is unreadable;
// mcpwire omits it, the form 2025-11-25 and later define.
func schemaChecker(t *testing.T) golden.Checker {
	c, err := wirecheck.Load("../../testdata/schema")
	if err != nil {
		t.Fatal(err)
	}
	return func(rev string, methodOf func([]byte) string, line []byte) error {
		switch {
		case rev == "" || (rev < "2025-11-25" && idlessError(line)):
			rev = "2025-11-25"
		case !slices.Contains(c.Revisions(), rev):
			rev = "2026-07-28" // a modern request for a version not served
		}
		if err := c.ServerMessageFunc(rev, methodOf, line); err != nil {
			return err
		}
		if rev == "2026-07-28" {
			return roundTrip(methodOf, line)
		}
		return nil
	}
}

// idlessError reports whether line is an error response without an id (or
// a batch holding one).
func idlessError(line []byte) bool {
	trimmed := strings.TrimSpace(string(line))
	if strings.HasPrefix(trimmed, "[") {
		var items []json.RawMessage
		if json.Unmarshal(line, &items) != nil {
			return false
		}
		for _, it := range items {
			if idlessError(it) {
				return true
			}
		}
		return false
	}
	var m map[string]json.RawMessage
	if json.Unmarshal(line, &m) != nil {
		return false
	}
	_, hasID := m["id"]
	_, hasErr := m["error"]
	return hasErr && !hasID
}

// roundTrip checks that a modern result the server wrote decodes into the
// protocol package's type for its method and encodes back equal, so the
// server's hand-built encoders and the public wire types agree. An
// input_required result (of tools/call, prompts/get or resources/read) is
// checked as a protocol.InputRequiredResult, a tools/call that became a
// task (resultType "task") as a protocol.CreateTaskResult. The tasks
// extension's status notification is checked the same way, its params as
// protocol.TaskStatusNotificationParams; the CallToolResult a task's
// tasks/get or notification inlines is checked as one too.
func roundTrip(methodOf func([]byte) string, line []byte) error {
	var env struct {
		ID     json.RawMessage `json:"id"`
		Method string          `json:"method"`
		Params json.RawMessage `json:"params"`
		Result json.RawMessage `json:"result"`
	}
	if err := json.Unmarshal(line, &env); err != nil {
		return nil // the schema check reports what is not JSON
	}
	if env.Method == protocol.NotificationTaskStatus && env.Params != nil {
		var p protocol.TaskStatusNotificationParams
		if err := strictRoundTrip(env.Params, &p); err != nil {
			return err
		}
		return inlinedResult(&p.DetailedTask)
	}
	if env.Result == nil {
		return nil // other notifications and errors are covered by the schema check
	}
	var target any
	var rt struct {
		ResultType string `json:"resultType"`
	}
	json.Unmarshal(env.Result, &rt)
	switch method := methodOf(env.ID); {
	case rt.ResultType == string(protocol.ResultTypeTask) && method == "tools/call":
		target = &protocol.CreateTaskResult{}
	case rt.ResultType == string(protocol.ResultTypeInputRequired) &&
		(method == "tools/call" || method == "prompts/get" || method == "resources/read"):
		target = &protocol.InputRequiredResult{}
	default:
		target = resultFor(method)
	}
	if target == nil {
		return fmt.Errorf("no protocol type for the result of %q", methodOf(env.ID))
	}
	if err := strictRoundTrip(env.Result, target); err != nil {
		return err
	}
	if got, ok := target.(*protocol.GetTaskResult); ok {
		return inlinedResult(&got.DetailedTask)
	}
	return nil
}

// inlinedResult round-trips the result a completed task inlines as the
// protocol.CallToolResult it is.
func inlinedResult(t *protocol.DetailedTask) error {
	if t.Result == nil {
		return nil
	}
	if err := strictRoundTrip(t.Result, &protocol.CallToolResult{}); err != nil {
		return fmt.Errorf("the result task %s inlines: %w", t.TaskID, err)
	}
	return nil
}

// strictRoundTrip decodes raw into target, refusing members it does not
// know, encodes it again and compares the two as JSON.
func strictRoundTrip(raw []byte, target any) error {
	dec := json.NewDecoder(bytes.NewReader(raw))
	dec.DisallowUnknownFields()
	if err := dec.Decode(target); err != nil {
		return fmt.Errorf("decoding into %T: %w", target, err)
	}
	again, err := json.Marshal(target)
	if err != nil {
		return fmt.Errorf("encoding %T: %w", target, err)
	}
	var want, got any
	if err := stdjson.Unmarshal(raw, &want); err != nil {
		return err
	}
	if err := stdjson.Unmarshal(again, &got); err != nil {
		return err
	}
	if d := cmp.Diff(want, got); d != "" {
		return fmt.Errorf("%T round trip differs (-server +protocol):\n%s", target, d)
	}
	return nil
}

// resultFor returns a new value of the protocol type of a modern method's
// complete result, or nil for a method the check does not know.
func resultFor(method string) any {
	switch method {
	case "server/discover":
		return &protocol.DiscoverResult{}
	case "tools/list":
		return &protocol.ListToolsResult{}
	case "tools/call":
		return &protocol.CallToolResult{}
	case "subscriptions/listen":
		return &protocol.SubscriptionsListenResult{}
	case "resources/list":
		return &protocol.ListResourcesResult{}
	case "resources/templates/list":
		return &protocol.ListResourceTemplatesResult{}
	case "resources/read":
		return &protocol.ReadResourceResult{}
	case "prompts/list":
		return &protocol.ListPromptsResult{}
	case "prompts/get":
		return &protocol.GetPromptResult{}
	case "completion/complete":
		return &protocol.CompleteResult{}
	case protocol.MethodGetTask:
		return &protocol.GetTaskResult{}
	case protocol.MethodUpdateTask:
		return &protocol.UpdateTaskResult{}
	case protocol.MethodCancelTask:
		return &protocol.CancelTaskResult{}
	}
	return nil
}
