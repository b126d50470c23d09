package tool

import (
	"fmt"
	"reflect"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/internal/natural"
)

// Result is what a tool call returns: content blocks, optional structured
// content, and whether the tool failed.
type Result struct {
	// Content is the list of content blocks. Nil is sent as [].
	Content []Content
	// Structured is the optional structured content: any JSON value,
	// either as json.RawMessage or as a Go value, encoded as a typed
	// handler's Out is (see New: a nil slice is [], a nil map {}). A nil
	// interface means "absent"; to send JSON null on purpose, use
	// json.RawMessage("null").
	Structured any
	// IsError marks a failure reported by the tool itself.
	IsError bool
	// Meta is the result's optional _meta object.
	Meta map[string]any
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
// structuredContent (the specification's Tools page, "Structured Content").
// A string value's text block is the string itself, not its JSON literal:
// "Hello, Ada", not "\"Hello, Ada\"". v is encoded as a typed handler's Out
// is (see New), so a nil slice is [] and a nil map {}; a json.RawMessage
// is sent as it is.
func StructuredResult(v any) (*Result, error) {
	switch v := v.(type) {
	case json.RawMessage:
		return structuredResult(v), nil
	case nil:
		return structuredResult(json.RawMessage("null")), nil
	}
	rv := reflect.ValueOf(v)
	return encodeStructured(natural.For(rv.Type()), rv)
}

// structuredResult returns a result carrying raw as structured content
// and as text (a JSON string as the text it holds), in one allocation for
// the result, its block and the list.
func structuredResult(raw json.RawMessage) *Result {
	b := &struct {
		r Result
		t Text
		c [1]Content
	}{t: Text{Text: resultText(raw)}}
	b.c[0] = &b.t
	b.r.Content = b.c[:]
	b.r.Structured = raw
	return &b.r
}

// resultText is the text block of a structured value: the string itself
// for a JSON string, else the JSON text.
func resultText(raw json.RawMessage) string {
	if jsonx.FirstByte(raw) == '"' {
		var s string
		if json.Unmarshal(raw, &s) == nil {
			return s
		}
	}
	return string(raw)
}

// encodeStructured encodes v with enc into a structured result.
func encodeStructured(enc *natural.Encoder, v reflect.Value) (*Result, error) {
	raw, err := enc.Encode(v)
	if err != nil {
		return nil, err
	}
	return structuredResult(raw), nil
}

// MetaResult returns a result with no content block that carries only
// _meta, such as a reply to a permission probe. A result of that shape (no
// content, no structured content, a non-nil Meta) is exempt from the
// tool's output schema: it is accepted without structured content.
func MetaResult(meta map[string]any) *Result {
	if meta == nil {
		meta = map[string]any{}
	}
	return &Result{Content: []Content{}, Meta: meta}
}
