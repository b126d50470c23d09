package contract_test

import (
	"reflect"
	"testing"

	"github.com/mcpwire/mcpwire/internal/contract"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// Every block type protocol defines has a case in Check: an empty block of
// each type is judged by its members, never refused as unknown.
func TestCheckCoversEveryBlockType(t *testing.T) {
	u := reflect.TypeFor[protocol.ContentBlock]()
	for i := range u.NumField() {
		c := reflect.New(u.Field(i).Type.Elem()).Interface().(protocol.Content)
		for _, f := range contract.Check(c) {
			if f.Kind == contract.KindBlock {
				t.Errorf("%s: Check has no case for it: %+v", c.ContentType(), f)
			}
		}
	}
}

// Findings name the rule and the member at fault, for the reviewer's
// problems.
func TestCheckFindings(t *testing.T) {
	tests := []struct {
		name  string
		block protocol.Content
		want  []contract.Finding
	}{
		{"valid", tool.NewText("t"), nil},
		{"image", &tool.Image{Data: "a"}, []contract.Finding{
			{Kind: contract.KindBase64, Field: "/data", Message: "data is not valid base64 (standard alphabet, padded, no line breaks)"},
			{Kind: contract.KindMediaType, Field: "/mimeType", Message: "mimeType is missing"},
		}},
		{"embedded blob", tool.NewEmbeddedBlob("b", "", nil), []contract.Finding{
			{Kind: contract.KindURI, Field: "/resource/uri", Message: `uri "b" is not absolute (it needs a scheme, such as file: or https:)`},
		}},
		{"link", tool.NewResourceLink("file:///a", "", tool.LinkSize(-2), tool.Priority(3)), []contract.Finding{
			{Kind: contract.KindMissing, Field: "/name", Message: "name is missing"},
			{Kind: contract.KindSize, Field: "/size", Message: "size -2 is negative"},
			{Kind: contract.KindAnnotations, Field: "/annotations", Message: "annotations.priority: 3 is outside [0, 1]"},
		}},
		{"nil", nil, []contract.Finding{{Kind: contract.KindBlock, Message: "content block is nil"}}},
	}
	for _, tt := range tests {
		t.Run(tt.name, func(t *testing.T) {
			if got := contract.Check(tt.block); !reflect.DeepEqual(got, tt.want) {
				t.Errorf("Check = %+v\nwant    %+v", got, tt.want)
			}
		})
	}
}
