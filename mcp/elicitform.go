package mcp

import (
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// projectForm rewrites an elicitation form for a revision before
// 2025-11-25, which knows one kind of choice field: a string with enum and
// optional enumNames. A titled single choice becomes that; a multiple
// choice has no equivalent, and the handler gets an error instead of the
// client a form it cannot show.
func projectForm(params json.RawMessage) (json.RawMessage, error) {
	var p protocol.ElicitRequestParams
	if err := json.Unmarshal(params, &p); err != nil || p.Form == nil {
		return params, nil // URL mode, or not ours to judge
	}
	changed := false
	for name, f := range p.Form.RequestedSchema.Properties {
		switch {
		case f.TitledSingleSelectEnum != nil:
			t := f.TitledSingleSelectEnum
			legacy := &protocol.LegacyTitledEnumSchema{Title: t.Title, Description: t.Description, Default: t.Default}
			for _, o := range t.OneOf {
				legacy.Enum = append(legacy.Enum, o.Const)
				legacy.EnumNames = append(legacy.EnumNames, o.Title)
			}
			p.Form.RequestedSchema.Properties[name] = protocol.PrimitiveSchemaDefinition{LegacyTitledEnum: legacy}
			changed = true
		case f.UntitledMultiSelectEnum != nil, f.TitledMultiSelectEnum != nil:
			return nil, fmt.Errorf("mcp: form field %q is a multiple choice, which the client's protocol revision (before 2025-11-25) cannot show", name)
		}
	}
	if !changed {
		return params, nil
	}
	return json.Marshal(p)
}
