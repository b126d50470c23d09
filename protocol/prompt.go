package protocol

// Prompt describes a prompt template, as prompts/list lists it.
type Prompt struct {
	// Name identifies the prompt; required.
	Name string `json:"name"`
	// Title is the display name.
	Title string `json:"title,omitempty"`
	// Description says what the prompt does.
	Description string `json:"description,omitempty"`
	// Arguments are the arguments the prompt accepts.
	Arguments []PromptArgument `json:"arguments,omitzero"`
	// Icons are sized icons a client may display.
	Icons []Icon `json:"icons,omitzero"`
	// Meta is the prompt's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// PromptArgument describes one argument of a prompt.
type PromptArgument struct {
	// Name identifies the argument; required.
	Name string `json:"name"`
	// Title is the display name.
	Title string `json:"title,omitempty"`
	// Description says what the argument is for.
	Description string `json:"description,omitempty"`
	// Required reports whether the argument must be given.
	Required *bool `json:"required,omitempty"`
}

// PromptMessage is one message of a prompt's result.
type PromptMessage struct {
	// Role is who speaks the message; required.
	Role Role `json:"role"`
	// Content is the message's block; required.
	Content ContentBlock `json:"content"`
}
