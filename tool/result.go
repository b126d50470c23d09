package tool

import (
	"fmt"

	json "github.com/goccy/go-json"
)

// Result is what a tool call returns: content blocks, optional structured
// content, and whether the tool failed.
type Result struct {
	// Content is the list of content blocks. Nil is sent as [].
	Content []Content
	// Structured is the optional structured content: any JSON value,
	// either as json.RawMessage or as a Go value to marshal. A nil
	// interface means "absent"; to send JSON null on purpose, use
	// json.RawMessage("null").
	Structured any
	// IsError marks a failure reported by the tool itself.
	IsError bool
	// Meta is the result's optional _meta object.
	Meta map[string]any

	// metaOnly marks a MetaResult, which is exempt from the output schema.
	metaOnly bool
}

// TextResult returns a result with one text block.
func TextResult(text string) *Result {
	// One allocation for the result, its block and the one-element list.
	b := &struct {
		r Result
		t Text
		c [1]Content
	}{t: Text{Text: text}}
	b.c[0] = &b.t
	b.r.Content = b.c[:]
	return &b.r
}

// ErrorResult returns an isError result with one text block, formatted.
func ErrorResult(format string, args ...any) *Result {
	return &Result{Content: []Content{&Text{Text: fmt.Sprintf(format, args...)}}, IsError: true}
}

// StructuredResult returns a result whose structured content is v, with its
// JSON serialization also in a text block for clients that ignore
// structuredContent.
func StructuredResult(v any) (*Result, error) {
	b, err := marshalStructured(v)
	if err != nil {
		return nil, err
	}
	return &Result{Content: []Content{&Text{Text: string(b)}}, Structured: json.RawMessage(b)}, nil
}

// MetaResult returns a result with no content block that carries only
// _meta, such as a reply to a permission probe. It is exempt from the
// tool's output schema: CheckResult accepts it without structured content.
func MetaResult(meta map[string]any) *Result {
	return &Result{Content: []Content{}, Meta: meta, metaOnly: true}
}

// marshalStructured encodes structured content compactly, without HTML
// escaping, so the text block a model reads stays legible.
func marshalStructured(v any) (json.RawMessage, error) {
	if raw, ok := v.(json.RawMessage); ok {
		return raw, nil
	}
	b, err := json.MarshalWithOption(v, json.DisableHTMLEscape())
	if err != nil {
		return nil, fmt.Errorf("encoding structured content: %w", err)
	}
	return b, nil
}
