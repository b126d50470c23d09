package tool

import (
	"context"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Handler runs one call of a tool. args is the "arguments" object of the
// call ("{}" when the client sent none), already validated against the
// input schema, with its defaults filled in. The handler must not modify
// args: it may be shared between calls.
type Handler func(ctx context.Context, args json.RawMessage) (*Result, error)

// Tool is one tool: its descriptor and its handler, a plain value.
//
// Build one with [New] for a typed handler, or as a struct literal with a
// raw [Handler]. The server checks it and compiles its schemas when it is
// registered (mcp.Server.AddTool), and keeps its own copy: changing a Tool
// afterwards changes nothing that was registered.
type Tool struct {
	// Name identifies the tool; it must match ^[A-Za-z0-9_.-]{1,128}$.
	Name string
	// Title is an optional display name (sent from 2025-06-18 on).
	Title string
	// Description tells a model what the tool does.
	Description string
	// InputSchema is the JSON Schema of the arguments; its root must be
	// {"type":"object"}. Nil means {"type":"object"}. The dialect is
	// 2020-12 unless "$schema" names another.
	InputSchema json.RawMessage
	// OutputSchema is the optional JSON Schema of structuredContent: any
	// JSON Schema, such as {"type":"array"}. A tool with an output schema
	// must return conforming structured content from every successful
	// call.
	OutputSchema json.RawMessage
	// Annotations are optional behaviour hints (sent from 2025-03-26 on).
	Annotations *Annotations
	// Icons are optional icons (sent from 2025-11-25 on).
	Icons []Icon
	// Meta is the descriptor's optional _meta object.
	Meta map[string]any
	// SensitiveHeaderNames replaces the list of names an x-mcp-header
	// annotation of the input schema may not mirror into an Mcp-Param
	// header, in its property name or its header name (the security
	// considerations of the Streamable HTTP transport: secrets stay out of
	// headers). Nil keeps the built-in list: password, passwd, secret,
	// token, api_key, apikey, authorization, auth, cookie, credential,
	// credentials, private_key and session. An empty, non-nil list turns
	// the check off. Matching ignores case, '-' and '_', and also matches
	// a run of words inside a name, so "access_token", "X-Auth-Token" and
	// "apiKey" match while "author" does not.
	SensitiveHeaderNames []string
	// Scopes are the OAuth scopes a caller must hold, all of them, to see
	// the tool in tools/list and to call it (see auth.Principal). They stay
	// on the server: no client sees them in the descriptor. A caller
	// lacking one finds no such tool, except over HTTP behind package
	// oauth, which answers its call with 403 insufficient_scope naming
	// them. Nil means every caller may.
	Scopes []string
	// Handler runs a call.
	Handler Handler

	// err is what New found wrong; registration reports it.
	err error
}

// Err returns the problem [New] found in the tool it built (an argument
// type no call could fill, a schema that could not be inferred), nil for
// a good tool and for a struct literal. Registering a tool reports it
// too, so a server needs no separate check.
func (t Tool) Err() error { return t.err }

// Annotations are hints about a tool's behaviour (the wire type of package
// protocol). They are untrusted unless the client trusts the server. The
// options ReadOnly, Destructive, Idempotent and OpenWorld set the hints
// one by one; in a literal, new(true) or new(false) fills a hint field.
type Annotations = protocol.ToolAnnotations

// Icon is an icon for display (the wire type of package protocol): Src is
// an https: or data: URI; MimeType, Sizes ("48x48", "any") and Theme
// ("light" or "dark") are optional.
type Icon = protocol.Icon
