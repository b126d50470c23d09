package main

import (
	"context"
	"fmt"
	"log"
	"maps"
	"slices"
	"sync"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// guide is the text of the static resource notes://guide.
const guide = `Notes are short texts, each with a name.
Read one at note://{name}; save one with the add_note tool;
ask for a summary with the summarize prompt.`

// The tool's and the prompt's arguments; their schemas are inferred.
type (
	addNoteArgs struct {
		Name string `json:"name" description:"The note's name: letters, digits and dashes." jsonschema:"pattern=^[a-z0-9-]+$"`
		Text string `json:"text" description:"The note's text. A note of that name is replaced."`
	}
	summarizeArgs struct {
		Note  string `json:"note" description:"The name of the note to summarize."`
		Style string `json:"style,omitempty" description:"brief (the default) or detailed."`
	}
)

// styles are the values the summarize prompt's style argument takes.
var styles = []string{"brief", "detailed"}

// notes is the server's store of notes, by name.
type notes struct {
	mu    sync.Mutex
	notes map[string]string
}

// get returns the note name and whether it exists.
func (n *notes) get(name string) (string, bool) {
	n.mu.Lock()
	defer n.mu.Unlock()
	text, ok := n.notes[name]
	return text, ok
}

// names returns the names of the notes, sorted.
func (n *notes) names() []string {
	n.mu.Lock()
	defer n.mu.Unlock()
	return slices.Sorted(maps.Keys(n.notes))
}

// completeName suggests the names of the notes that start with what the
// user typed.
func (n *notes) completeName(ctx context.Context, req mcp.CompleteRequest) (mcp.CompleteResult, error) {
	return mcp.CompletePrefix(n.names()...)(ctx, req)
}

func main() {
	if err := mcp.RunStdio(context.Background(), newServer(), nil); err != nil {
		log.Fatal(err) // log writes to stderr; stdout belongs to the protocol
	}
}

// newServer builds the server, with two notes to start with.
func newServer() *mcp.Server {
	n := &notes{notes: map[string]string{
		"groceries": "milk, eggs, bread",
		"meeting":   "Friday 10:00: plan the release, then review the roadmap.",
	}}
	srv := mcp.NewServer(mcp.Implementation{Name: "notes", Version: "0.1.0"}, nil)

	srv.MustAddResource(mcp.Resource{
		URI: "notes://guide", Name: "guide", Title: "How notes work", MimeType: "text/plain",
		Read: mcp.StaticRead(guide),
	})
	srv.MustAddResourceTemplate(mcp.ResourceTemplate{
		URITemplate: "note://{name}", Name: "note", Description: "One note, by name.", MimeType: "text/plain",
		Read: func(_ context.Context, uri string, vars map[string]string) ([]mcp.ResourceContents, error) {
			text, ok := n.get(vars["name"])
			if !ok {
				return nil, fmt.Errorf("note %q: %w", vars["name"], mcp.ErrResourceNotFound)
			}
			return []mcp.ResourceContents{mcp.TextContents(uri, "text/plain", text)}, nil
		},
		Complete: map[string]mcp.CompleteFunc{"name": n.completeName},
	})

	summarize := mcp.NewPrompt("summarize", "Asks for a summary of a note.",
		func(_ context.Context, in summarizeArgs) (*mcp.PromptResult, error) {
			text, ok := n.get(in.Note)
			if !ok {
				return nil, fmt.Errorf("there is no note %q", in.Note)
			}
			style := in.Style
			if style == "" {
				style = "brief"
			} else if !slices.Contains(styles, style) {
				return nil, fmt.Errorf("style %q is none of %v", style, styles)
			}
			return &mcp.PromptResult{Messages: []mcp.PromptMessage{
				mcp.UserMessage(fmt.Sprintf("Write a %s summary of the note %q:\n\n%s", style, in.Note, text)),
			}}, nil
		},
		mcp.WithTitle("Summarize a note"))
	summarize.Complete = map[string]mcp.CompleteFunc{"note": n.completeName, "style": mcp.CompletePrefix(styles...)}
	srv.MustAddPrompt(summarize)

	srv.MustAddTool(tool.New("add_note", "Saves a note, replacing one of the same name; it is then readable at note://{name}.",
		func(_ context.Context, in addNoteArgs) (string, error) {
			n.mu.Lock()
			n.notes[in.Name] = in.Text
			n.mu.Unlock()
			uri := "note://" + in.Name
			srv.ResourceUpdated(uri)
			return "saved " + uri, nil
		},
		tool.WithTitle("Add a note"), tool.ReadOnly(false), tool.Destructive(true), tool.Idempotent(true), tool.OpenWorld(false)))
	return srv
}
