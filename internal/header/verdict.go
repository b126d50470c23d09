package header

import json "github.com/goccy/go-json"

// Verdict is the outcome of one x-mcp-header annotation: where it is, the
// header name it asks for, and the refusal, if any. It never holds an
// argument value: annotations are part of a schema, not of a call.
type Verdict struct {
	// Header is the annotation's value as written (the {Name} of
	// Mcp-Param-{Name}); "" when it is not a JSON string.
	Header string
	// Pointer is the JSON pointer, within the schema, of the schema that
	// carries the annotation ("" for the root).
	Pointer string
	// Err is the refusal; nil when the annotation is admitted.
	Err *Error
}

// Verdicts checks inputSchema like [Annotations] and returns one verdict
// per x-mcp-header annotation it holds, admitted or refused, in schema
// order (object keys sorted; an annotation's own rule is checked before
// those under it). Where [Annotations] stops at "any refusal", Verdicts
// tells each annotation apart, for an audit that lists every header name
// with its verdict. Of two names that differ only in case, the first is
// admitted and the second refused with [ErrDuplicate]. The error is
// non-nil only for a schema that is not JSON ([ErrSchema]).
func Verdicts(inputSchema json.RawMessage, opts ...Option) ([]Verdict, error) {
	w := &walker{cfg: newConfig(opts), seen: map[string]string{}}
	if err := w.walk(inputSchema, "", nil, true); err != nil {
		return nil, err
	}
	return w.all, nil
}

// OutputVerdicts returns one verdict per x-mcp-header annotation in an
// outputSchema, each refused with [ErrOutput], as [CheckOutputSchema]
// finds them. The error is non-nil only for a schema that is not JSON
// ([ErrSchema]).
func OutputVerdicts(outputSchema json.RawMessage) ([]Verdict, error) {
	w := &walker{output: true}
	if err := w.walk(outputSchema, "", nil, false); err != nil {
		return nil, err
	}
	return w.all, nil
}
