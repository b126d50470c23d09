package tool

import (
	json "github.com/goccy/go-json"
)

// Option configures a tool built by New.
type Option func(*config)

type config struct {
	title       string
	annotations *Annotations
	icons       []Icon
	meta        map[string]any
	input       json.RawMessage
	output      json.RawMessage
	relaxed     bool
	sensitive   []string
	scopes      []string
}

// WithTitle sets the tool's display name (sent from 2025-06-18 on).
func WithTitle(title string) Option {
	return func(c *config) { c.title = title }
}

// WithAnnotations sets the tool's behaviour hints (sent from 2025-03-26 on).
// ReadOnly, Destructive, Idempotent and OpenWorld set one hint each
// without a struct; a hint option given before WithAnnotations is
// replaced by it.
func WithAnnotations(a *Annotations) Option {
	return func(c *config) { c.annotations = a }
}

// ReadOnly sets the readOnlyHint of the tool's annotations (Tools, Tool
// annotations: default false) to b, sent as given, false included: a hint
// no option sets stays absent, so the client assumes its default. ReadOnly,
// Destructive, Idempotent and OpenWorld each set one hint, on a copy of
// the annotations WithAnnotations gave, whatever their order.
func ReadOnly(b bool) Option { return hint(func(a *Annotations) { a.ReadOnlyHint = &b }) }

// Destructive sets the destructiveHint (default true; meaningful only when
// the tool is not read-only) to b, sent as given (see ReadOnly).
func Destructive(b bool) Option { return hint(func(a *Annotations) { a.DestructiveHint = &b }) }

// Idempotent sets the idempotentHint (default false; meaningful only when
// the tool is not read-only) to b, sent as given (see ReadOnly).
func Idempotent(b bool) Option { return hint(func(a *Annotations) { a.IdempotentHint = &b }) }

// OpenWorld sets the openWorldHint (default true) to b, sent as given (see
// ReadOnly).
func OpenWorld(b bool) Option { return hint(func(a *Annotations) { a.OpenWorldHint = &b }) }

// hint returns an option that sets one hint on a copy of the annotations
// configured so far, so that annotations shared between tools through
// WithAnnotations are never written to.
func hint(set func(*Annotations)) Option {
	return func(c *config) {
		var a Annotations
		if c.annotations != nil {
			a = *c.annotations
		}
		set(&a)
		c.annotations = &a
	}
}

// WithIcons sets the tool's icons (sent from 2025-11-25 on).
func WithIcons(icons ...Icon) Option {
	return func(c *config) { c.icons = icons }
}

// WithMeta sets the descriptor's _meta object.
func WithMeta(meta map[string]any) Option {
	return func(c *config) { c.meta = meta }
}

// WithInputSchema gives the input schema as JSON instead of inferring it
// from In. It must still have an object root, and the arguments it admits
// must decode into In; keys are matched to In's members exactly, and one
// that matches only when case is ignored is refused (see New).
func WithInputSchema(raw json.RawMessage) Option {
	return func(c *config) { c.input = raw }
}

// WithOutputSchema gives the output schema as JSON instead of inferring it
// from Out. With Out = *Result it adds an output schema that the returned
// results' structured content is checked against.
func WithOutputSchema(raw json.RawMessage) Option {
	return func(c *config) { c.output = raw }
}

// AllowAdditionalProperties relaxes inference: inferred object schemas
// accept properties they do not list (no "additionalProperties": false),
// which the handler never sees. By default inference is strict, so a
// misspelt argument is reported to the model instead of being silently
// ignored.
//
// Even relaxed, a key that names a member only when case is ignored, such
// as "Text" for a member "text", is refused as an unknown property, never
// decoded into the member the way Go's JSON decoding would (see New).
func AllowAdditionalProperties() Option {
	return func(c *config) { c.relaxed = true }
}

// WithSensitiveHeaderNames replaces the list of names that are never
// mirrored into Mcp-Param headers (Tool.SensitiveHeaderNames). Called with
// no names, it disables the check.
func WithSensitiveHeaderNames(names ...string) Option {
	return func(c *config) { c.sensitive = append([]string{}, names...) }
}

// WithScopes sets the OAuth scopes a caller needs to see and call the tool
// (Tool.Scopes).
func WithScopes(scopes ...string) Option {
	return func(c *config) { c.scopes = scopes }
}
