package main

import (
	"context"
	"slices"
	"strconv"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/peer/review"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// production reaches no completion of a caller without the operator
// scope, however much of it is typed; an operator gets it for every
// prefix.
func TestEnvironmentCompletionHidesProduction(t *testing.T) {
	for _, caller := range []*auth.Principal{anonymous, reader, {Subject: "eve", Scopes: []string{"Operator", "operators"}}, operator} {
		for i := range len("production") + 1 {
			typed := "production"[:i]
			res, err := completeEnvironment(context.Background(), mcp.CompleteRequest{Argument: "environment", Value: typed, Caller: caller})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := slices.Contains(res.Values, "production"), caller == operator; got != want {
				t.Errorf("caller %+v typed %q: production offered = %v, want %v (%v)", caller, typed, got, want, res.Values)
			}
		}
	}
}

// reviewClient lists and calls the everything server's tools over an
// in-memory connection, in one revision, for the contract reviewer.
type reviewClient struct {
	t    *testing.T
	rev  string
	conn *transport.Stream
	next int64
}

// newReviewClient serves a fresh server (no fault fixtures: what a host
// sees) and opens a connection in revision rev: the legacy handshake, or
// per-request _meta for 2026-07-28.
func newReviewClient(t *testing.T, rev string) *reviewClient {
	srv := newServer(&mcp.Options{Logger: quietLogger()}, t.TempDir(), false)
	a, b := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), a) }()
	c := &reviewClient{t: t, rev: rev, conn: b}
	t.Cleanup(func() {
		b.Close()
		select {
		case <-done:
		case <-time.After(5 * time.Second):
			t.Error("Serve did not return")
		}
	})
	if rev != protocol.Revision20260728.String() {
		res := c.request("initialize", `{"protocolVersion":"`+rev+`","capabilities":{},"clientInfo":{"name":"review","version":"1"}}`)
		var init struct{ ProtocolVersion string }
		if err := json.Unmarshal(res, &init); err != nil || init.ProtocolVersion != rev {
			t.Fatalf("initialize %s answered %s (%v)", rev, res, err)
		}
		if err := b.Write(context.Background(), &jsonrpc.Notification{Method: "notifications/initialized"}); err != nil {
			t.Fatal(err)
		}
	}
	return c
}

// params adds the 2026-07-28 request _meta to a params object.
func (c *reviewClient) params(p string) string {
	if c.rev != protocol.Revision20260728.String() {
		return p
	}
	meta := `"_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}`
	if p == "{}" {
		return "{" + meta + "}"
	}
	return "{" + meta + "," + p[1:]
}

// request sends one request and returns its result; a JSON-RPC error fails
// the test. Server-initiated requests are refused, notifications skipped.
func (c *reviewClient) request(method, params string) json.RawMessage {
	c.t.Helper()
	resp := c.try(method, params)
	if resp.Error != nil {
		c.t.Fatalf("%s %s (%s): error %d %s", c.rev, method, params, resp.Error.Code, resp.Error.Message)
	}
	return resp.Result
}

// try sends one request and returns its response.
func (c *reviewClient) try(method, params string) *jsonrpc.Response {
	c.t.Helper()
	c.next++
	id := jsonrpc.Int64ID(c.next)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	if err := c.conn.Write(ctx, &jsonrpc.Request{ID: id, Method: method, Params: json.RawMessage(c.params(params))}); err != nil {
		c.t.Fatal(err)
	}
	for {
		msg, err := c.conn.Read(ctx)
		if err != nil {
			c.t.Fatalf("%s %s: %v", c.rev, method, err)
		}
		switch m := msg.(type) {
		case *jsonrpc.Response:
			if m.ID == id {
				return m
			}
		case *jsonrpc.Request:
			refusal := &jsonrpc.Response{ID: m.ID, Error: jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "the reviewer answers no requests")}
			if err := c.conn.Write(ctx, refusal); err != nil {
				c.t.Fatal(err)
			}
		}
	}
}

// list pages through a list method and returns every item of member.
func (c *reviewClient) list(method, member string) []json.RawMessage {
	c.t.Helper()
	var all []json.RawMessage
	params := "{}"
	for page := 0; ; page++ {
		if page > 100 {
			c.t.Fatalf("%s %s: more than 100 pages", c.rev, method)
		}
		var res map[string]json.RawMessage
		if err := json.Unmarshal(c.request(method, params), &res); err != nil {
			c.t.Fatal(err)
		}
		var items []json.RawMessage
		if err := json.Unmarshal(res[member], &items); err != nil {
			c.t.Fatalf("%s %s: %s: %v", c.rev, method, member, err)
		}
		all = append(all, items...)
		cursor, ok := res["nextCursor"]
		if !ok {
			return all
		}
		params = `{"cursor":` + string(cursor) + `}`
	}
}

