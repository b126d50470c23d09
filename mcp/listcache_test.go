package mcp

import (
	"context"
	"io"
	"log/slog"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// listPage calls the tools/list handler as run does and returns the
// result's bytes, and whether they came as raw JSON (from the page cache).
func listPage(t *testing.T, s *Server, rv protocol.Revision, caller *auth.Principal, cursor *string) (json.RawMessage, bool) {
	t.Helper()
	ss := newSession(s, nil)
	r := &request{method: "tools/list", rev: rv, caller: caller}
	res, err := toolList.serve(context.Background(), ss, nil, r, &protocol.PaginatedRequestParams{Cursor: cursor})
	if err != nil {
		t.Fatal(err)
	}
	if raw, ok := res.(json.RawMessage); ok {
		return raw, true
	}
	s.fillEnvelope(res, r)
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return raw, false
}

// uncachedPage is the page the handler made before the cache: what every
// cached page must equal byte for byte.
func uncachedPage(t *testing.T, s *Server, rv protocol.Revision, cursor *string) json.RawMessage {
	t.Helper()
	tools, snap := toolList.snapshot(s)
	page, next, err := pageOf(s, listTools, cursor, tools, snap, func(e *entry) protocol.Tool { return e.wireTool(rv) })
	if err != nil {
		t.Fatal(err)
	}
	res := &protocol.ListToolsResult{Tools: page, NextCursor: next}
	r := &request{method: "tools/list", rev: rv}
	s.fillEnvelope(res, r)
	raw, err := json.Marshal(res)
	if err != nil {
		t.Fatal(err)
	}
	return raw
}

func TestToolsListPageCache(t *testing.T) {
	s := NewServer(Implementation{Name: "cache", Version: "1"}, &Options{PageSize: 2, StateKey: []byte("a test key of at least thirty-two bytes"),
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	for _, name := range []string{"a", "b", "c"} {
		s.MustAddTool(tool.New(name, "Tool "+name+".", func(context.Context, struct{}) (*tool.Result, error) { return tool.TextResult(name), nil }))
	}
	for _, rv := range []protocol.Revision{protocol.Revision20241105, protocol.Revision20250326, protocol.Revision20250618, protocol.Revision20251125, protocol.Revision20260728} {
		var cursor *string
		for page := 0; ; page++ {
			want := uncachedPage(t, s, rv, cursor)
			for try := range 2 {
				got, raw := listPage(t, s, rv, nil, cursor)
				if !raw {
					t.Fatalf("rev %d page %d: not served from the cache", rv, page)
				}
				if string(got) != string(want) {
					t.Fatalf("rev %d page %d try %d:\n got %s\nwant %s", rv, page, try, got, want)
				}
			}
			var res protocol.ListToolsResult
			if err := json.Unmarshal(want, &res); err != nil {
				t.Fatal(err)
			}
			if res.NextCursor == nil {
				break
			}
			cursor = res.NextCursor
		}
	}

	// A change drops the cache, and the old cursors go stale as before.
	first, _ := listPage(t, s, protocol.Revision20251125, nil, nil)
	var res protocol.ListToolsResult
	json.Unmarshal(first, &res)
	s.MustAddTool(tool.New("d", "Tool d.", func(context.Context, struct{}) (*tool.Result, error) { return tool.TextResult("d"), nil }))
	if got := uncachedPage(t, s, protocol.Revision20251125, nil); string(got) == string(first) {
		t.Fatalf("the first page did not change after a tool was added: %s", got)
	}
	if got, _ := listPage(t, s, protocol.Revision20251125, nil, nil); string(got) != string(uncachedPage(t, s, protocol.Revision20251125, nil)) {
		t.Fatalf("after a change the page is %s, want %s", got, uncachedPage(t, s, protocol.Revision20251125, nil))
	}
	ss := newSession(s, nil)
	if _, err := toolList.serve(context.Background(), ss, nil, &request{method: "tools/list", rev: protocol.Revision20251125},
		&protocol.PaginatedRequestParams{Cursor: res.NextCursor}); err == nil {
		t.Fatal("a cursor of the list before the change still opens")
	}

	// A gated tool makes the list depend on the caller: nothing is cached.
	s.MustAddTool(tool.Tool{Name: "secret", Scopes: []string{"admin"}, InputSchema: json.RawMessage(`{"type":"object"}`),
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("s"), nil }})
	for _, caller := range []*auth.Principal{nil, {Subject: "root", Scopes: []string{"admin"}}} {
		if _, raw := listPage(t, s, protocol.Revision20260728, caller, nil); raw {
			t.Fatalf("caller %v: a list with a gated tool was served from the cache", caller)
		}
	}
}
