package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"io"
	"net/http"
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
	// ListPage fetches one page of a list other than tools/list at cursor
	// ("" for the first).
	ListPage(ctx context.Context, kind Kind, cursor string) (ItemPage, error)
	// ListAll lists every item of a kind with the SDK's own cursor following.
	ListAll(ctx context.Context, kind Kind) ([]Item, error)
	// ReadResource reads a resource by URI.
	ReadResource(ctx context.Context, uri string) ([]Contents, error)
	// GetPrompt gets a prompt rendered with args (nil for none).
	GetPrompt(ctx context.Context, name string, args map[string]string) ([]Message, error)
	// Complete asks completion/complete for the values of a prompt's
	// argument, given what has been typed so far.
	Complete(ctx context.Context, prompt, argument, value string) (*Completion, error)
	// Subscribe follows a resource the SDK's way for the era it negotiated:
	// resources/subscribe in the legacy era, a subscriptions/listen stream
	// whose filter names the resource in the modern one. Each
	// notifications/resources/updated the SDK delivers for uri, before or
	// after unsubscribing, calls onUpdated. The returned function
	// unsubscribes the SDK's way (resources/unsubscribe, or ending the
	// listen stream).
	Subscribe(ctx context.Context, uri string, onUpdated func()) (unsubscribe func(context.Context) error, err error)
	// ErrorCode extracts the JSON-RPC error code from an error the SDK
	// returned for a request, if the SDK exposes one.
	ErrorCode(err error) (int, bool)
	// Close ends the session the SDK's way, which closes the server's stdin
	// (over HTTP, ends a legacy session with DELETE, if the SDK does).
	Close() error
}

// Connect connects a client SDK to the server over link: the SDK's stdio
// transport on link's pipes, or, when link.URL is set, its Streamable HTTP
// client transport on that endpoint, with link.HTTPClient. It registers the
// SDK's sampling, elicitation and roots handlers (and so declares those
// client capabilities), each answering with h.
type Connect func(ctx context.Context, link Link, h *Handlers) (Session, error)

// Link is how an adapter reaches the server under test.
type Link struct {
	// Stdin and Stdout are the server's stdio, for a stdio run.
	Stdin  io.WriteCloser
	Stdout io.ReadCloser
	// URL is the server's MCP endpoint, for a Streamable HTTP run; "" over
	// stdio.
	URL string
	// HTTPClient is the client the SDK must send every HTTP request with:
	// its transport records the exchanges and their messages.
	HTTPClient *http.Client
}

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

// Kind names a paginated list other than tools/list by its method.
type Kind string

// The lists ListPage and ListAll know.
const (
	Resources         Kind = "resources/list"
	ResourceTemplates Kind = "resources/templates/list"
	Prompts           Kind = "prompts/list"
)

// ItemPage is one page of a list.
type ItemPage struct {
	Items      []Item
	NextCursor string
}

// Item is one listed resource, resource template or prompt.
type Item struct {
	// Key identifies the item: a resource's uri, a template's uriTemplate,
	// a prompt's name.
	Key string
	Raw json.RawMessage // the item as the SDK encodes it
}

// ItemsOf converts an SDK's listed items, each encoded with the SDK's own
// JSON encoding, keyed by key. It returns nil for no items.
func ItemsOf[T any](items []T, key func(T) string) ([]Item, error) {
	var out []Item
	for i, it := range items {
		raw, err := json.Marshal(it)
		if err != nil {
			return nil, fmt.Errorf("encoding item %d: %w", i, err)
		}
		out = append(out, Item{Key: key(it), Raw: raw})
	}
	return out, nil
}

// Contents is one entry of a resources/read result's contents.
type Contents struct {
	URI      string
	MimeType string
	Text     *string // nil when the entry has no text
	Blob     *string // base64, as on the wire; nil when the entry has no blob
	Raw      json.RawMessage
}

// ContentsOf rebuilds a resources/read result's contents from an SDK's
// types, each encoded with the SDK's own JSON encoding.
func ContentsOf[C any](contents []C) ([]Contents, error) {
	out := []Contents{}
	for i, c := range contents {
		raw, err := json.Marshal(c)
		if err != nil {
			return nil, fmt.Errorf("encoding contents %d: %w", i, err)
		}
		var e struct {
			URI      string  `json:"uri"`
			MimeType string  `json:"mimeType"`
			Text     *string `json:"text"`
			Blob     *string `json:"blob"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("decoding contents %d: %w", i, err)
		}
		out = append(out, Contents{URI: e.URI, MimeType: e.MimeType, Text: e.Text, Blob: e.Blob, Raw: raw})
	}
	return out, nil
}

// Message is one message of a prompts/get result.
type Message struct {
	Role string
	Type string // the content block's type
	Text string // for text content
	Raw  json.RawMessage
}

// MessagesOf rebuilds a prompts/get result's messages from an SDK's types,
// each encoded with the SDK's own JSON encoding.
func MessagesOf[M any](messages []M) ([]Message, error) {
	out := []Message{}
	for i, m := range messages {
		raw, err := json.Marshal(m)
		if err != nil {
			return nil, fmt.Errorf("encoding message %d: %w", i, err)
		}
		var e struct {
			Role    string `json:"role"`
			Content struct {
				Type string `json:"type"`
				Text string `json:"text"`
			} `json:"content"`
		}
		if err := json.Unmarshal(raw, &e); err != nil {
			return nil, fmt.Errorf("decoding message %d: %w", i, err)
		}
		out = append(out, Message{Role: e.Role, Type: e.Content.Type, Text: e.Content.Text, Raw: raw})
	}
	return out, nil
}

// Completion is a completion/complete result.
type Completion struct {
	Values  []string
	Total   int
	HasMore bool
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
