package tool

import (
	"context"
	"fmt"
	"regexp"

	json "github.com/goccy/go-json"
)

// Handler runs one call of a tool. args is the raw "arguments" object of the
// call ("{}" when the client sent none).
type Handler func(ctx context.Context, args json.RawMessage) (*Result, error)

// Tool is one tool: its descriptor and its handler.
type Tool struct {
	// Name identifies the tool; it must match ^[A-Za-z0-9_.-]{1,128}$.
	Name string
	// Title is an optional display name (sent from 2025-06-18 on).
	Title string
	// Description tells a model what the tool does.
	Description string
	// InputSchema is the JSON Schema of the arguments; its root must be
	// {"type":"object"}. Nil means {"type":"object"}.
	InputSchema json.RawMessage
	// OutputSchema is the optional JSON Schema of structuredContent.
	OutputSchema json.RawMessage
	// Annotations are optional behaviour hints (sent from 2025-03-26 on).
	Annotations *Annotations
	// Icons are optional icons (sent from 2025-11-25 on).
	Icons []Icon
	// Meta is the descriptor's optional _meta object.
	Meta map[string]any
	// Handler runs a call.
	Handler Handler
}

// Annotations are hints about a tool's behaviour. They are untrusted unless
// the client trusts the server.
type Annotations struct {
	Title           string `json:"title,omitempty"`
	ReadOnlyHint    *bool  `json:"readOnlyHint,omitempty"`
	DestructiveHint *bool  `json:"destructiveHint,omitempty"`
	IdempotentHint  *bool  `json:"idempotentHint,omitempty"`
	OpenWorldHint   *bool  `json:"openWorldHint,omitempty"`
}

// Icon is an icon for display.
type Icon struct {
	Src      string   `json:"src"`
	MimeType string   `json:"mimeType,omitempty"`
	Sizes    []string `json:"sizes,omitempty"`
	Theme    string   `json:"theme,omitempty"`
}

// Bool returns a pointer to b, for the hint fields of Annotations.
func Bool(b bool) *bool { return &b }

var nameRE = regexp.MustCompile(`^[A-Za-z0-9_.-]{1,128}$`)

// CheckName reports whether name is a valid tool name.
func CheckName(name string) error {
	if !nameRE.MatchString(name) {
		return fmt.Errorf("tool name %q is invalid: it must match ^[A-Za-z0-9_.-]{1,128}$", name)
	}
	return nil
}

// Validate checks the descriptor for problems that must stop registration.
func (t *Tool) Validate() error {
	if err := CheckName(t.Name); err != nil {
		return err
	}
	if t.Handler == nil {
		return fmt.Errorf("tool %q has no handler", t.Name)
	}
	if t.InputSchema != nil {
		var root struct {
			Type any `json:"type"`
		}
		if err := json.Unmarshal(t.InputSchema, &root); err != nil {
			return fmt.Errorf("tool %q: input schema is not a JSON object: %v", t.Name, err)
		}
		if root.Type != "object" {
			return fmt.Errorf(`tool %q: input schema root must have "type": "object"`, t.Name)
		}
	}
	return nil
}
