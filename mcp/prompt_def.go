package mcp

// Prompts as Go values: a name, the arguments a user fills in (all
// strings), and a function that returns the messages to give the model.
// Server.AddPrompt registers one; the server answers prompts/list and
// prompts/get for it, in both eras; hosts show prompts to users, Claude
// Code as slash commands.
//
// [NewPrompt] infers the arguments from a struct of string fields, as
// tool.New infers a tool's input: the json tag names an argument,
// "omitempty" makes it optional (every other field is required), and a
// description tag (or a bare jsonschema tag, as go-sdk writes it)
// describes it. prompts/get refuses, with -32602, a missing required
// argument and an argument the prompt does not have, before the function
// runs.

import (
	"context"
	"errors"

	"github.com/mcpwire/mcpwire/protocol"
)

// PromptArgument describes one argument of a prompt.
type PromptArgument struct {
	// Name identifies the argument; required.
	Name string
	// Title is an optional display name (sent from 2025-06-18 on).
	Title string
	// Description says what the argument is for.
	Description string
	// Required reports whether prompts/get must give it.
	Required bool
}

// PromptMessage is one message of a prompt: a role ("user" or
// "assistant") and one content block of any type (text, image, audio,
// resource_link, embedded resource). [UserMessage] and [AssistantMessage]
// build a text message.
type PromptMessage struct {
	Role    protocol.Role
	Content protocol.Content
}

// UserMessage returns a user message holding text.
func UserMessage(text string) PromptMessage {
	return PromptMessage{Role: protocol.RoleUser, Content: &protocol.TextContent{Text: text}}
}

// AssistantMessage returns an assistant message holding text.
func AssistantMessage(text string) PromptMessage {
	return PromptMessage{Role: protocol.RoleAssistant, Content: &protocol.TextContent{Text: text}}
}

// PromptResult is what prompts/get answers.
type PromptResult struct {
	// Description optionally describes this rendering of the prompt.
	Description string
	// Messages are the prompt's messages; at least one.
	Messages []PromptMessage
	// Meta is the result's optional _meta object.
	Meta map[string]any
}

// PromptFunc renders a prompt from its arguments, already checked: every
// required argument is present and none is unknown.
type PromptFunc func(ctx context.Context, args map[string]string) (*PromptResult, error)

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
	Arguments []PromptArgument
	// Icons are optional icons (sent from 2025-11-25 on).
	Icons []protocol.Icon
	// Meta is the descriptor's optional _meta object (sent from 2025-06-18
	// on).
	Meta map[string]any
	// Get renders the prompt; required.
	Get PromptFunc
	// Complete holds completion providers by argument name, for clients
	// that help a user fill in the prompt (completion/complete with a
	// ref/prompt naming it), as ResourceTemplate.Complete does for a
	// template's variables. Set it on the value NewPrompt returns.
	Complete map[string]CompleteFunc
	// Scopes are the OAuth scopes a caller must hold, all of them, to see
	// the prompt in prompts/list, get it and complete its arguments. They
	// stay on the server (never in the descriptor). A caller lacking one
	// finds no such prompt, except over HTTP behind package oauth, which
	// answers with 403 insufficient_scope naming them. Nil means every
	// caller may.
	Scopes []string

	// err is what NewPrompt found wrong; registration reports it.
	err error
}

// Err returns the problem [NewPrompt] found (an argument type that is not
// a struct of strings), nil for a good prompt and for a struct literal.
func (p Prompt) Err() error { return p.err }

// PromptOption configures a prompt built by NewPrompt.
type PromptOption func(*Prompt)

// WithTitle sets the prompt's display name.
func WithTitle(title string) PromptOption { return func(p *Prompt) { p.Title = title } }

// WithIcons sets the prompt's icons.
func WithIcons(icons ...protocol.Icon) PromptOption { return func(p *Prompt) { p.Icons = icons } }

// WithMeta sets the prompt descriptor's _meta.
func WithMeta(meta map[string]any) PromptOption { return func(p *Prompt) { p.Meta = meta } }

// WithScopes sets the OAuth scopes a caller needs to see and get the
// prompt (Prompt.Scopes).
func WithScopes(scopes ...string) PromptOption { return func(p *Prompt) { p.Scopes = scopes } }

// errNoMessages is what the server reports (as -32603) for a render
// function that returned a result without messages.
var errNoMessages = errors.New("the prompt rendered no messages")
