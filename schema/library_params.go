package schema

import (
	"fmt"
	"slices"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/kaptinlin/jsonschema"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// The parameters of the library's errors, read for message (message.go):
// each code the library reports is mapped to the words of its keyword
// (or, for a few, of the rule it reports) and to what they quote. A code
// not mapped here keeps the library's text (libraryMessage).

// violation turns the error e under the keyword kw of the result r,
// found at f, into a violation.
func (lw *libraryWalk) violation(r *jsonschema.EvaluationResult, f frame, kw string, e *jsonschema.EvaluationError, kids *members) Violation {
	switch {
	case e.Code == "invalid_json":
		return Violation{Pointer: f.ptr, Keyword: jsonViolation.Keyword, Message: jsonViolation.Message}
	case e.Code == "false_schema_mismatch" && (f.via == "additionalProperties" || f.via == "unevaluatedProperties"):
		kw = f.via
	case e.Code == "false_schema_mismatch":
		kw = "false"
	}
	if rule, p, ok := lw.params(r, f, e, kids); ok {
		if rule == "" {
			rule = kw
		}
		if msg, ok := message(rule, &p); ok {
			return Violation{Pointer: f.ptr, Keyword: kw, Message: msg}
		}
	}
	return Violation{Pointer: f.ptr, Keyword: kw, Message: libraryMessage(e)}
}

// libraryBounds and libraryCounts map the codes of the numeric and count
// keywords to the parameter that holds the bound or count.
var (
	libraryBounds = map[string]string{
		"value_below_minimum": "minimum", "value_above_maximum": "maximum",
		"exclusive_minimum_mismatch": "exclusive_minimum", "exclusive_maximum_mismatch": "exclusive_maximum",
		"not_multiple_of": "divisor",
	}
	libraryCounts = map[string]string{
		"string_too_short": "min_length", "string_too_long": "max_length",
		"items_too_short": "min_items", "items_too_long": "max_items",
		"too_few_properties": "min_properties", "too_many_properties": "max_properties",
		"contains_too_few_items": "min_contains", "contains_too_many_items": "max_contains",
	}
)

// libraryTexts maps codes to the parameter that holds a name or pattern.
var libraryTexts = map[string]string{
	"pattern_mismatch": "pattern", "format_mismatch": "format",
	"invalid_encoding": "encoding", "invalid_media_type": "media_type",
	"unsupported_encoding": "encoding", "unsupported_media_type": "media_type",
}

// libraryRules maps the codes whose words are not those of their keyword
// to the words message has for them.
var libraryRules = map[string]string{
	"unsupported_encoding": "unsupportedEncoding", "unsupported_media_type": "unsupportedMediaType",
}

// libraryLists maps codes to the parameter that holds a list of indexes.
var libraryLists = map[string]string{
	"one_of_multiple_matches": "matches", "all_of_item_mismatch": "indexs",
	"unevaluated_items_not_allowed": "indexes",
}

// librarySubschemas maps the codes of the applicators that report which
// members or items failed their subschemas (when those failures do not
// explain them: see collect) to the words message has for them, and the
// applicator it names. The library files some under the keyword
// "properties".
var librarySubschemas = map[string][2]string{
	"property_mismatch": {"memberSchema", "properties"}, "properties_mismatch": {"memberSchema", "properties"},
	"pattern_property_mismatch": {"memberSchema", "patternProperties"}, "pattern_properties_mismatch": {"memberSchema", "patternProperties"},
	"additional_property_mismatch": {"memberSchema", "additionalProperties"}, "additional_properties_mismatch": {"memberSchema", "additionalProperties"},
	"unevaluated_property_mismatch": {"memberSchema", "unevaluatedProperties"}, "unevaluated_properties_mismatch": {"memberSchema", "unevaluatedProperties"},
	"dependent_schema_mismatch": {"dependentSchemas", ""}, "dependent_schemas_mismatch": {"dependentSchemas", ""},
	"item_mismatch": {"itemSchema", "items"}, "items_mismatch": {"itemSchema", "items"},
	"prefix_item_mismatch": {"itemSchema", "prefixItems"}, "prefix_items_mismatch": {"itemSchema", "prefixItems"},
	"unevaluated_item_mismatch": {"itemSchema", "unevaluatedItems"}, "unevaluated_items_mismatch": {"itemSchema", "unevaluatedItems"},
}

// libraryPlain lists the codes whose message needs only the value.
var libraryPlain = map[string]bool{
	"false_schema_mismatch": true, "any_of_item_mismatch": true, "one_of_item_mismatch": true,
	"not_schema_mismatch": true, "if_then_mismatch": true, "if_else_mismatch": true,
	"ref_mismatch": true, "dynamic_ref_mismatch": true, "content_schema_mismatch": true,
}

// params reads the parameters of message from a library error, and the
// words to use when they are not those of the error's keyword (rule); ok
// is false for a code it does not know.
func (lw *libraryWalk) params(r *jsonschema.EvaluationResult, f frame, e *jsonschema.EvaluationError, kids *members) (rule string, p params, ok bool) {
	p.value = f.raw
	if key, ok := libraryBounds[e.Code]; ok {
		p.limit = formatNumber(paramText(e.Params[key]))
		return "", p, true
	}
	if key, ok := libraryCounts[e.Code]; ok {
		p.limit = paramText(e.Params[key])
		return "", p, true
	}
	if key, ok := libraryTexts[e.Code]; ok {
		p.text = paramText(e.Params[key])
		return libraryRules[e.Code], p, true
	}
	if key, ok := libraryLists[e.Code]; ok {
		p.indexes = splitList(paramText(e.Params[key]))
		return "", p, true
	}
	if sub, ok := librarySubschemas[e.Code]; ok {
		p.text = sub[1]
		for _, key := range []string{"index", "indexs", "indexes"} {
			p.indexes = append(p.indexes, splitList(paramText(e.Params[key]))...)
		}
		for _, key := range []string{"property", "properties"} {
			p.names = append(p.names, unquoteList(paramText(e.Params[key]))...)
		}
		slices.Sort(p.names) // the library lists some in map order
		return sub[0], p, true
	}
	switch {
	case libraryPlain[e.Code]:
	case e.Code == "type_mismatch":
		p.found = paramText(e.Params["received"])
		p.types = strings.Split(paramText(e.Params["expected"]), ", ")
	case e.Code == "invalid_numeric":
		p.found, p.types = paramText(e.Params["actual_type"]), []string{"number"}
	case e.Code == "value_not_in_enum":
		p.values = lw.enumTexts(e, f.node)
	case e.Code == "const_mismatch_null":
		p.values = []string{"null"}
	case e.Code == "const_mismatch":
		if f.node != nil && f.node.Const != nil {
			p.values = []string{jsonText(f.node.Const.Value)}
		}
	case e.Code == "unique_items_mismatch":
		p.indexes = []string{paramText(e.Params["index1"]), paramText(e.Params["index2"])}
	case e.Code == "missing_required_property" || e.Code == "missing_required_properties":
		p.names = missingProperties(e, f.node, kids)
	case e.Code == "dependent_property_required":
		p.deps = dependencies(paramText(e.Params["missing_properties"]))
	case e.Code == "property_name_mismatch" || e.Code == "property_names_mismatch":
		p.names = refusedNames(r, e)
	case e.Code == "additional_property_false": // schemas that refer to themselves
		p.names = []string{paramText(e.Params["property"])}
	default:
		return "", p, false
	}
	return "", p, true
}

// splitList reads a list the library writes as 0, 1.
func splitList(list string) []string {
	if list == "" {
		return nil
	}
	return strings.Split(list, ", ")
}

// paramText writes a parameter of a library error: a count as digits.
func paramText(v any) string {
	switch v := v.(type) {
	case string:
		return v
	case float64:
		return countText(v)
	case nil:
		return ""
	}
	return fmt.Sprint(v)
}

// enumTexts returns the allowed values of s as JSON, after checking that
// s is the schema e is about: the library lists the same values (with
// %v) in its parameters. nil means they are not known.
func (lw *libraryWalk) enumTexts(e *jsonschema.EvaluationError, s *jsonschema.Schema) []string {
	if s == nil {
		return nil
	}
	en, ok := lw.enums[s]
	if !ok {
		plain := make([]string, len(s.Enum))
		for i, v := range s.Enum {
			plain[i] = fmt.Sprintf("%v", v)
		}
		en = enum{strings.Join(plain, ", "), jsonTexts(s.Enum)}
		lw.enums[s] = en
	}
	if en.plain != e.Params["expected"] {
		return nil
	}
	return en.texts
}

// enum is an "enum" of the library's schema as the library prints it
// (plain) and as messages write it.
type enum struct {
	plain string
	texts []string
}

// dependencies reads the parameter of a "dependentRequired" error: an
// object mapping each property present to those it lacks.
func dependencies(text string) []dependency {
	var m map[string][]string
	if json.Unmarshal([]byte(text), &m) != nil {
		return nil
	}
	deps := make([]dependency, 0, len(m))
	for _, name := range sortedKeys(m) {
		deps = append(deps, dependency{name, m[name]})
	}
	return deps
}

// refusedNames returns the property names a "propertyNames" error
// reports, sorted: those whose result under r failed, else those of its
// parameters.
func refusedNames(r *jsonschema.EvaluationResult, e *jsonschema.EvaluationError) []string {
	var names []string
	for _, d := range r.Details {
		if name, ok := strings.CutPrefix(d.EvaluationPath, "/propertyNames/"); ok && !d.Valid {
			names = append(names, name)
		}
	}
	if names == nil {
		list, _ := e.Params["property"].(string)
		if list == "" {
			list, _ = e.Params["properties"].(string)
		}
		names = unquoteList(list)
	}
	slices.Sort(names)
	return slices.Compact(names)
}

// clientParams are the parameters of the library's messages that repeat
// the instance: the value itself, numbers, property names and indices.
var clientParams = map[string]bool{
	"received": true, "value": true, "property": true, "properties": true,
	"index": true, "indexs": true, "indexes": true,
}

// libraryMessage is the library's text for an error of a code message has
// no words for: e.Error() with the parameters that repeat the instance
// clipped (the names "required" lists are the schema's, not clipped).
// Like the library, it fills in the parameters in map order.
func libraryMessage(e *jsonschema.EvaluationError) string {
	msg := e.Message
	for key, value := range e.Params {
		text := fmt.Sprint(value)
		if clientParams[key] && e.Keyword != "required" {
			text = clip.String(text)
		}
		msg = strings.ReplaceAll(msg, "{"+key+"}", text)
	}
	return msg
}
