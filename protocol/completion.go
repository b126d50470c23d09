package protocol

// Completion reference "type" values.
const (
	TypeRefPrompt   = "ref/prompt"
	TypeRefResource = "ref/resource"
)

// CompleteRequestParams are the params of completion/complete.
type CompleteRequestParams struct {
	// Meta carries the per-request metadata; required.
	Meta RequestMeta `json:"_meta"`
	// Ref is the prompt or resource template being completed; required.
	Ref CompletionReference `json:"ref"`
	// Argument is the argument being completed; required.
	Argument CompleteArgument `json:"argument"`
	// Context holds what is already known.
	Context *CompleteContext `json:"context,omitempty"`
}

// CompleteArgument is the argument being completed and what has been
// typed so far.
type CompleteArgument struct {
	// Name is the argument's name; required.
	Name string `json:"name"`
	// Value is the partial value; required.
	Value string `json:"value"`
}

// CompleteContext is the context of a completion.
type CompleteContext struct {
	// Arguments are values already resolved for other arguments.
	Arguments map[string]string `json:"arguments,omitzero"`
}

// CompletionReference is what a completion is for: exactly one of its
// fields is set. Decoding picks the variant by "type"; any other type is
// an error.
type CompletionReference struct {
	Prompt   *PromptReference           // "ref/prompt"
	Resource *ResourceTemplateReference // "ref/resource"
}

// completionReferences is CompletionReference's union.
var completionReferences = union[CompletionReference]{
	tag:  "completion reference type",
	pick: tagged("type"),
	cases: []unionCase[CompletionReference]{
		variant(TypeRefPrompt, func(r *CompletionReference) **PromptReference { return &r.Prompt }),
		variant(TypeRefResource, func(r *CompletionReference) **ResourceTemplateReference { return &r.Resource }),
	},
}

// MarshalJSON encodes the one variant that is set.
func (r CompletionReference) MarshalJSON() ([]byte, error) {
	return marshalVariant("completion reference", r.Prompt, r.Resource)
}

// UnmarshalJSON decodes a reference into the variant its "type" names.
func (r *CompletionReference) UnmarshalJSON(data []byte) error {
	return completionReferences.unmarshal(data, r)
}

// PromptReference names a prompt. It encodes with "type": "ref/prompt".
type PromptReference struct {
	// Type is TypeRefPrompt, written and checked by the codec; it needs no
	// setting.
	Type tag[refPromptType] `json:"type"`
	// Name is the prompt's name; required.
	Name string `json:"name"`
	// Title is the prompt's display name.
	Title string `json:"title,omitempty"`
}

// ResourceTemplateReference names a resource or resource template. It
// encodes with "type": "ref/resource".
type ResourceTemplateReference struct {
	// Type is TypeRefResource, written and checked by the codec; it needs no
	// setting.
	Type tag[refResourceType] `json:"type"`
	// URI is the URI or URI template; required.
	URI string `json:"uri"`
}

// CompleteResult answers completion/complete.
type CompleteResult struct {
	// Envelope holds resultType and _meta.
	Envelope
	// Completion holds the suggestions; required.
	Completion Completion `json:"completion"`
}

// Completion is a list of suggested values.
type Completion struct {
	// Values are the suggestions, at most 100; required.
	Values List[string] `json:"values"`
	// Total is the number of suggestions available, if known.
	Total *int64 `json:"total,omitempty"`
	// HasMore reports that there are more suggestions than Values.
	HasMore *bool `json:"hasMore,omitempty"`
}
