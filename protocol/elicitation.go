package protocol

import json "github.com/goccy/go-json"

// Elicitation modes.
const (
	ElicitModeForm = "form"
	ElicitModeURL  = "url"
)

// ElicitRequestParams are the params of an elicitation: exactly one of its
// fields is set. Decoding picks URL when "mode" is "url" and Form when it
// is "form" or absent; any other mode is an error.
type ElicitRequestParams struct {
	Form *ElicitRequestFormParams // a form to fill in
	URL  *ElicitRequestURLParams  // a URL to visit
}

// elicitParams is ElicitRequestParams' union; an absent mode is a form.
var elicitParams = union[ElicitRequestParams]{
	tag:  "elicitation mode",
	pick: tagged("mode"),
	cases: []unionCase[ElicitRequestParams]{
		variant("", func(p *ElicitRequestParams) **ElicitRequestFormParams { return &p.Form }),
		variant(ElicitModeForm, func(p *ElicitRequestParams) **ElicitRequestFormParams { return &p.Form }),
		variant(ElicitModeURL, func(p *ElicitRequestParams) **ElicitRequestURLParams { return &p.URL }),
	},
}

// MarshalJSON encodes the one variant that is set.
func (p ElicitRequestParams) MarshalJSON() ([]byte, error) {
	return marshalVariant("elicitation params", p.Form, p.URL)
}

// UnmarshalJSON decodes params into the variant their "mode" names.
func (p *ElicitRequestParams) UnmarshalJSON(data []byte) error {
	return elicitParams.unmarshal(data, p)
}

// ElicitRequestFormParams ask the user to fill in a form in the client.
type ElicitRequestFormParams struct {
	// Mode is "form" or empty: form is the default mode, and the member
	// is sent only when set.
	Mode string `json:"mode,omitempty"`
	// Message is shown to the user; required.
	Message string `json:"message"`
	// RequestedSchema describes the form; required.
	RequestedSchema RequestedSchema `json:"requestedSchema"`
}

// UnmarshalJSON decodes form params, whose mode is "form" or absent.
func (p *ElicitRequestFormParams) UnmarshalJSON(data []byte) error {
	type plain ElicitRequestFormParams
	if err := json.Unmarshal(data, (*plain)(p)); err != nil {
		return err
	}
	if p.Mode != "" && p.Mode != ElicitModeForm {
		return errorf("mode is %q, want %q or none", p.Mode, ElicitModeForm)
	}
	return nil
}

// ElicitRequestURLParams ask the user to visit a URL out of band, for
// information that must not pass through the client. It encodes with
// "mode": "url".
type ElicitRequestURLParams struct {
	// Mode is "url", written and checked by the codec; it needs no
	// setting.
	Mode tag[urlMode] `json:"mode"`
	// Message explains why the user should visit URL; required.
	Message string `json:"message"`
	// URL is the page to visit; required.
	URL string `json:"url"`
	// ElicitationID identifies the elicitation, for the legacy
	// notifications/elicitation/complete and -32042 error; required in
	// 2025-11-25, absent from 2026-07-28.
	ElicitationID string `json:"elicitationId,omitempty"`
}

// RequestedSchema is the restricted JSON Schema of an elicitation form: a
// flat object of primitive properties. It encodes with "type": "object".
type RequestedSchema struct {
	// Schema is the $schema dialect URI, if given.
	Schema string `json:"$schema,omitempty"`
	// Properties are the form's fields; required (nil is sent as {}).
	Properties map[string]PrimitiveSchemaDefinition `json:"properties"`
	// Required lists the fields that must be filled in.
	Required []string `json:"required,omitzero"`
}

// MarshalJSON encodes the schema with "type": "object".
func (s RequestedSchema) MarshalJSON() ([]byte, error) {
	type plain RequestedSchema
	if s.Properties == nil {
		s.Properties = map[string]PrimitiveSchemaDefinition{}
	}
	return marshalTagged("type", "object", plain(s))
}

// UnmarshalJSON decodes a schema whose type is "object".
func (s *RequestedSchema) UnmarshalJSON(data []byte) error {
	type plain RequestedSchema
	return unmarshalTagged(data, "type", "object", (*plain)(s))
}

// ElicitResult is the client's answer to an elicitation, sent back in
// [InputResponses]. It has no resultType.
type ElicitResult struct {
	// Action is what the user did; required.
	Action ElicitAction `json:"action"`
	// Content is the submitted form, when Action is accept in form mode:
	// field names to strings, integers, booleans or arrays of strings.
	Content Object `json:"content,omitzero"`
}
