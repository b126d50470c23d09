// Package prompt defines MCP prompts as Go values: a name, the arguments
// a user fills in (all strings), and a function that returns the messages
// to give the model. A server registers them with mcp.Server.AddPrompt and
// answers prompts/list and prompts/get for them, in both eras; hosts show
// them to users, Claude Code as slash commands.
//
// [New] infers the arguments from a struct of string fields, as tool.New
// infers a tool's input: the json tag names an argument, "omitempty" makes
// it optional (every other field is required), and a description tag (or
// a bare jsonschema tag, as go-sdk writes it) describes it. prompts/get
// refuses, with -32602, a missing required argument and an argument the
// prompt does not have, before the function runs.
package prompt

import (
	"context"
	"errors"

	"github.com/mcpwire/mcpwire/complete"
	"github.com/mcpwire/mcpwire/protocol"
)

// Argument describes one argument of a prompt.
type Argument struct {
	// Name identifies the argument; required.
	Name string
	// Title is an optional display name (sent from 2025-06-18 on).
	Title string
	// Description says what the argument is for.
	Description string
	// Required reports whether prompts/get must give it.
	Required bool
}

// Role says who speaks a message.
type Role string

// The roles of a message.
const (
	User      Role = "user"
	Assistant Role = "assistant"
)

// Message is one message of a prompt: a role and one content block of any
// type (text, image, audio, resource_link, embedded resource).
type Message struct {
	Role    Role
	Content protocol.Content
}

// UserText returns a user message holding text.
func UserText(text string) Message {
	return Message{Role: User, Content: &protocol.TextContent{Text: text}}
}

// AssistantText returns an assistant message holding text.
func AssistantText(text string) Message {
	return Message{Role: Assistant, Content: &protocol.TextContent{Text: text}}
}

// Result is what prompts/get answers.
type Result struct {
	// Description optionally describes this rendering of the prompt.
	Description string
	// Messages are the prompt's messages; at least one.
	Messages []Message
	// Meta is the result's optional _meta object.
	Meta map[string]any
}

// GetFunc renders a prompt from its arguments, already checked: every
// required argument is present and none is unknown.
type GetFunc func(ctx context.Context, args map[string]string) (*Result, error)

// Prompt is one prompt: its descriptor, its render function, and optional
// completion providers for its arguments.
type Prompt struct {
	// Name identifies the prompt; required.
	Name string
	// Title is an optional display name (sent from 2025-06-18 on).
	Title string
	// Description says what the prompt does.
	Description string
	// Arguments are the arguments the prompt accepts, in order.
	Arguments []Argument
	// Icons are optional icons (sent from 2025-11-25 on).
	Icons []protocol.Icon
	// Meta is the descriptor's optional _meta object (sent from 2025-06-18
	// on).
	Meta map[string]any
	// Get renders the prompt; required.
	Get GetFunc
	// Complete holds completion providers by argument name.
	Complete map[string]complete.Func
	// Scopes are the OAuth scopes a caller must hold, all of them, to see
	// the prompt in prompts/list, get it and complete its arguments. They
	// stay on the server (never in the descriptor). A caller lacking one
	// finds no such prompt, except over HTTP behind package oauth, which
	// answers with 403 insufficient_scope naming them. Nil means every
	// caller may.
	Scopes []string

	// err is what New found wrong; registration reports it.
	err error
}

// Err returns the problem [New] found (an argument type that is not a
// struct of strings), nil for a good prompt and for a struct literal.
func (p Prompt) Err() error { return p.err }

// Option configures a prompt built by New.
type Option func(*Prompt)

// WithTitle sets the display name.
func WithTitle(title string) Option { return func(p *Prompt) { p.Title = title } }

// WithIcons sets the icons.
func WithIcons(icons ...protocol.Icon) Option { return func(p *Prompt) { p.Icons = icons } }

// WithMeta sets the descriptor's _meta.
func WithMeta(meta map[string]any) Option { return func(p *Prompt) { p.Meta = meta } }

// WithScopes sets the OAuth scopes a caller needs to see and get the
// prompt (Prompt.Scopes).
func WithScopes(scopes ...string) Option { return func(p *Prompt) { p.Scopes = scopes } }

// WithCompletion registers a completion provider for one argument.
func WithCompletion(argument string, f complete.Func) Option {
	return func(p *Prompt) {
		if p.Complete == nil {
			p.Complete = map[string]complete.Func{}
		}
		p.Complete[argument] = f
	}
}

// ErrNoMessages is what the server reports (as -32603) for a render
// function that returned a result without messages.
var ErrNoMessages = errors.New("the prompt rendered no messages")
