package ask

import (
	"errors"
	"fmt"
	"maps"
	"reflect"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// formKeywords lists, by JSON type, the keywords of the property schema
// package schema infers that a form field of that type can carry.
var formKeywords = map[string][]string{
	"string":  {"type", "description", "default", "enum", "minLength", "maxLength", "format"},
	"integer": {"type", "description", "default", "minimum", "maximum"},
	"number":  {"type", "description", "default", "minimum", "maximum"},
	"boolean": {"type", "description", "default"},
	"array":   {"type", "description", "default", "items", "minItems", "maxItems"},
}

// formFormats are the formats a form's text field may have.
var formFormats = []string{"email", "uri", "date", "date-time"}

// fieldForm turns raw, the property schema package schema inferred for a
// struct field, and the field's tags into the field of a form.
func fieldForm(raw json.RawMessage, tag reflect.StructTag) (protocol.PrimitiveSchemaDefinition, error) {
	var none protocol.PrimitiveSchemaDefinition
	var kw map[string]json.RawMessage
	if err := json.Unmarshal(raw, &kw); err != nil {
		return none, fmt.Errorf("internal error: the field's schema does not decode: %v", err)
	}
	var typ string
	if err := json.Unmarshal(kw["type"], &typ); err != nil || typ == "" {
		return none, errors.New("a form field cannot be null (the nullable tag item): make the field a pointer or give it omitempty to make it optional")
	}
	if err := checkKeywords(typ, kw); err != nil {
		return none, err
	}
	enum, err := choices(typ, kw)
	if err != nil {
		return none, err
	}
	var def protocol.PrimitiveSchemaDefinition
	if err := json.Unmarshal(raw, &def); err != nil {
		return none, fmt.Errorf("internal error: the field's schema is not a form field: %v", err)
	}
	if titles, ok := tag.Lookup("titles"); ok {
		if def, err = titled(def, enum, titles); err != nil {
			return none, err
		}
	}
	if title := tag.Get("title"); title != "" {
		setTitle(&def, title)
	}
	return def, nil
}

// checkKeywords refuses the keywords a form field of type typ cannot
// carry.
func checkKeywords(typ string, kw map[string]json.RawMessage) error {
	allowed, ok := formKeywords[typ]
	if !ok {
		return fmt.Errorf("a form field cannot be of JSON type %q", typ)
	}
	for _, k := range slices.Sorted(maps.Keys(kw)) {
		if !slices.Contains(allowed, k) {
			return keywordError(typ, k)
		}
	}
	if _, ok := kw["enum"]; ok {
		for _, k := range []string{"minLength", "maxLength", "format"} {
			if _, has := kw[k]; has {
				return fmt.Errorf("%s does not apply to a choice (a field with enum values)", k)
			}
		}
	}
	if f, ok := kw["format"]; ok {
		var format string
		json.Unmarshal(f, &format)
		if !slices.Contains(formFormats, format) {
			return fmt.Errorf("format %q: a form's text field has the format email, uri, date or date-time, or none", format)
		}
	}
	return nil
}

// keywordError says why keyword k cannot be on a form field of type typ.
func keywordError(typ, k string) error {
	switch k {
	case "enum":
		return fmt.Errorf("enum on a %s field: the choices of a form are strings; use a string field", typ)
	case "exclusiveMinimum", "exclusiveMaximum":
		return fmt.Errorf("%s is not in an elicitation form; use minimum and maximum", k)
	}
	return fmt.Errorf("%s is not in an elicitation form's %s field", k, typ)
}

// choices returns the enum values of a choice field (nil for another
// field), after checking them: a []string field needs them, they are
// distinct, and the default is among them.
func choices(typ string, kw map[string]json.RawMessage) ([]string, error) {
	var enum []string
	switch typ {
	case "string":
		if kw["enum"] == nil {
			return nil, nil
		}
		json.Unmarshal(kw["enum"], &enum)
	case "array":
		var items map[string]json.RawMessage
		json.Unmarshal(kw["items"], &items)
		for _, k := range slices.Sorted(maps.Keys(items)) {
			if k != "type" && k != "enum" {
				return nil, fmt.Errorf("%s does not apply to the choices of a multiple choice", k)
			}
		}
		if items["enum"] == nil {
			return nil, errors.New(`a []string field is a multiple choice and needs its choices: jsonschema:"enum=a|b|c"`)
		}
		json.Unmarshal(items["enum"], &enum)
	default:
		return nil, nil
	}
	for i, v := range enum {
		if slices.Contains(enum[:i], v) {
			return nil, fmt.Errorf("the choice %q is listed twice", v)
		}
	}
	if d := kw["default"]; d != nil {
		var defaults []string
		if typ == "string" {
			defaults = make([]string, 1)
			json.Unmarshal(d, &defaults[0])
		} else if err := json.Unmarshal(d, &defaults); err != nil {
			return nil, fmt.Errorf("the default %s is not a list of strings", d)
		}
		for _, v := range defaults {
			if !slices.Contains(enum, v) {
				return nil, fmt.Errorf("the default %q is not one of the choices", v)
			}
		}
	}
	return enum, nil
}

// titled turns a choice field into a titled one: titles are the values'
// titles, in the order of enum, separated by '|'.
func titled(def protocol.PrimitiveSchemaDefinition, enum []string, titles string) (protocol.PrimitiveSchemaDefinition, error) {
	if enum == nil {
		return def, errors.New("the titles tag titles the enum values of a string or []string field, and this field has none")
	}
	names := strings.Split(titles, "|")
	if len(names) != len(enum) {
		return def, fmt.Errorf("the titles tag gives %d titles for %d enum values", len(names), len(enum))
	}
	options := make(protocol.List[protocol.EnumOption], len(enum))
	for i, v := range enum {
		if names[i] == "" {
			return def, fmt.Errorf("the titles tag gives the choice %q an empty title", v)
		}
		options[i] = protocol.EnumOption{Const: v, Title: names[i]}
	}
	if s := def.UntitledSingleSelectEnum; s != nil {
		return protocol.PrimitiveSchemaDefinition{TitledSingleSelectEnum: &protocol.TitledSingleSelectEnumSchema{
			Description: s.Description, OneOf: options, Default: s.Default,
		}}, nil
	}
	s := def.UntitledMultiSelectEnum
	return protocol.PrimitiveSchemaDefinition{TitledMultiSelectEnum: &protocol.TitledMultiSelectEnumSchema{
		Description: s.Description, MinItems: s.MinItems, MaxItems: s.MaxItems,
		Items: protocol.TitledEnumItems{AnyOf: options}, Default: s.Default,
	}}, nil
}

// setTitle sets the title of the variant def holds.
func setTitle(def *protocol.PrimitiveSchemaDefinition, title string) {
	switch {
	case def.String != nil:
		def.String.Title = title
	case def.Number != nil:
		def.Number.Title = title
	case def.Boolean != nil:
		def.Boolean.Title = title
	case def.UntitledSingleSelectEnum != nil:
		def.UntitledSingleSelectEnum.Title = title
	case def.TitledSingleSelectEnum != nil:
		def.TitledSingleSelectEnum.Title = title
	case def.UntitledMultiSelectEnum != nil:
		def.UntitledMultiSelectEnum.Title = title
	case def.TitledMultiSelectEnum != nil:
		def.TitledMultiSelectEnum.Title = title
	}
}
