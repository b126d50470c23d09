package schema

import (
	"fmt"
	"reflect"
	"regexp"
	"slices"
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
	t, err := parseTag(tag)
	if err != nil {
		return fail("%s", err)
	}
	if t.hasDescription {
		s.set("description", t.description)
	}
	var def *tagItem
	for i, it := range t.items {
		if it.key == "default" {
			def = &t.items[i]
			continue
		}
		if err := applyKeyword(s, it.key, it.value); err != nil {
			return fail("%s", err)
		}
	}
	if def != nil {
		v, err := parseDefault(s, def.value, t.nullable)
		if err != nil {
			return fail("%s", err)
		}
		s.set("default", v)
	}
	if t.nullable {
		makeNullable(s)
	}
	return nil
}

// fieldTag is a field's schema tags, parsed: the description, the keyword
// items in tag order (the pattern, format and default tags last) and the
// two flags.
type fieldTag struct {
	description        string
	hasDescription     bool
	items              []tagItem
	nullable, required bool
}

// tagKeys lists the keys of a jsonschema tag's key=value items.
var tagKeys = []string{"description", "enum", "minimum", "maximum", "exclusiveMinimum",
	"exclusiveMaximum", "minLength", "maxLength", "minItems", "maxItems", "format",
	"default", "pattern"}

// tagSyntax names the accepted items, for errors.
var tagSyntax = "the items are key=value with the keys " + strings.Join(tagKeys, ", ") +
	`, and the flags required and nullable, separated by ","`

// parseTag reads a field's description, jsonschema, pattern, format and
// default tags. Its errors name the accepted syntax.
func parseTag(tag reflect.StructTag) (fieldTag, error) {
	var t fieldTag
	js := tag.Get("jsonschema")
	if d, ok := tag.Lookup("description"); ok {
		t.description, t.hasDescription = d, true
	}
	if isBareDescription(js) {
		if !t.hasDescription {
			t.description, t.hasDescription = js, true
		}
		js = ""
	}
	items := parseTagItems(js)
	for i, it := range items {
		switch {
		case isFlag(it.key):
			if it.hasValue {
				return t, fmt.Errorf("%s takes no value: write %s alone", it.key, it.key)
			}
			t.nullable = t.nullable || it.key == "nullable"
			t.required = t.required || it.key == "required"
		case !it.hasValue:
			return t, bareItemError(items, i)
		case !slices.Contains(tagKeys, it.key):
			return t, fmt.Errorf("unknown jsonschema key %q: %s", it.key, tagSyntax)
		case it.key == "description":
			if !t.hasDescription {
				t.description, t.hasDescription = it.value, true
			}
		default:
			t.items = append(t.items, it)
		}
	}
	for _, key := range []string{"pattern", "format", "default"} {
		if v, ok := tag.Lookup(key); ok {
			t.items = append(t.items, tagItem{key: key, value: v, hasValue: true})
		}
	}
	return t, nil
}

// bareItemError explains items[i], an item with no "=" that is not a flag
// (every item before it is well formed): most often the rest of the
// previous item's value, cut at a comma.
func bareItemError(items []tagItem, i int) error {
	it := items[i]
	msg := fmt.Sprintf("%q is neither a key=value item nor a flag (required, nullable)", it.key)
	if i > 0 && items[i-1].hasValue {
		p := items[i-1]
		vals, raws := []string{p.value}, []string{p.value}
		for _, next := range items[i:] {
			if next.hasValue || isFlag(next.key) {
				break
			}
			vals, raws = append(vals, next.key), append(raws, next.raw)
		}
		if p.key == "enum" {
			return fmt.Errorf(`%s: enum values are separated by "|": enum=%s`, msg, strings.Join(vals, "|"))
		}
		// The tag is a Go string literal: its source doubles the backslash.
		return fmt.Errorf(`%s: a comma inside a value is written \\, in the tag: %s=%s`,
			msg, p.key, strings.Join(raws, `\\,`))
	}
	if strings.Contains(it.key, " ") {
		return fmt.Errorf("%s: a description among other items is written description=%s", msg, it.key)
	}
	return fmt.Errorf("%s: %s", msg, tagSyntax)
}

// isFlag reports whether key is a jsonschema tag item that takes no value.
func isFlag(key string) bool { return key == "nullable" || key == "required" }

// isBareDescription reports whether a jsonschema tag is a description, as
// go-sdk writes it (jsonschema:"the city to look up"): text with no "=" at
// all whose first comma-separated item is not a flag (required or
// nullable).
func isBareDescription(tag string) bool {
	t := strings.TrimSpace(tag)
	first, _, _ := strings.Cut(t, ",")
	return t != "" && !strings.Contains(t, "=") && !isFlag(strings.TrimSpace(first))
}

type tagItem struct {
	key, value string
	hasValue   bool
	raw        string // the item as written, for errors
}

// parseTagItems splits a jsonschema tag into comma-separated key=value
// items; `\,` is a comma inside an item, and "pattern=" takes the rest of
// the tag as it is, commas and backslashes included.
func parseTagItems(tag string) []tagItem {
	var items []tagItem
	for tag != "" {
		if rest, ok := strings.CutPrefix(strings.TrimLeft(tag, " "), "pattern="); ok {
			items = append(items, tagItem{key: "pattern", value: rest, hasValue: true})
			break
		}
		var item string
		item, tag = cutUnescaped(tag)
		raw := item
		item = strings.TrimSpace(strings.ReplaceAll(item, `\,`, ","))
		if item == "" {
			continue
		}
		k, v, has := strings.Cut(item, "=")
		items = append(items, tagItem{key: strings.TrimSpace(k), value: v, hasValue: has, raw: raw})
	}
	return items
}

// cutUnescaped cuts s at its first comma not preceded by a backslash.
func cutUnescaped(s string) (before, after string) {
	for i := 0; i < len(s); i++ {
		if s[i] == ',' && (i == 0 || s[i-1] != '\\') {
			return s[:i], s[i+1:]
		}
	}
	return s, ""
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
		if prev, ok := target.get("enum"); ok {
			// enum=a,enum=b, as invopop/jsonschema writes it: one value an item.
			vals = append(prev.([]any), vals...)
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
