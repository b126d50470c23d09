package main

import (
	"encoding/json"
	"os"
	"path/filepath"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
)

// newTestServer builds the server over a root holding two files, a
// subdirectory, a link inside the root and a link leading out of it.
func newTestServer(t *testing.T) *client.Client {
	t.Helper()
	dir := t.TempDir()
	root, outside := filepath.Join(dir, "root"), filepath.Join(dir, "outside")
	for name, text := range map[string]string{
		"root/todo.txt":         "buy milk\nwrite the report\n",
		"root/notes/meeting.md": "# Meeting\nthe report is due friday\n",
		"outside/secret.txt":    "the report secret\n",
	} {
		p := filepath.Join(dir, name)
		if err := os.MkdirAll(filepath.Dir(p), 0o755); err != nil {
			t.Fatal(err)
		}
		if err := os.WriteFile(p, []byte(text), 0o644); err != nil {
			t.Fatal(err)
		}
	}
	if err := os.Symlink(outside, filepath.Join(root, "escape")); err != nil {
		t.Fatal(err)
	}
	if err := os.Symlink("todo.txt", filepath.Join(root, "alias.txt")); err != nil {
		t.Fatal(err)
	}
	srv, err := newServer(root)
	if err != nil {
		t.Fatal(err)
	}
	return mcptest.NewClient(t, srv, nil)
}

func TestTools(t *testing.T) {
	c := newTestServer(t)
	ctx := t.Context()

	res, err := c.CallTool(ctx, "read_file", pathArgs{Path: "notes/meeting.md"})
	if err != nil || isError(res) || text(res) != "# Meeting\nthe report is due friday\n" {
		t.Errorf("read_file: %v %+v", err, res)
	}

	l, err := client.CallToolAs[listing](ctx, c, "list_dir", pathArgs{Path: "."})
	if err != nil {
		t.Fatalf("list_dir: %v", err)
	}
	got := map[string]entry{}
	for _, e := range l.Entries {
		got[e.Name] = e
	}
	if len(got) != 4 || !got["notes"].Dir || got["todo.txt"].Size != 26 || got["todo.txt"].Dir {
		t.Errorf("list_dir . = %+v", l.Entries)
	}

	m, err := client.CallToolAs[matches](ctx, c, "search", searchArgs{Path: ".", Query: "report"})
	if err != nil {
		t.Fatalf("search: %v", err)
	}
	want := []match{{"notes/meeting.md", 2, "the report is due friday"}, {"todo.txt", 2, "write the report"}}
	if len(m.Matches) != len(want) || m.Truncated {
		t.Fatalf("search found %+v, want %+v (nothing through the links)", m, want)
	}
	for i := range want {
		if m.Matches[i] != want[i] {
			t.Errorf("match %d = %+v, want %+v", i, m.Matches[i], want[i])
		}
	}
}

// toolCall is a call of a tool and what its answer must hold.
type toolCall struct {
	name string
	args any
	want string
}

// TestConfined checks that no path leaves the root: not with "..", not
// through a link, whatever the tool.
func TestConfined(t *testing.T) {
	c := newTestServer(t)
	for _, call := range []toolCall{
		{"read_file", pathArgs{Path: "../outside/secret.txt"}, "outside the root"},
		{"read_file", pathArgs{Path: "notes/../../outside/secret.txt"}, "outside the root"},
		{"read_file", pathArgs{Path: "escape/secret.txt"}, "symbolic link"},
		{"read_file", pathArgs{Path: "alias.txt"}, "symbolic link"},
		{"read_file", pathArgs{Path: "missing.txt"}, "does not exist"},
		{"read_file", pathArgs{Path: "notes"}, "not a regular file"},
		{"list_dir", pathArgs{Path: ".."}, "outside the root"},
		{"list_dir", pathArgs{Path: "escape"}, "symbolic link"},
		{"search", searchArgs{Path: "escape", Query: "report"}, "symbolic link"},
		{"search", searchArgs{Path: "..", Query: "report"}, "outside the root"},
	} {
		res, err := c.CallTool(t.Context(), call.name, call.args)
		if err != nil || !isError(res) || !strings.Contains(text(res), call.want) || strings.Contains(text(res), "secret\n") {
			t.Errorf("%s %+v: %v %+v, want an isError result saying %q", call.name, call.args, err, res, call.want)
		}
	}
}

