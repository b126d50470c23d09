package header

import (
	"errors"
	"fmt"
)

// Rule sentinels. Every error returned by [CheckInputSchema],
// [CheckOutputSchema] and [Annotations] wraps exactly one of them.
var (
	// ErrSchema reports a schema that is not valid JSON.
	ErrSchema = errors.New("schema is not valid JSON")
	// ErrName reports a header name that is not a non-empty RFC 9110 token
	// held in a JSON string.
	ErrName = errors.New("header name must be a non-empty RFC 9110 token")
	// ErrDuplicate reports a header name used twice in one input schema,
	// compared case-insensitively.
	ErrDuplicate = errors.New("header names must be unique (case-insensitive)")
	// ErrType reports an annotated property whose type is not exactly one
	// of "string", "integer" or "boolean".
	ErrType = errors.New(`annotated property must have "type" "string", "integer" or "boolean"`)
	// ErrLocation reports an annotation not reached from the root through
	// a chain of "properties" keywords.
	ErrLocation = errors.New(`annotation must be on a property reached from the root through "properties" only`)
	// ErrSensitive reports a property or header name that looks like a
	// secret; such values are never mirrored into headers.
	ErrSensitive = errors.New("sensitive parameters must not be mirrored into headers")
	// ErrOutput reports an x-mcp-header annotation in an output schema.
	ErrOutput = errors.New("x-mcp-header is not allowed in an output schema")
)

// Error is one refused x-mcp-header annotation.
type Error struct {
	// Rule is the broken rule: one of the Err* sentinels of this package.
	Rule error
	// Pointer is the JSON pointer, within the schema, of the schema that
	// carries the annotation ("" for the root).
	Pointer string
	// Header is the annotation's value as written, when it is a string.
	Header string
	// Detail is an optional explanation.
	Detail string
}

// Error describes the refusal: pointer, rule, and detail.
func (e *Error) Error() string {
	where := e.Pointer
	if where == "" {
		where = "(root)"
	}
	msg := fmt.Sprintf("x-mcp-header at %s: %v", where, e.Rule)
	if e.Header != "" {
		msg += fmt.Sprintf(" (header %q)", e.Header)
	}
	if e.Detail != "" {
		msg += ": " + e.Detail
	}
	return msg
}

// Unwrap returns the rule sentinel, so errors.Is(err, ErrType) works.
func (e *Error) Unwrap() error { return e.Rule }

// Rule identifiers, stable kebab-case names of the rules for reports that
// programs read (the contract reviewer's findings); [Error.ID] returns
// them.
const (
	IDToken     = "header-token"     // ErrName
	IDDuplicate = "header-duplicate" // ErrDuplicate
	IDType      = "header-type"      // ErrType
	IDPlacement = "header-placement" // ErrLocation and ErrOutput
	IDSensitive = "header-sensitive" // ErrSensitive
	IDSchema    = "header-schema"    // ErrSchema
)

// ID returns the stable identifier of the rule e breaks: one of the ID*
// constants. ErrLocation and ErrOutput share [IDPlacement]: both say the
// annotation is somewhere it may not be. A Rule that is not one of this
// package's sentinels gives "".
func (e *Error) ID() string {
	switch e.Rule {
	case ErrName:
		return IDToken
	case ErrDuplicate:
		return IDDuplicate
	case ErrType:
		return IDType
	case ErrLocation, ErrOutput:
		return IDPlacement
	case ErrSensitive:
		return IDSensitive
	case ErrSchema:
		return IDSchema
	}
	return ""
}
