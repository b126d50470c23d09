package protocol

import json "github.com/goccy/go-json"

// PrimitiveSchemaDefinition is the schema of one elicitation form field:
// exactly one of its fields is set. The schema gives the variants no tag;
// decoding tells them apart by "type" and by the members only one variant
// has:
//
//   - "boolean": Boolean
//   - "number" or "integer": Number
//   - "string" with "enumNames": LegacyTitledEnum; with "oneOf":
//     TitledSingleSelectEnum; with "enum": UntitledSingleSelectEnum;
//     otherwise String
//   - "array" whose "items" has "anyOf": TitledMultiSelectEnum; otherwise
//     UntitledMultiSelectEnum
//
// Any other type is an error.
type PrimitiveSchemaDefinition struct {
	String                   *StringSchema                   // free text
	Number                   *NumberSchema                   // a number or an integer
	Boolean                  *BooleanSchema                  // yes or no
	UntitledSingleSelectEnum *UntitledSingleSelectEnumSchema // one of plain values
	TitledSingleSelectEnum   *TitledSingleSelectEnumSchema   // one of labelled values
	UntitledMultiSelectEnum  *UntitledMultiSelectEnumSchema  // some of plain values
	TitledMultiSelectEnum    *TitledMultiSelectEnumSchema    // some of labelled values
	LegacyTitledEnum         *LegacyTitledEnumSchema         // one of values labelled by enumNames
}

// primitiveSchemas is PrimitiveSchemaDefinition's union. Its variants are
// told apart by "type" and, for strings and arrays, by the enum members
// present (see pickPrimitive).
var primitiveSchemas = union[PrimitiveSchemaDefinition]{
	tag:  "primitive schema type",
	pick: pickPrimitive,
	cases: []unionCase[PrimitiveSchemaDefinition]{
		variant("boolean", func(d *PrimitiveSchemaDefinition) **BooleanSchema { return &d.Boolean }),
		variant("number", func(d *PrimitiveSchemaDefinition) **NumberSchema { return &d.Number }),
		variant("integer", func(d *PrimitiveSchemaDefinition) **NumberSchema { return &d.Number }),
		variant("string", func(d *PrimitiveSchemaDefinition) **StringSchema { return &d.String }),
		variant("string enumNames", func(d *PrimitiveSchemaDefinition) **LegacyTitledEnumSchema { return &d.LegacyTitledEnum }),
		variant("string oneOf", func(d *PrimitiveSchemaDefinition) **TitledSingleSelectEnumSchema { return &d.TitledSingleSelectEnum }),
		variant("string enum", func(d *PrimitiveSchemaDefinition) **UntitledSingleSelectEnumSchema {
			return &d.UntitledSingleSelectEnum
		}),
		variant("array", func(d *PrimitiveSchemaDefinition) **UntitledMultiSelectEnumSchema { return &d.UntitledMultiSelectEnum }),
		variant("array anyOf", func(d *PrimitiveSchemaDefinition) **TitledMultiSelectEnumSchema { return &d.TitledMultiSelectEnum }),
	},
}

// pickPrimitive names a field schema's variant: its "type", refined for a
// string by enumNames, oneOf or enum (first present wins) and for an
// array by items.anyOf. Any other type is refused here, so that no type
// value can name a refined case.
func pickPrimitive(data []byte) (string, error) {
	f, err := members(data, "type", "enumNames", "oneOf", "enum", "items")
	if err != nil {
		return "", err
	}
	var typ string
	if f[0] != nil {
		if err := json.Unmarshal(f[0], &typ); err != nil {
			return "", errorf("primitive schema type must be a string")
		}
	}
	switch typ {
	case "boolean", "number", "integer":
		return typ, nil
	case "string":
		for i, refined := range []string{"enumNames", "oneOf", "enum"} {
			if f[i+1] != nil {
				return "string " + refined, nil
			}
		}
		return typ, nil
	case "array":
		if f[4] != nil {
			anyOf, err := lookup(f[4], "anyOf")
			if err != nil || anyOf != nil {
				return "array anyOf", err
			}
		}
		return typ, nil
	}
	return "", unknownVariant("primitive schema type", typ)
}

// MarshalJSON encodes the one variant that is set.
func (d PrimitiveSchemaDefinition) MarshalJSON() ([]byte, error) {
	return marshalVariant("primitive schema", d.String, d.Number, d.Boolean,
		d.UntitledSingleSelectEnum, d.TitledSingleSelectEnum,
		d.UntitledMultiSelectEnum, d.TitledMultiSelectEnum, d.LegacyTitledEnum)
}

// UnmarshalJSON decodes a field schema into the variant its members name.
func (d *PrimitiveSchemaDefinition) UnmarshalJSON(data []byte) error {
	return primitiveSchemas.unmarshal(data, d)
}

