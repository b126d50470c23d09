package scenario

import (
	"encoding/json"
	"fmt"
	"sort"
	"strings"
	"sync"
)

// What the client answers when the server asks it something. The Node
// scenario (node/lib/answers.mjs) answers the same.
const (
	// SampledReply is the text the client's sampling handler returns.
	SampledReply = "interop sampled reply"
	// SampledModel is the model the sampling handler says it used.
	SampledModel = "interop-model"
	// RootURI and RootName are the one root the client exposes.
	RootURI  = "file:///interop"
	RootName = "interop"
	// answerName and answerColor are what an accepted form gives fields
	// called name and color (the multi-round tool asks for both).
	answerName  = "Interop"
	answerColor = "teal"
)

// Handlers is what an adapter's sampling, elicitation and roots handlers
// answer with: each handler the adapter registers with its SDK passes the
// request to the method here and returns what it gives, in the SDK's
// types. Handlers counts the calls, so that a check can tell that the
// SDK's own handler answered. Its methods are safe for concurrent use.
type Handlers struct {
	mu    sync.Mutex
	calls map[string][]string // kind ("sampling", "elicitation", "roots") → what each call was asked
}

// Root is one root the client exposes.
type Root struct {
	URI  string
	Name string
}

// Elicit answers an elicitation/create form: it declines when the message
// mentions "decline", and otherwise accepts with a value for every
// property of requestedSchema (the JSON the server sent).
func (h *Handlers) Elicit(message string, requestedSchema json.RawMessage) (action string, content map[string]any) {
	h.record("elicitation", message)
	return ElicitAnswer(message, requestedSchema)
}

// Sample answers sampling/createMessage: the text of an assistant message
// and the model that wrote it. messages is the request's messages as JSON,
// recorded for the report.
func (h *Handlers) Sample(messages json.RawMessage) (text, model string) {
	h.record("sampling", fmt.Sprintf("%.120s", messages))
	return SampledReply, SampledModel
}

// Roots answers roots/list.
func (h *Handlers) Roots() []Root {
	h.record("roots", "")
	return ClientRoots()
}

// ClientRoots are the roots the client exposes, for SDKs that keep the
// roots themselves and answer roots/list with no handler of ours (go-sdk's
// Client.AddRoots).
func ClientRoots() []Root { return []Root{{URI: RootURI, Name: RootName}} }

func (h *Handlers) record(kind, what string) {
	h.mu.Lock()
	defer h.mu.Unlock()
	if h.calls == nil {
		h.calls = map[string][]string{}
	}
	h.calls[kind] = append(h.calls[kind], what)
}

// Calls returns what each call of a kind of handler was asked, in order.
func (h *Handlers) Calls(kind string) []string {
	h.mu.Lock()
	defer h.mu.Unlock()
	return append([]string(nil), h.calls[kind]...)
}

// ElicitAnswer is the answer Handlers.Elicit gives, without recording it.
func ElicitAnswer(message string, requestedSchema json.RawMessage) (action string, content map[string]any) {
	if strings.Contains(strings.ToLower(message), "decline") {
		return "decline", nil
	}
	var schema struct {
		Properties map[string]json.RawMessage `json:"properties"`
	}
	_ = json.Unmarshal(requestedSchema, &schema)
	content = map[string]any{}
	names := make([]string, 0, len(schema.Properties))
	for name := range schema.Properties {
		names = append(names, name)
	}
	sort.Strings(names)
	for _, name := range names {
		content[name] = fieldValue(name, schema.Properties[name])
	}
	return "accept", content
}

// fieldValue is the value an accepted form gives one property: its
// default, its first allowed value, or a plain value of its type.
func fieldValue(name string, raw json.RawMessage) any {
	var p struct {
		Type    string                `json:"type"`
		Format  string                `json:"format"`
		Default any                   `json:"default"`
		Enum    []any                 `json:"enum"`
		OneOf   []struct{ Const any } `json:"oneOf"`
		AnyOf   []struct{ Const any } `json:"anyOf"`
		Minimum *float64              `json:"minimum"`
		Items   struct {
			Enum  []any                 `json:"enum"`
			AnyOf []struct{ Const any } `json:"anyOf"`
		} `json:"items"`
	}
	_ = json.Unmarshal(raw, &p)
	switch {
	case p.Default != nil:
		return p.Default
	case len(p.Enum) > 0:
		return p.Enum[0]
	case len(p.OneOf) > 0:
		return p.OneOf[0].Const
	case len(p.AnyOf) > 0:
		return p.AnyOf[0].Const
	}
	switch p.Type {
	case "number", "integer":
		if p.Minimum != nil && *p.Minimum > 42 {
			return *p.Minimum
		}
		return 42
	case "boolean":
		return true
	case "array":
		switch {
		case len(p.Items.Enum) > 0:
			return []any{p.Items.Enum[0]}
		case len(p.Items.AnyOf) > 0:
			return []any{p.Items.AnyOf[0].Const}
		}
		return []any{}
	}
	switch p.Format {
	case "email":
		return "interop@example.com"
	case "uri":
		return "https://example.com/interop"
	case "date":
		return "2026-07-28"
	case "date-time":
		return "2026-07-28T00:00:00Z"
	}
	switch name {
	case "name":
		return answerName
	case "color":
		return answerColor
	}
	return "interop " + name
}
