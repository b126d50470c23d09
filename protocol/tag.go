package protocol

import (
	json "github.com/goccy/go-json"
)

// tagName names the member and the constant of a [tag] field.
type tagName interface{ tag() (key, value string) }

// tag is the field of a variant type for its constant discriminator, such
// as "type": "text": it encodes as the constant N names, in a zero value
// too, and decoding any other value is an error (an absent member is left
// to the union that picked the variant). Its type being unexported, a user
// neither can set it wrong nor needs to set it.
type tag[N tagName] struct{}

// MarshalJSON writes the constant.
func (tag[N]) MarshalJSON() ([]byte, error) {
	var n N
	_, value := n.tag()
	return appendQuoted(nil, value), nil
}

// UnmarshalJSON checks that data is the constant.
func (*tag[N]) UnmarshalJSON(data []byte) error {
	var n N
	key, want := n.tag()
	if len(data) == len(want)+2 && data[0] == '"' && string(data[1:len(data)-1]) == want {
		return nil
	}
	var got string
	if err := json.Unmarshal(data, &got); err != nil {
		return errorf("%s must be a string", key)
	}
	if got != want {
		return errorf("%s is %q, want %q", key, got, want)
	}
	return nil
}

// The tag names of the variant types.
type (
	textType        struct{}
	imageType       struct{}
	audioType       struct{}
	embeddedType    struct{}
	refPromptType   struct{}
	refResourceType struct{}
	urlMode         struct{}
	stringType      struct{}
	booleanType     struct{}
	arrayType       struct{}
	toolUseType     struct{}
	toolResultType  struct{}
)

func (textType) tag() (string, string)        { return "type", TypeText }
func (imageType) tag() (string, string)       { return "type", TypeImage }
func (audioType) tag() (string, string)       { return "type", TypeAudio }
func (embeddedType) tag() (string, string)    { return "type", TypeResource }
func (refPromptType) tag() (string, string)   { return "type", TypeRefPrompt }
func (refResourceType) tag() (string, string) { return "type", TypeRefResource }
func (urlMode) tag() (string, string)         { return "mode", ElicitModeURL }
func (stringType) tag() (string, string)      { return "type", "string" }
func (booleanType) tag() (string, string)     { return "type", "boolean" }
func (arrayType) tag() (string, string)       { return "type", "array" }
func (toolUseType) tag() (string, string)     { return "type", TypeToolUse }
func (toolResultType) tag() (string, string)  { return "type", TypeToolResult }
