package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// applyTags applies a field's description, jsonschema, pattern, format and
// default tags to its property schema s (see the package documentation for
// the grammar).
func applyTags(s *object, tag reflect.StructTag, path string) error {
	fail := func(format string, args ...any) error {
		return &Error{Path: path, Reason: "struct tag: " + fmt.Sprintf(format, args...)}
	}
	js := tag.Get("jsonschema")
	if d, ok := tag.Lookup("description"); ok {
		s.set("description", d)
	} else if isBareDescription(js) {
		s.set("description", js)
	}
	if isBareDescription(js) {
		js = ""
	}
	items := parseTagItems(js)
	for _, key := range []string{"pattern", "format", "default"} {
		if v, ok := tag.Lookup(key); ok {
			items = append(items, tagItem{key: key, value: v, hasValue: true})
		}
	}
	nullable := false
	var def *tagItem
	for i, it := range items {
		if it.key == "nullable" {
			if it.hasValue {
				return fail("nullable takes no value")
			}
			nullable = true
			continue
		}
		if !it.hasValue {
			return fail("%q needs a value (key=value)", it.key)
		}
		if it.key == "default" {
			def = &items[i]
			continue
		}
		if err := applyKeyword(s, it.key, it.value); err != nil {
			return fail("%s", err)
		}
	}
	if def != nil {
		v, err := parseDefault(s, def.value, nullable)
		if err != nil {
			return fail("%s", err)
		}
		s.set("default", v)
	}
	if nullable {
		makeNullable(s)
	}
	return nil
}

// isBareDescription reports whether a jsonschema tag is a description, as
// go-sdk writes it (jsonschema:"the city to look up"): text with no "=" at
// all that is not the nullable flag.
func isBareDescription(tag string) bool {
	t := strings.TrimSpace(tag)
	return t != "" && !strings.Contains(t, "=") && t != "nullable"
}

type tagItem struct {
	key, value string
	hasValue   bool
}

// parseTagItems splits a jsonschema tag into comma-separated key=value
// items; "pattern=" takes the rest of the tag, commas included.
func parseTagItems(tag string) []tagItem {
	var items []tagItem
	for tag != "" {
		if rest, ok := strings.CutPrefix(tag, "pattern="); ok {
			items = append(items, tagItem{key: "pattern", value: rest, hasValue: true})
			break
		}
		var item string
		item, tag, _ = strings.Cut(tag, ",")
		item = strings.TrimSpace(item)
		if item == "" {
			continue
		}
		k, v, has := strings.Cut(item, "=")
		items = append(items, tagItem{key: strings.TrimSpace(k), value: v, hasValue: has})
	}
	return items
}

// applyKeyword sets one validation keyword. Value keywords on an array
// field apply to its items; minItems and maxItems to the array itself.
func applyKeyword(s *object, key, value string) error {
	target := s
	if s.getString("type") == "array" && key != "minItems" && key != "maxItems" {
		if items, ok := s.get("items"); ok {
			if o, ok := items.(*object); ok {
				target = o
			}
		}
	}
	typ := target.getString("type")
	switch key {
	case "enum":
		vals, err := parseEnum(typ, value)
		if err != nil {
			return err
		}
		target.set("enum", vals)
	case "minimum", "maximum", "exclusiveMinimum", "exclusiveMaximum":
		if typ != "integer" && typ != "number" {
			return fmt.Errorf("%s needs a numeric field, not %q", key, typ)
		}
		if !isJSONNumber(value) {
			return fmt.Errorf("%s=%q is not a number", key, value)
		}
		target.set(key, json.RawMessage(value))
	case "minLength", "maxLength", "minItems", "maxItems":
		want := "string"
		if key == "minItems" || key == "maxItems" {
			want = "array"
		}
		if typ != want {
			return fmt.Errorf("%s needs a %s field, not %q", key, want, typ)
		}
		n, err := strconv.ParseUint(value, 10, 63)
		if err != nil {
			return fmt.Errorf("%s=%q is not a non-negative integer", key, value)
		}
		target.set(key, int64(n))
	case "pattern", "format":
		if typ != "string" {
			return fmt.Errorf("%s needs a string field, not %q", key, typ)
		}
		if key == "pattern" {
			if _, err := regexp.Compile(value); err != nil {
				return fmt.Errorf("pattern %q: %v", value, err)
			}
		}
		target.set(key, value)
	default:
		return fmt.Errorf("unknown jsonschema key %q", key)
	}
	return nil
}

// parseEnum reads '|'-separated enum values in the field's type.
func parseEnum(typ, value string) ([]any, error) {
	var vals []any
	for _, v := range strings.Split(value, "|") {
		switch typ {
		case "string":
			vals = append(vals, v)
		case "integer":
			if _, err := strconv.ParseInt(v, 10, 64); err != nil {
				return nil, fmt.Errorf("enum value %q is not an integer", v)
			}
			vals = append(vals, json.RawMessage(v))
		case "number":
			if !isJSONNumber(v) {
				return nil, fmt.Errorf("enum value %q is not a number", v)
			}
			vals = append(vals, json.RawMessage(v))
		case "boolean":
			b, err := strconv.ParseBool(v)
			if err != nil || (v != "true" && v != "false") {
				return nil, fmt.Errorf("enum value %q is not true or false", v)
			}
			vals = append(vals, b)
		case "":
			if json.Valid([]byte(v)) {
				vals = append(vals, json.RawMessage(v))
			} else {
				vals = append(vals, v)
			}
		default:
			return nil, fmt.Errorf("enum is not supported on a %s field", typ)
		}
	}
	return vals, nil
}

// parseDefault reads a default value: JSON when it is valid JSON of the
// field's type (or null for a nullable field), else the text itself for a
// string field (or a field of any type).
func parseDefault(s *object, value string, nullable bool) (any, error) {
	typ := s.getString("type")
	if json.Valid([]byte(value)) {
		kind := jsonKind(value)
		if typ == "" || kind == typ || (kind == "null" && nullable) ||
			(typ == "number" && kind == "integer") {
			return json.RawMessage(value), nil
		}
	}
	if typ == "string" || typ == "" {
		return value, nil
	}
	return nil, fmt.Errorf("default %q is not a valid %s", value, typ)
}

// jsonKind names the JSON Schema type of a valid JSON text ("integer" for
// numbers without fraction or exponent).
func jsonKind(v string) string {
	v = strings.TrimSpace(v)
	if t := jsonx.TypeName(v[0]); t != "" {
		return t
	}
	if strings.ContainsAny(v, ".eE") {
		return "number"
	}
	return "integer"
}

// isJSONNumber reports whether v is a single JSON number.
func isJSONNumber(v string) bool {
	return v != "" && (v[0] == '-' || ('0' <= v[0] && v[0] <= '9')) && json.Valid([]byte(v))
}

// makeNullable lets s accept null: ["T","null"] for a typed schema, an
// anyOf with null around a "$ref". A schema without a type already accepts
// null.
func makeNullable(s *object) {
	if t := s.getString("type"); t != "" {
		s.set("type", []string{t, "null"})
		if e, ok := s.get("enum"); ok {
			s.set("enum", append(e.([]any), nil))
		}
		return
	}
	if ref := s.getString("$ref"); ref != "" {
		for i, m := range s.members {
			if m.key == "$ref" {
				s.members[i] = member{"anyOf", []any{
					&object{members: []member{{"$ref", ref}}},
					typed("null"),
				}}
			}
		}
	}
}
