package protocol

import (
	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// CreateMessageRequestParams are the params of a sampling request.
type CreateMessageRequestParams struct {
	// Messages is the conversation to continue; required.
	Messages List[SamplingMessage] `json:"messages"`
	// ModelPreferences guide the client's choice of model.
	ModelPreferences *ModelPreferences `json:"modelPreferences,omitempty"`
	// SystemPrompt is a system prompt the client may use.
	SystemPrompt string `json:"systemPrompt,omitempty"`
	// IncludeContext is "none", "thisServer" or "allServers" (the latter
	// two deprecated).
	IncludeContext string `json:"includeContext,omitempty"`
	// Temperature is the sampling temperature.
	Temperature *float64 `json:"temperature,omitempty"`
	// MaxTokens caps the tokens to sample; required.
	MaxTokens int64 `json:"maxTokens"`
	// StopSequences end sampling when produced.
	StopSequences []string `json:"stopSequences,omitzero"`
	// Metadata is passed to the LLM provider as is.
	Metadata Object `json:"metadata,omitzero"`
	// Tools the model may call (requires the client's sampling.tools).
	Tools []Tool `json:"tools,omitzero"`
	// ToolChoice says how the model may use Tools.
	ToolChoice *ToolChoice `json:"toolChoice,omitempty"`
}

// SamplingMessage is one message of a sampling conversation.
type SamplingMessage struct {
	// Role is who speaks the message; required.
	Role Role `json:"role"`
	// Content is one block or a list of them; required.
	Content SamplingContent `json:"content"`
	// Meta is the message's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// SamplingContent is the content of a sampling message or result: a
// single block or an array of blocks. One block encodes as a bare object
// unless AsArray is set; decoding sets AsArray when the peer sent an array.
type SamplingContent struct {
	// Blocks are the blocks.
	Blocks []SamplingContentBlock
	// AsArray sends Blocks as an array even when it holds one block.
	AsArray bool
}

// MarshalJSON encodes one block as an object and anything else as an
// array.
func (c SamplingContent) MarshalJSON() ([]byte, error) {
	if len(c.Blocks) == 1 && !c.AsArray {
		return c.Blocks[0].MarshalJSON()
	}
	return List[SamplingContentBlock](c.Blocks).MarshalJSON()
}

// UnmarshalJSON decodes an object or an array of blocks.
func (c *SamplingContent) UnmarshalJSON(data []byte) error {
	if jsonx.FirstByte(data) == '[' {
		var blocks []SamplingContentBlock
		if err := json.Unmarshal(data, &blocks); err != nil {
			return err
		}
		*c = SamplingContent{Blocks: blocks, AsArray: true}
		return nil
	}
	var b SamplingContentBlock
	if err := b.UnmarshalJSON(data); err != nil {
		return err
	}
	*c = SamplingContent{Blocks: []SamplingContentBlock{b}}
	return nil
}

// SamplingContentBlock is one block of sampling content: exactly one of
// its fields is set. Decoding tells them apart by "type"; any type other
// than text, image, audio, tool_use and tool_result is an error.
type SamplingContentBlock struct {
	Text       *TextContent       // "text"
	Image      *ImageContent      // "image"
	Audio      *AudioContent      // "audio"
	ToolUse    *ToolUseContent    // "tool_use"
	ToolResult *ToolResultContent // "tool_result"
}

// samplingBlocks is SamplingContentBlock's union.
var samplingBlocks = union[SamplingContentBlock]{
	tag:  "sampling content type",
	pick: tagged("type"),
	cases: []unionCase[SamplingContentBlock]{
		variant(TypeText, func(b *SamplingContentBlock) **TextContent { return &b.Text }),
		variant(TypeImage, func(b *SamplingContentBlock) **ImageContent { return &b.Image }),
		variant(TypeAudio, func(b *SamplingContentBlock) **AudioContent { return &b.Audio }),
		variant(TypeToolUse, func(b *SamplingContentBlock) **ToolUseContent { return &b.ToolUse }),
		variant(TypeToolResult, func(b *SamplingContentBlock) **ToolResultContent { return &b.ToolResult }),
	},
}

// MarshalJSON encodes the one variant that is set.
func (b SamplingContentBlock) MarshalJSON() ([]byte, error) {
	return marshalVariant("sampling content block", b.Text, b.Image, b.Audio, b.ToolUse, b.ToolResult)
}

// UnmarshalJSON decodes a block into the variant its "type" names.
func (b *SamplingContentBlock) UnmarshalJSON(data []byte) error {
	return samplingBlocks.unmarshal(data, b)
}

// ToolUseContent is the model's call of a tool during sampling. It encodes
// with "type": "tool_use".
type ToolUseContent struct {
	// Type is "tool_use", written and checked by the codec; it needs no
	// setting.
	Type tag[toolUseType] `json:"type"`
	// ID identifies this call; the matching ToolResultContent refers to
	// it; required.
	ID string `json:"id"`
	// Name is the tool's name; required.
	Name string `json:"name"`
	// Input is the arguments object; required.
	Input json.RawMessage `json:"input"`
	// Meta is the block's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ToolResultContent is the result of a tool call, given back to the model
// during sampling. It encodes with "type": "tool_result".
type ToolResultContent struct {
	// Type is "tool_result", written and checked by the codec; it needs no
	// setting.
	Type tag[toolResultType] `json:"type"`
	// ToolUseID is the ID of the ToolUseContent answered; required.
	ToolUseID string `json:"toolUseId"`
	// Content is the result's blocks; required.
	Content List[ContentBlock] `json:"content"`
	// StructuredContent is the structured result, any JSON value.
	StructuredContent json.RawMessage `json:"structuredContent,omitempty"`
	// IsError reports that the tool failed.
	IsError *bool `json:"isError,omitempty"`
	// Meta is the block's _meta.
	Meta Meta `json:"_meta,omitzero"`
}

// ModelPreferences guide a client's choice of model; each priority is
// from 0 to 1.
type ModelPreferences struct {
	// Hints are model names or families, in order of preference.
	Hints []ModelHint `json:"hints,omitzero"`
	// CostPriority is how much low cost matters.
	CostPriority *float64 `json:"costPriority,omitempty"`
	// SpeedPriority is how much low latency matters.
	SpeedPriority *float64 `json:"speedPriority,omitempty"`
	// IntelligencePriority is how much capability matters.
	IntelligencePriority *float64 `json:"intelligencePriority,omitempty"`
}

// ModelHint names a model or a model family.
type ModelHint struct {
	// Name is matched as a substring of model names.
	Name string `json:"name,omitempty"`
}

// ToolChoice says how a model may use the tools it is given.
type ToolChoice struct {
	// Mode is "auto", "required" or "none".
	Mode string `json:"mode,omitempty"`
}

// CreateMessageResult is the client's answer to a sampling request, sent
// back in [InputResponses]. It has no resultType.
type CreateMessageResult struct {
	// Role is who produced the content; required.
	Role Role `json:"role"`
	// Content is one block or a list of them; required.
	Content SamplingContent `json:"content"`
	// Model is the model that was used; required.
	Model string `json:"model"`
	// StopReason says why sampling stopped, such as "endTurn" or
	// "toolUse".
	StopReason string `json:"stopReason,omitempty"`
	// Meta is the result's _meta.
	Meta Meta `json:"_meta,omitzero"`
}
