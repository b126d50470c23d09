package main

import (
	"iter"
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
)

// eras are the protocol eras every test runs in: the client options of
// each.
var eras = map[string]*client.Options{
	"legacy": {Era: protocol.Legacy, ProtocolVersion: "2025-11-25"},
	"modern": {Era: protocol.Modern},
}

// readText reads uri and returns its one text item.
func readText(t *testing.T, c *client.Client, uri string) (string, error) {
	t.Helper()
	r, err := c.ReadResource(t.Context(), uri)
	if err != nil {
		return "", err
	}
	if len(r.Contents) != 1 || r.Contents[0].Text == nil || r.Contents[0].Text.URI != uri {
		t.Fatalf("read %s: %+v, want one text item", uri, r)
	}
	return r.Contents[0].Text.Text, nil
}

func TestResources(t *testing.T) {
	for name, era := range eras {
		c := mcptest.NewClient(t, newServer(), era)
		if text, err := readText(t, c, "notes://guide"); err != nil || text != guide {
			t.Errorf("%s: notes://guide = %q, %v", name, text, err)
		}
		if text, err := readText(t, c, "note://groceries"); err != nil || text != "milk, eggs, bread" {
			t.Errorf("%s: note://groceries = %q, %v", name, text, err)
		}
		if _, err := c.ReadResource(t.Context(), "note://nothing"); err == nil {
			t.Errorf("%s: reading a missing note succeeded", name)
		}
		rs, err := all(c.Resources(t.Context()))
		if err != nil || len(rs) != 1 || rs[0].URI != "notes://guide" {
			t.Errorf("%s: resources/list: %v %+v", name, err, rs)
		}
		ts, err := all(c.ResourceTemplates(t.Context()))
		if err != nil || len(ts) != 1 || ts[0].URITemplate != "note://{name}" {
			t.Errorf("%s: resources/templates/list: %v %+v", name, err, ts)
		}
	}
}

// TestAddNote saves a note with the tool, then finds it everywhere: the
// template reads it, completion suggests it, the prompt quotes it.
func TestAddNote(t *testing.T) {
	for name, era := range eras {
		c := mcptest.NewClient(t, newServer(), era)
		ctx := t.Context()
		res, err := c.CallTool(ctx, "add_note", addNoteArgs{Name: "gifts", Text: "a book for Ada"})
		if err != nil || isError(res) || text(res) != "saved note://gifts" {
			t.Fatalf("%s: add_note: %v %+v", name, err, res)
		}
		if text, err := readText(t, c, "note://gifts"); err != nil || text != "a book for Ada" {
			t.Errorf("%s: note://gifts = %q, %v", name, text, err)
		}
		template := protocol.CompletionReference{Resource: &protocol.ResourceTemplateReference{URI: "note://{name}"}}
		if got, err := c.Complete(ctx, template, "name", "g"); err != nil || !slices.Equal(got.Values, []string{"gifts", "groceries"}) {
			t.Errorf("%s: complete note://{name} g = %+v, %v", name, got, err)
		}
		p, err := c.GetPrompt(ctx, "summarize", map[string]string{"note": "gifts", "style": "detailed"})
		if err != nil || len(p.Messages) != 1 || p.Messages[0].Content.Text == nil ||
			!strings.Contains(p.Messages[0].Content.Text.Text, "detailed summary of the note \"gifts\":\n\na book for Ada") {
			t.Errorf("%s: summarize gifts: %v %+v", name, err, p)
		}
		res, err = c.CallTool(ctx, "add_note", addNoteArgs{Name: "Bad Name", Text: "x"})
		if err != nil || !isError(res) {
			t.Errorf("%s: add_note with a bad name: %v %+v, want isError", name, err, res)
		}
	}
}

func TestPromptCompletion(t *testing.T) {
	for name, era := range eras {
		c := mcptest.NewClient(t, newServer(), era)
		ctx := t.Context()
		prompt := protocol.CompletionReference{Prompt: &protocol.PromptReference{Name: "summarize"}}
		for _, q := range []struct {
			arg, value string
			want       []string
		}{
			{"note", "", []string{"groceries", "meeting"}},
			{"note", "me", []string{"meeting"}},
			{"style", "d", []string{"detailed"}},
			{"note", "x", nil},
		} {
			if got, err := c.Complete(ctx, prompt, q.arg, q.value); err != nil || !slices.Equal(got.Values, q.want) {
				t.Errorf("%s: complete %s %q = %+v, %v; want %v", name, q.arg, q.value, got, err, q.want)
			}
		}
		p, err := c.GetPrompt(ctx, "summarize", map[string]string{"note": "meeting"})
		if err != nil || len(p.Messages) != 1 || p.Messages[0].Content.Text == nil ||
			!strings.HasPrefix(p.Messages[0].Content.Text.Text, "Write a brief summary of the note \"meeting\"") {
			t.Errorf("%s: summarize meeting: %v %+v", name, err, p)
		}
		if _, err := c.GetPrompt(ctx, "summarize", map[string]string{"note": "nothing"}); err == nil {
			t.Errorf("%s: summarize of a missing note succeeded", name)
		}
	}
}

// TestContract reviews the server as mcpwire check would, in both eras.
func TestContract(t *testing.T) {
	for _, era := range eras {
		mcptest.Check(t, newServer(), mcptest.WithClient(era))
	}
}

// all gathers the items of a list, up to its error.
func all[T any](seq iter.Seq2[*T, error]) ([]*T, error) {
	var out []*T
	for x, err := range seq {
		if err != nil {
			return out, err
		}
		out = append(out, x)
	}
	return out, nil
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
