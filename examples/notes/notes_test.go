package main

import (
	"slices"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcptest"
	"github.com/mcpwire/mcpwire/protocol"
)

// eras are the protocol eras every test runs in.
var eras = map[string]mcptest.Option{"legacy": mcptest.Legacy("2025-11-25"), "modern": mcptest.Modern()}

// readText reads uri and returns its one text item.
func readText(t *testing.T, c *mcptest.Client, uri string) (string, error) {
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
		rs, err := c.ListResources(t.Context())
		if err != nil || len(rs) != 1 || rs[0].URI != "notes://guide" {
			t.Errorf("%s: resources/list: %v %+v", name, err, rs)
		}
		ts, err := c.ListResourceTemplates(t.Context())
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
		if err != nil || res.IsError || res.Text() != "saved note://gifts" {
			t.Fatalf("%s: add_note: %v %+v", name, err, res)
		}
		if text, err := readText(t, c, "note://gifts"); err != nil || text != "a book for Ada" {
			t.Errorf("%s: note://gifts = %q, %v", name, text, err)
		}
		template := protocol.CompletionReference{Resource: &protocol.ResourceTemplateReference{URI: "note://{name}"}}
		if got, err := c.Complete(ctx, template, "name", "g"); err != nil || !slices.Equal(got, []string{"gifts", "groceries"}) {
			t.Errorf("%s: complete note://{name} g = %v, %v", name, got, err)
		}
		p, err := c.GetPrompt(ctx, "summarize", map[string]string{"note": "gifts", "style": "detailed"})
		if err != nil || len(p.Messages) != 1 || p.Messages[0].Content.Text == nil ||
			!strings.Contains(p.Messages[0].Content.Text.Text, "detailed summary of the note \"gifts\":\n\na book for Ada") {
			t.Errorf("%s: summarize gifts: %v %+v", name, err, p)
		}
		res, err = c.CallTool(ctx, "add_note", addNoteArgs{Name: "Bad Name", Text: "x"})
		if err != nil || !res.IsError {
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
			if got, err := c.Complete(ctx, prompt, q.arg, q.value); err != nil || !slices.Equal(got, q.want) {
				t.Errorf("%s: complete %s %q = %v, %v; want %v", name, q.arg, q.value, got, err, q.want)
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
		mcptest.Check(t, newServer(), era)
	}
}
