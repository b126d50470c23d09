package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
)

// Session is a client SDK connected to the server, seen through the few
// operations the scenario needs. Implementations pass every call straight to
// the SDK's own API.
type Session interface {
	// ProtocolVersion is the version the SDK settled on when it connected.
	ProtocolVersion() string
	// ListToolsPage fetches one page of tools/list at cursor ("" for the first).
	ListToolsPage(ctx context.Context, cursor string) (Page, error)
	// ListAllTools lists every tool with the SDK's own cursor following.
	ListAllTools(ctx context.Context) ([]Tool, error)
	// CallTool calls a tool. When onProgress is not nil the call asks for
	// progress and the SDK's progress notifications for it reach onProgress.
	// Cancelling ctx is how the scenario cancels the call.
	CallTool(ctx context.Context, name string, args map[string]any, onProgress func(Progress)) (*Result, error)
	// ErrorCode extracts the JSON-RPC error code from an error the SDK
	// returned for a request, if the SDK exposes one.
	ErrorCode(err error) (int, bool)
	// Close ends the session the SDK's way, which closes the server's stdin.
	Close() error
}

// Connect connects a client SDK to the server over the given stdio pipes.
type Connect func(ctx context.Context, stdin io.WriteCloser, stdout io.ReadCloser) (Session, error)

// Page is one page of tools/list.
type Page struct {
	Tools      []Tool
	NextCursor string
}

// Tool is what the scenario reads of a listed tool.
type Tool struct {
	Name         string
	OutputSchema json.RawMessage // nil when the tool declares none
}

// Progress is one progress notification, as the SDK delivered it.
type Progress struct {
	Progress float64
	Total    float64
	Message  string
}

// Result is a tools/call result, rebuilt from the SDK's types.
type Result struct {
	Content    []Block
	Structured json.RawMessage // nil when the result has no structuredContent
	IsError    bool
}

// Block is one content block of a Result.
type Block struct {
	Type string
	Text string          // for text blocks
	Raw  json.RawMessage // the block as the SDK encodes it
}

// NewResult builds a Result from an SDK's content blocks (each encoded with
// the SDK's own JSON encoding) and its structured content.
func NewResult[C any](content []C, structured any, isError bool) (*Result, error) {
	r := &Result{IsError: isError}
	for i, c := range content {
		raw, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("encoding content block %d: %w", i, err)
		}
		var b struct {
			Type string `json:"type"`
			Text string `json:"text"`
		}
		if err := json.Unmarshal(raw, &b); err != nil {
			return nil, fmt.Errorf("decoding content block %d: %w", i, err)
		}
		r.Content = append(r.Content, Block{Type: b.Type, Text: b.Text, Raw: raw})
	}
	if structured != nil {
		raw, ok := structured.(json.RawMessage)
		if !ok {
			var err error
			if raw, err = json.Marshal(structured); err != nil {
				return nil, fmt.Errorf("encoding structuredContent: %w", err)
			}
		}
		r.Structured = raw
	}
	return r, nil
}

// Types lists the content block types in order.
func (r *Result) Types() []string {
	types := make([]string, len(r.Content))
	for i, b := range r.Content {
		types[i] = b.Type
	}
	return types
}
