package schema

import (
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// The words of violations. A check that finds a rule broken says in
// params what it found and what the schema asks for, and message words
// it. The fast path (fast_checks.go), the library path (library.go) and
// the decoding of typed tool arguments (through [TypeViolation] and
// [NewViolation]) all go through message, so a rule reads the same
// whoever finds it broken.
//
// A message names the value it is about as the client sent it (see
// jsonx.ValueText) and says what it should be, in JSON terms:
//
//	"one" should be an integer, not a string
//	"kelvin" should be one of "metric", "imperial"
//	20 should be at most 14
//	the required property "city" is missing
//
// What the schema gives (allowed values, a constant, property names) is
// written as JSON; a number the schema gives as dec.format writes it.

// params are what a message says. Each keyword reads the fields it needs.
type params struct {
	value   []byte       // the value the message is about, as sent; nil: not known
	found   string       // type: the value's JSON type, as kindName names it
	types   []string     // type: the types the schema allows, in its order
	limit   string       // the bound, length or count the keyword sets
	values  []string     // enum: the allowed values, const: the constant, as JSON; nil: not known
	text    string       // pattern: the expression; format, contentEncoding, contentMediaType: the name
	names   []string     // required: the missing properties; propertyNames: the names refused
	indexes []string     // uniqueItems: the equal items; oneOf: the schemas matched; allOf: those failed; unevaluatedItems: the items refused
	deps    []dependency // dependentRequired: the properties present and what they lack
}

// dependency is a property present and the properties it requires that
// are missing.
type dependency struct {
	name    string
	missing []string
}

// message words a violation of keyword; ok is false for a keyword it has
// no words for.
func message(keyword string, p *params) (msg string, ok bool) {
	v := jsonx.ValueText(p.value)
	switch keyword {
	case "type":
		if p.found == "null" && v == "null" { // "null should be an array, not null"
			return v + " should be " + orList(articles(p.types)), true
		}
		return v + " should be " + orList(articles(p.types)) + ", not " + foundType(p.found, p.types), true
	case "enum":
		switch len(p.values) {
		case 0:
			return v + " should be one of the values the schema allows", true
		case 1:
			return v + " should be " + p.values[0], true
		}
		return v + " should be one of " + strings.Join(p.values, ", "), true
	case "const":
		if len(p.values) == 0 {
			return v + " should be the value the schema sets", true
		}
		return v + " should be exactly " + p.values[0], true
	case "minLength":
		return v + " should be at least " + count(p.limit, "character") + " long", true
	case "maxLength":
		return v + " should be at most " + count(p.limit, "character") + " long", true
	case "pattern":
		return v + " should match the pattern " + p.text, true
	case "format":
		return v + " should be a valid " + p.text, true
	case "contentEncoding", "contentMediaType":
		return v + " should be valid " + p.text, true
	case "unsupportedEncoding":
		return "the schema's contentEncoding " + quoteName(p.text, false) + " is not supported", true
	case "unsupportedMediaType":
		return "the schema's contentMediaType " + quoteName(p.text, false) + " is not supported", true
	case "contentSchema":
		return "the content of " + v + " should match the contentSchema schema", true
	case "minimum":
		return v + " should be at least " + p.limit, true
	case "maximum":
		return v + " should be at most " + p.limit, true
	case "exclusiveMinimum":
		return v + " should be greater than " + p.limit, true
	case "exclusiveMaximum":
		return v + " should be less than " + p.limit, true
	case "multipleOf":
		return v + " should be a multiple of " + p.limit, true
	case "minItems":
		return v + " should have at least " + count(p.limit, "item"), true
	case "maxItems":
		return v + " should have at most " + count(p.limit, "item"), true
	case "minProperties":
		return v + " should have at least " + count(p.limit, "property"), true
	case "maxProperties":
		return v + " should have at most " + count(p.limit, "property"), true
	case "minContains":
		return v + " should have at least " + count(p.limit, "item") + " matching the contains schema", true
	case "maxContains":
		return v + " should have at most " + count(p.limit, "item") + " matching the contains schema", true
	case "uniqueItems":
		return v + " should have unique items, but items " + andList(p.indexes) + " are equal", true
	}
	return objectMessage(keyword, p, v)
}

// objectMessage words the keywords about properties, the applicators and
// the rules of this package (see message).
func objectMessage(keyword string, p *params, v string) (string, bool) {
	switch keyword {
	case "required":
		if len(p.names) == 1 {
			return "the required property " + quoteNames(p.names, false) + " is missing", true
		}
		return "the required properties " + quoteNames(p.names, false) + " are missing", true
	case "dependentRequired":
		clauses := make([]string, len(p.deps))
		for i, d := range p.deps {
			names := quoteNames(d.missing, false)
			if len(d.missing) == 1 {
				clauses[i] = "the property " + names + " is required when " + quoteName(d.name, false) + " is present"
			} else {
				clauses[i] = "the properties " + names + " are required when " + quoteName(d.name, false) + " is present"
			}
		}
		return strings.Join(clauses, "; "), true
	case "propertyNames":
		if len(p.names) == 1 {
			return "the property name " + quoteNames(p.names, true) + " should match the propertyNames schema", true
		}
		return "the property names " + quoteNames(p.names, true) + " should match the propertyNames schema", true
	case "additionalProperties", "unevaluatedProperties":
		return "additional property is not allowed", true
	case "memberSchema":
		if len(p.names) == 1 {
			return "the property " + quoteNames(p.names, true) + " should match the " + p.text + " schema", true
		}
		return "the properties " + quoteNames(p.names, true) + " should match the " + p.text + " schemas", true
	case "itemSchema":
		if len(p.indexes) == 1 {
			return "the item at index " + p.indexes[0] + " should match the " + p.text + " schema", true
		}
		return "the items at indexes " + andList(p.indexes) + " should match the " + p.text + " schemas", true
	case "dependentSchemas":
		if len(p.names) == 1 {
			return v + " should match the dependentSchemas schema of " + quoteNames(p.names, true), true
		}
		return v + " should match the dependentSchemas schemas of " + quoteNames(p.names, true), true
	case "unevaluatedItems":
		if len(p.indexes) == 1 {
			return "the item at index " + p.indexes[0] + " is not allowed", true
		}
		return "the items at indexes " + andList(p.indexes) + " are not allowed", true
	case "false":
		return "no value is allowed here", true
	case "anyOf":
		return v + " should match at least one of the anyOf schemas", true
	case "oneOf":
		if len(p.indexes) == 0 {
			return v + " should match exactly one of the oneOf schemas, but matches none", true
		}
		return v + " should match exactly one of the oneOf schemas, but matches schemas " + andList(p.indexes), true
	case "allOf":
		failed := "schemas "
		if len(p.indexes) == 1 {
			failed = "schema "
		}
		return v + " should match every allOf schema, but fails " + failed + andList(p.indexes), true
	case "not":
		return v + " should not match the not schema", true
	case "then":
		return v + " matches the if schema, so it should match the then schema", true
	case "else":
		return v + " does not match the if schema, so it should match the else schema", true
	case "$ref":
		return v + " should match the referenced schema", true
	case "$dynamicRef":
		return v + " should match the dynamically referenced schema", true
	case "number":
		return "a number has more than " + strconv.Itoa(maxNumberDigits) + " digits or an exponent beyond " +
			strconv.Itoa(maxNumberExponent) + "; such numbers are not accepted", true
	}
	return "", false
}

// newViolation is the violation at ptr of keyword, worded by message.
func newViolation(ptr, keyword string, p *params) Violation {
	msg, ok := message(keyword, p)
	if !ok {
		msg = jsonx.ValueText(p.value) + " breaks the " + keyword + " rule"
	}
	return Violation{Pointer: ptr, Keyword: keyword, Message: msg}
}

// TypeViolation returns the "type" violation at ptr of value (its JSON
// text as sent; nil when it is not known) whose JSON type is found
// ("string", "integer", "number" for one with a fractional part,
// "boolean", "object", "array" or "null"), where the schema allows the
// types want. Its message reads like the validator's:
//
//	"12" should be an integer, not a string
func TypeViolation(ptr string, value []byte, found string, want ...string) Violation {
	return newViolation(ptr, "type", &params{value: value, found: found, types: want})
}

// NewViolation returns the violation at ptr of value (its JSON text as
// sent; nil when it is not known) that breaks the rule of keyword, whose
// parameter is param: the bound of "minimum", "maximum",
// "exclusiveMinimum", "exclusiveMaximum" and "multipleOf", the count of
// "minLength", "maxLength", "minItems", "maxItems", "minProperties" and
// "maxProperties", the expression of "pattern", the name of "format",
// "contentEncoding" and "contentMediaType"; "additionalProperties" (a
// property refused) and "false" take none. Its message reads like the
// validator's:
//
//	1e300 should be at most 9223372036854775807
//	"!!" should be valid base64
//	additional property is not allowed
func NewViolation(ptr, keyword string, value []byte, param string) Violation {
	return newViolation(ptr, keyword, &params{value: value, limit: param, text: param})
}

// quoteName writes a property name as a JSON string; a client's name
// (clipped) is clipped as clip.Quote clips, with the JSON escapes.
func quoteName(name string, clipped bool) string {
	c := name
	if clipped {
		c = clip.String(name)
	}
	if c == name {
		return string(jsonx.AppendString(nil, name))
	}
	cut := strings.LastIndex(c, "… (")
	return string(jsonx.AppendString(nil, c[:cut]+"…")) + c[cut+len("…"):]
}

func quoteNames(names []string, clipped bool) string {
	quoted := make([]string, len(names))
	for i, n := range names {
		quoted[i] = quoteName(n, clipped)
	}
	return strings.Join(quoted, ", ")
}

// articles names JSON types with their article: "a string", "an
// integer", "null".
func articles(types []string) []string {
	out := make([]string, len(types))
	for i, t := range types {
		out[i] = article(t)
	}
	return out
}

func article(jsonType string) string {
	switch jsonType {
	case "null":
		return "null"
	case "integer", "object", "array":
		return "an " + jsonType
	}
	return "a " + jsonType
}

// foundType names the type of a value that has none of the types want.
func foundType(found string, want []string) string {
	switch found {
	case "unknown":
		return "a number with an exponent out of range"
	case "number":
		for _, t := range want {
			if t == "integer" {
				return "a number with a fractional part"
			}
		}
	}
	return article(found)
}

// orList joins "a", "b" and "c" as "a, b or c".
func orList(items []string) string { return joinLast(items, " or ") }

// andList joins "0", "1" and "2" as "0, 1 and 2".
func andList(items []string) string { return joinLast(items, " and ") }

func joinLast(items []string, last string) string {
	if len(items) < 2 {
		return strings.Join(items, "")
	}
	return strings.Join(items[:len(items)-1], ", ") + last + items[len(items)-1]
}

// count writes n things: "1 character", "3 characters", "1 property",
// "2 properties".
func count(n, noun string) string {
	if n == "1" {
		return n + " " + noun
	}
	if s, ok := strings.CutSuffix(noun, "y"); ok {
		return n + " " + s + "ies"
	}
	return n + " " + noun + "s"
}

// countText writes a count keyword's value (a whole number) as digits.
func countText(f float64) string { return strconv.FormatFloat(f, 'f', -1, 64) }

// jsonText writes a value of the schema (decoded with numbers kept as
// written) as JSON, members sorted by name.
func jsonText(v any) string { return string(appendJSON(nil, v)) }

func jsonTexts(vs []any) []string {
	out := make([]string, len(vs))
	for i, v := range vs {
		out[i] = jsonText(v)
	}
	return out
}

func appendJSON(b []byte, v any) []byte {
	switch v := v.(type) {
	case nil:
		return append(b, "null"...)
	case bool:
		return strconv.AppendBool(b, v)
	case string:
		return jsonx.AppendString(b, v)
	case json.Number: // encoding/json's, which the library decodes to
		return append(b, v...)
	case []any:
		b = append(b, '[')
		for i, e := range v {
			if i > 0 {
				b = append(b, ',')
			}
			b = appendJSON(b, e)
		}
		return append(b, ']')
	case map[string]any:
		b = append(b, '{')
		for i, k := range sortedKeys(v) {
			if i > 0 {
				b = append(b, ',')
			}
			b = append(jsonx.AppendString(b, k), ':')
			b = appendJSON(b, v[k])
		}
		return append(b, '}')
	}
	text, _ := json.Marshal(v) // not a type a schema decodes to
	return append(b, text...)
}