// StringSchema is a free-text field. It encodes with "type": "string".
type StringSchema struct {
	// Type is "string", written and checked by the codec; it needs no
	// setting.
	Type tag[stringType] `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// MinLength is the shortest allowed length.
	MinLength *int64 `json:"minLength,omitempty"`
	// MaxLength is the longest allowed length.
	MaxLength *int64 `json:"maxLength,omitempty"`
	// Format is "email", "uri", "date" or "date-time".
	Format string `json:"format,omitempty"`
	// Default is the initial value.
	Default *string `json:"default,omitempty"`
}

// NumberSchema is a numeric field.
type NumberSchema struct {
	// Type is "number" or "integer"; required.
	Type string `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// Minimum is the smallest allowed value.
	Minimum *float64 `json:"minimum,omitempty"`
	// Maximum is the largest allowed value.
	Maximum *float64 `json:"maximum,omitempty"`
	// Default is the initial value.
	Default *float64 `json:"default,omitempty"`
}

// UnmarshalJSON decodes a schema whose type is "number" or "integer".
func (s *NumberSchema) UnmarshalJSON(data []byte) error {
	type plain NumberSchema
	if err := json.Unmarshal(data, (*plain)(s)); err != nil {
		return err
	}
	if s.Type != "number" && s.Type != "integer" {
		return errorf("type is %q, want \"number\" or \"integer\"", s.Type)
	}
	return nil
}

// BooleanSchema is a yes/no field. It encodes with "type": "boolean".
type BooleanSchema struct {
	// Type is "boolean", written and checked by the codec; it needs no
	// setting.
	Type tag[booleanType] `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// Default is the initial value.
	Default *bool `json:"default,omitempty"`
}

// EnumOption is one choice of a titled enumeration.
type EnumOption struct {
	// Const is the value submitted; required.
	Const string `json:"const"`
	// Title is the label shown; required.
	Title string `json:"title"`
}

// UntitledSingleSelectEnumSchema is a single choice among values shown as
// they are. It encodes with "type": "string".
type UntitledSingleSelectEnumSchema struct {
	// Type is "string", written and checked by the codec; it needs no
	// setting.
	Type tag[stringType] `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// Enum lists the values; required.
	Enum List[string] `json:"enum"`
	// Default is the initial value.
	Default *string `json:"default,omitempty"`
}

// TitledSingleSelectEnumSchema is a single choice among labelled values.
// It encodes with "type": "string".
type TitledSingleSelectEnumSchema struct {
	// Type is "string", written and checked by the codec; it needs no
	// setting.
	Type tag[stringType] `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// OneOf lists the choices; required.
	OneOf List[EnumOption] `json:"oneOf"`
	// Default is the initial value.
	Default *string `json:"default,omitempty"`
}

// UntitledMultiSelectEnumSchema is a multiple choice among values shown as
// they are. It encodes with "type": "array".
type UntitledMultiSelectEnumSchema struct {
	// Type is "array", written and checked by the codec; it needs no
	// setting.
	Type tag[arrayType] `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// MinItems is the fewest choices allowed.
	MinItems *int64 `json:"minItems,omitempty"`
	// MaxItems is the most choices allowed.
	MaxItems *int64 `json:"maxItems,omitempty"`
	// Items lists the values; required.
	Items UntitledEnumItems `json:"items"`
	// Default is the initial selection.
	Default []string `json:"default,omitzero"`
}

// UntitledEnumItems is the item schema of an untitled multiple choice. It
// encodes with "type": "string".
type UntitledEnumItems struct {
	// Type is "string", written and checked by the codec; it needs no
	// setting.
	Type tag[stringType] `json:"type"`
	// Enum lists the values; required.
	Enum List[string] `json:"enum"`
}

// TitledMultiSelectEnumSchema is a multiple choice among labelled values.
// It encodes with "type": "array".
type TitledMultiSelectEnumSchema struct {
	// Type is "array", written and checked by the codec; it needs no
	// setting.
	Type tag[arrayType] `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// MinItems is the fewest choices allowed.
	MinItems *int64 `json:"minItems,omitempty"`
	// MaxItems is the most choices allowed.
	MaxItems *int64 `json:"maxItems,omitempty"`
	// Items lists the choices; required.
	Items TitledEnumItems `json:"items"`
	// Default is the initial selection.
	Default []string `json:"default,omitzero"`
}

// TitledEnumItems is the item schema of a titled multiple choice.
type TitledEnumItems struct {
	// AnyOf lists the choices; required.
	AnyOf List[EnumOption] `json:"anyOf"`
}

// LegacyTitledEnumSchema is a single choice whose labels are given in the
// non-standard enumNames; use [TitledSingleSelectEnumSchema] instead. It
// encodes with "type": "string".
type LegacyTitledEnumSchema struct {
	// Type is "string", written and checked by the codec; it needs no
	// setting.
	Type tag[stringType] `json:"type"`
	// Title is the field's label.
	Title string `json:"title,omitempty"`
	// Description explains the field.
	Description string `json:"description,omitempty"`
	// Enum lists the values; required.
	Enum List[string] `json:"enum"`
	// EnumNames lists the labels, in the order of Enum.
	EnumNames []string `json:"enumNames,omitzero"`
	// Default is the initial value.
	Default *string `json:"default,omitempty"`
}
