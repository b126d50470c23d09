package tool

import (
	"errors"
	"fmt"
	"reflect"

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
// structuredContent. v is encoded as a typed handler's Out is (see New),
// so a nil slice is [] and a nil map {}; a json.RawMessage is sent as it
// is. (A Go value set as Result.Structured directly is encoded by
// CheckResult as encoding/json encodes it: a nil slice is null there.)
func StructuredResult(v any) (*Result, error) {
	switch v := v.(type) {
	case json.RawMessage:
		return structuredResult(v), nil
	case nil:
		return structuredResult(json.RawMessage("null")), nil
	}
	rv := reflect.ValueOf(v)
	return encodeStructured(encoderFor(rv.Type()), rv)
}

// structuredResult returns a result carrying raw as structured content
// and as text, in one allocation for the result, its block and the list.
func structuredResult(raw json.RawMessage) *Result {
	b := &struct {
		r Result
		t Text
		c [1]Content
	}{t: Text{Text: string(raw)}}
	b.c[0] = &b.t
	b.r.Content = b.c[:]
	b.r.Structured = raw
	return &b.r
}

// encodeStructured encodes v with enc into a structured result.
func encodeStructured(enc *encoder, v reflect.Value) (*Result, error) {
	raw, err := enc.encode(v)
	if err != nil {
		return nil, err
	}
	return structuredResult(raw), nil
}

// unencodable is the structured content of a typed handler whose Out has
// no JSON form: CheckResult reports err.
type unencodable struct{ err error }

// MetaResult returns a result with no content block that carries only
// _meta, such as a reply to a permission probe. It is exempt from the
// tool's output schema: CheckResult accepts it without structured content.
func MetaResult(meta map[string]any) *Result {
	return &Result{Content: []Content{}, Meta: meta, metaOnly: true}
}

// marshalStructured encodes structured content compactly, without HTML
// escaping, so the text block a model reads stays legible. Its error,
// which a contract-violation result carries, names the value that failed
// by its JSON pointer, never by its Go type.
func marshalStructured(v any) (json.RawMessage, error) {
	switch v := v.(type) {
	case json.RawMessage:
		return v, nil
	case unencodable:
		return nil, v.err
	}
	b, err := json.MarshalWithOption(v, json.DisableHTMLEscape())
	if err != nil {
		// The wire encoder finds the same value and says why in JSON terms.
		if _, werr := encoderFor(reflect.TypeOf(v)).encode(reflect.ValueOf(v)); werr != nil {
			return nil, werr
		}
		return nil, errors.New("encoding structured content: the value cannot be encoded as JSON")
	}
	return b, nil
}