// callable returns the name of a tool the reviewer calls, as the check
// command does: read-only by its annotations and needing no argument.
func callable(descriptor json.RawMessage) (string, bool) {
	var d struct {
		Name        string
		Annotations struct{ ReadOnlyHint bool }
		InputSchema struct{ Required []string }
	}
	if json.Unmarshal(descriptor, &d) != nil {
		return "", false
	}
	return d.Name, d.Annotations.ReadOnlyHint && len(d.InputSchema.Required) == 0
}

// contentTools are conformance tools that need no argument, change nothing
// and ask the client nothing, though they say none of it: called too, so
// that the consume gate sees every kind of content block (image, audio,
// embedded resource) and an isError result.
var contentTools = []string{
	"test_simple_text", "test_image_content", "test_audio_content", "test_embedded_resource",
	"test_multiple_content_types", "test_error_handling",
}

// toCall returns the names of the tools to call: the read-only ones that
// need no argument, as a 2025-11-25 listing annotates them (2024-11-05 has
// no annotations), and contentTools.
func toCall(t *testing.T) map[string]bool {
	names := map[string]bool{}
	for _, n := range contentTools {
		names[n] = true
	}
	readOnly := 0
	for _, d := range newReviewClient(t, "2025-11-25").list("tools/list", "tools") {
		if name, ok := callable(d); ok {
			names[name] = true
			readOnly++
		}
	}
	if readOnly < 2 {
		t.Fatalf("%d read-only tools without arguments: the review covers too little", readOnly)
	}
	return names
}

// TestReviewAdmitsEverything runs the contract reviewer over everything
// the server lists, in every revision the reviewer knows: every tool,
// resource, template and prompt is admitted, every x-mcp-header verdict
// is "ok", and the result of every read-only tool that needs no argument
// (and of the content tools) passes the consume gate.
func TestReviewAdmitsEverything(t *testing.T) {
	calls := toCall(t)
	for _, r := range protocol.Revisions() {
		rev := r.String()
		t.Run(rev, func(t *testing.T) {
			c := newReviewClient(t, rev)
			tools := c.list("tools/list", "tools")
			called, headers := 0, 0
			for _, d := range tools {
				var desc struct{ Name string }
				if err := json.Unmarshal(d, &desc); err != nil {
					t.Fatal(err)
				}
				for _, p := range review.Tool(rev, d) {
					t.Errorf("tool %s refused: %+v", desc.Name, p)
				}
				for _, h := range review.Headers(d) {
					headers++
					if h.Verdict != review.VerdictOK {
						t.Errorf("tool %s header %+v", desc.Name, h)
					}
				}
				if calls[desc.Name] {
					called++
					reviewCall(t, c, desc.Name, d)
				}
			}
			if len(tools) < 10 || called != len(calls) || headers == 0 {
				t.Errorf("%d tools listed, %d of %d called, %d x-mcp-header annotations", len(tools), called, len(calls), headers)
			}
			reviewAll(t, rev, c.list("resources/list", "resources"), review.Resource)
			reviewAll(t, rev, c.list("resources/templates/list", "resourceTemplates"), review.ResourceTemplate)
			reviewAll(t, rev, c.list("prompts/list", "prompts"), review.Prompt)
		})
	}
}

// reviewCall calls a tool without arguments and fails the test for every
// problem the consume gate finds in its result.
func reviewCall(t *testing.T, c *reviewClient, name string, descriptor json.RawMessage) {
	t.Helper()
	resp := c.try("tools/call", `{"name":`+strconv.Quote(name)+`,"arguments":{}}`)
	if resp.Error != nil {
		t.Errorf("tool %s: error %d %s", name, resp.Error.Code, resp.Error.Message)
		return
	}
	if rt := review.ResultType(c.rev, resp.Result); rt != review.ResultComplete {
		t.Errorf("tool %s: resultType %q", name, rt)
		return
	}
	for _, p := range review.Result(c.rev, descriptor, resp.Result) {
		t.Errorf("tool %s result refused: %+v\n%s", name, p, resp.Result)
	}
}

// reviewAll fails the test for every problem fn finds in a descriptor.
func reviewAll(t *testing.T, rev string, descriptors []json.RawMessage, fn func(string, json.RawMessage) []review.Problem) {
	t.Helper()
	if len(descriptors) == 0 {
		t.Errorf("nothing listed to review")
	}
	for _, d := range descriptors {
		for _, p := range fn(rev, d) {
			t.Errorf("%s refused: %+v", d, p)
		}
	}
}