// TestProbe asks each tool which access a call needs: the pattern names
// the file, nothing is read, and a path out of the root gets no pattern.
func TestProbe(t *testing.T) {
	c := newTestServer(t)
	probe := func(name string, args any) (patterns []string, isError bool) {
		t.Helper()
		var raw json.RawMessage
		err := c.Call(t.Context(), "tools/call", map[string]any{
			"name": name, "arguments": args, "_meta": map[string]any{"forge.permission_patterns": true},
		}, &raw)
		if err != nil {
			t.Fatalf("probe %s: %v", name, err)
		}
		var res struct {
			Content []json.RawMessage `json:"content"`
			IsError bool              `json:"isError"`
			Meta    struct {
				Patterns []string `json:"forge.patterns"`
			} `json:"_meta"`
		}
		if err := json.Unmarshal(raw, &res); err != nil || (!res.IsError && len(res.Content) != 0) {
			t.Fatalf("probe %s answered %s (%v), want no content", name, raw, err)
		}
		return res.Meta.Patterns, res.IsError
	}
	for _, p := range []toolCall{
		{"read_file", pathArgs{Path: "notes/meeting.md"}, "read:notes/meeting.md"},
		{"read_file", pathArgs{Path: "alias.txt"}, "read:todo.txt"},
		{"list_dir", pathArgs{Path: "."}, "read:."},
		{"search", searchArgs{Path: "notes", Query: "x"}, "read:notes"},
	} {
		if got, isErr := probe(p.name, p.args); isErr || len(got) != 1 || got[0] != p.want {
			t.Errorf("probe %s %+v = %v (isError %v), want [%s]", p.name, p.args, got, isErr, p.want)
		}
	}
	if got, isErr := probe("read_file", pathArgs{Path: "escape/secret.txt"}); !isErr || len(got) != 0 {
		t.Errorf("probe through the escaping link = %v (isError %v), want an isError result", got, isErr)
	}
	var tools []*protocol.Tool
	for tl, err := range c.Tools(t.Context()) {
		if err != nil {
			t.Fatalf("tools/list: %v", err)
		}
		tools = append(tools, tl)
	}
	if len(tools) != 3 {
		t.Fatalf("tools/list: %+v", tools)
	}
	for _, tl := range tools {
		if string(tl.Meta["forge.supports_permission_patterns"]) != "true" || tl.Annotations == nil || tl.Annotations.ReadOnlyHint == nil || !*tl.Annotations.ReadOnlyHint {
			t.Errorf("tool %s: _meta %v, annotations %+v: want probe support and readOnlyHint", tl.Name, tl.Meta, tl.Annotations)
		}
	}
}

// TestContract reviews the server as mcpwire check would, in both eras,
// calling every read-only tool.
func TestContract(t *testing.T) {
	dir := t.TempDir()
	srv, err := newServer(dir)
	if err != nil {
		t.Fatal(err)
	}
	for _, era := range []protocol.Era{protocol.Legacy, protocol.Modern} {
		mcptest.Check(t, srv, mcptest.WithClient(&client.Options{Era: era}))
	}
}

// text returns the text of a tool result's text blocks.
func text(r *protocol.CallToolResult) string {
	var parts []string
	for _, b := range r.Content {
		if b.Text != nil {
			parts = append(parts, b.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}

// isError reports that the tool failed.
func isError(r *protocol.CallToolResult) bool { return r.IsError != nil && *r.IsError }
