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
	// either as json.RawMessage or as a Go value to marshal.
	Structured any
	// IsError marks a failure reported by the tool itself.
	IsError bool
	// Meta is the result's optional _meta object.
	Meta map[string]any
}

// TextResult returns a result with one text block.
func TextResult(text string) *Result {
	return &Result{Content: []Content{&Text{Text: text}}}
}

// ErrorResult returns an isError result with one text block, formatted.
func ErrorResult(format string, args ...any) *Result {
	return &Result{Content: []Content{&Text{Text: fmt.Sprintf(format, args...)}}, IsError: true}
}

// StructuredResult returns a result whose structured content is v, with its
// JSON serialization also in a text block for clients that ignore
// structuredContent.
func StructuredResult(v any) (*Result, error) {
	b, err := json.Marshal(v)
	if err != nil {
		return nil, fmt.Errorf("structured result: %w", err)
	}
	return &Result{Content: []Content{&Text{Text: string(b)}}, Structured: json.RawMessage(b)}, nil
}
