package schema

// Option configures schema inference ([For], [FromType]).
type Option func(*options)

type options struct {
	allowAdditional bool
	schemaURI       bool
}

// AllowAdditional makes inferred object schemas accept properties they do
// not list: the "additionalProperties": false member is left out. By default
// inference is strict.
func AllowAdditional() Option {
	return func(o *options) { o.allowAdditional = true }
}

// WithSchemaURI adds "$schema": "https://json-schema.org/draft/2020-12/schema"
// to the root of the inferred schema. By default it is left out: 2020-12 is
// the MCP default dialect.
func WithSchemaURI() Option {
	return func(o *options) { o.schemaURI = true }
}

// Draft202012 is the URI of the JSON Schema 2020-12 dialect.
const Draft202012 = "https://json-schema.org/draft/2020-12/schema"
