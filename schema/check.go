package schema

import (
	"fmt"
	"math/big"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// dialects maps the accepted "$schema" URIs (without a trailing '#',
// http or https) to their names.
var dialects = map[string]string{
	"json-schema.org/draft/2020-12/schema": "2020-12",
	"json-schema.org/draft/2019-09/schema": "2019-09",
	"json-schema.org/draft-07/schema":      "draft-07",
	"json-schema.org/draft-06/schema":      "draft-06",
	"json-schema.org/draft-04/schema":      "draft-04",
}

// dialectOf returns the dialect named by a "$schema" value.
func dialectOf(uri string) (string, bool) {
	u := strings.TrimSuffix(uri, "#")
	if rest, ok := strings.CutPrefix(u, "https://"); ok {
		u = rest
	} else if rest, ok := strings.CutPrefix(u, "http://"); ok {
		u = rest
	} else {
		return "", false
	}
	d, ok := dialects[u]
	return d, ok
}

// shape records what the structural check learned about a schema.
type shape struct {
	hasPatterns bool // "pattern" or "patternProperties" somewhere
}

// checker validates the structure of a schema document before the library
// compiles it, so mistakes get a message naming the keyword and its
// location. It covers the keywords whose misuse the library accepts
// silently or reports obscurely; it is not a full meta-schema validation.
type checker struct {
	shape shape
}

var (
	singleSchemaKeywords = []string{
		"additionalItems", "additionalProperties", "contains", "contentSchema",
		"else", "if", "not", "propertyNames", "then",
		"unevaluatedItems", "unevaluatedProperties",
	}
	schemaArrayKeywords = []string{"allOf", "anyOf", "oneOf", "prefixItems"}
	schemaMapKeywords   = []string{"$defs", "definitions", "dependentSchemas", "patternProperties", "properties"}
	countKeywords       = []string{
		"maxContains", "maxItems", "maxLength", "maxProperties",
		"minContains", "minItems", "minLength", "minProperties",
	}
	numberKeywords = []string{"maximum", "minimum"}
	typeNames      = map[string]bool{
		"array": true, "boolean": true, "integer": true, "null": true,
		"number": true, "object": true, "string": true,
	}
)

func (c *checker) schema(v any, ptr string) error {
	switch v := v.(type) {
	case bool:
		return nil
	case map[string]any:
		return c.object(v, ptr)
	}
	return invalid(ptr, "a schema must be a JSON object or a boolean")
}

func (c *checker) object(s map[string]any, ptr string) error {
	if t, ok := s["type"]; ok {
		if err := checkType(t, ptr+"/type"); err != nil {
			return err
		}
	}
	for _, k := range countKeywords {
		if v, ok := s[k]; ok && !isCount(v) {
			return invalid(ptr+"/"+k, "must be a non-negative integer")
		}
	}
	for _, k := range numberKeywords {
		if v, ok := s[k]; ok && !isNumber(v) {
			return invalid(ptr+"/"+k, "must be a number")
		}
	}
	if v, ok := s["multipleOf"]; ok {
		if n, isNum := v.(json.Number); !isNum || !positive(n) {
			return invalid(ptr+"/multipleOf", "must be a number greater than 0")
		}
	}
	if v, ok := s["required"]; ok && !isStringArray(v) {
		return invalid(ptr+"/required", "must be an array of strings")
	}
	if v, ok := s["enum"]; ok {
		if _, isArr := v.([]any); !isArr {
			return invalid(ptr+"/enum", "must be an array")
		}
	}
	if v, ok := s["pattern"]; ok {
		c.shape.hasPatterns = true
		if _, isStr := v.(string); !isStr {
			return invalid(ptr+"/pattern", "must be a string")
		}
	}
	if _, ok := s["patternProperties"]; ok {
		c.shape.hasPatterns = true
	}
	for _, k := range []string{"$ref", "$dynamicRef", "$anchor", "$dynamicAnchor", "$id", "format"} {
		if v, ok := s[k]; ok {
			if _, isStr := v.(string); !isStr {
				return invalid(ptr+"/"+jsonx.EscapePointer(k), "must be a string")
			}
		}
	}
	return c.subschemas(s, ptr)
}

func (c *checker) subschemas(s map[string]any, ptr string) error {
	for _, k := range singleSchemaKeywords {
		if v, ok := s[k]; ok {
			if err := c.schema(v, ptr+"/"+k); err != nil {
				return err
			}
		}
	}
	if v, ok := s["items"]; ok {
		if list, isArr := v.([]any); isArr { // draft-07 tuple form
			if err := c.list(list, ptr+"/items", false); err != nil {
				return err
			}
		} else if err := c.schema(v, ptr+"/items"); err != nil {
			return err
		}
	}
	for _, k := range schemaArrayKeywords {
		if v, ok := s[k]; ok {
			list, isArr := v.([]any)
			if !isArr {
				return invalid(ptr+"/"+k, "must be an array of schemas")
			}
			if err := c.list(list, ptr+"/"+k, k != "prefixItems"); err != nil {
				return err
			}
		}
	}
	for _, k := range schemaMapKeywords {
		if v, ok := s[k]; ok {
			m, isMap := v.(map[string]any)
			if !isMap {
				return invalid(ptr+"/"+jsonx.EscapePointer(k), "must be an object whose values are schemas")
			}
			for _, name := range sortedKeys(m) {
				if err := c.schema(m[name], ptr+"/"+jsonx.EscapePointer(k)+"/"+jsonx.EscapePointer(name)); err != nil {
					return err
				}
			}
		}
	}
	return nil
}

func (c *checker) list(list []any, ptr string, nonEmpty bool) error {
	if nonEmpty && len(list) == 0 {
		return invalid(ptr, "must be a non-empty array of schemas")
	}
	for i, v := range list {
		if err := c.schema(v, ptr+"/"+strconv.Itoa(i)); err != nil {
			return err
		}
	}
	return nil
}

func checkType(t any, ptr string) error {
	switch t := t.(type) {
	case string:
		if !typeNames[t] {
			return invalid(ptr, fmt.Sprintf("unknown type %q", t))
		}
		return nil
	case []any:
		if len(t) == 0 {
			return invalid(ptr, "must not be an empty array")
		}
		seen := map[string]bool{}
		for i, e := range t {
			name, ok := e.(string)
			if !ok || !typeNames[name] {
				return invalid(ptr+"/"+strconv.Itoa(i), fmt.Sprintf("unknown type %v", e))
			}
			if seen[name] {
				return invalid(ptr, fmt.Sprintf("type %q listed twice", name))
			}
			seen[name] = true
		}
		return nil
	}
	return invalid(ptr, "must be a type name or an array of type names")
}

func isNumber(v any) bool { _, ok := v.(json.Number); return ok }

func isCount(v any) bool {
	n, ok := v.(json.Number)
	if !ok {
		return false
	}
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.IsInt() && r.Sign() >= 0
}

func positive(n json.Number) bool {
	r, ok := new(big.Rat).SetString(string(n))
	return ok && r.Sign() > 0
}

func isStringArray(v any) bool {
	list, ok := v.([]any)
	if !ok {
		return false
	}
	for _, e := range list {
		if _, ok := e.(string); !ok {
			return false
		}
	}
	return true
}

func invalid(ptr, msg string) error {
	if ptr == "" {
		ptr = "(root)"
	}
	return fmt.Errorf("%w at %s: %s", ErrInvalidSchema, ptr, msg)
}
