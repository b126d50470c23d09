package ask

import (
	"fmt"
	"strconv"
	"strings"
	"sync"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/schema"
)

// checkAnswer checks an accepted form's content against the form: it
// returns nil, an [*AnswerError] listing every problem, one sentence per
// field and rule, or an error of its own when the form itself cannot be
// compiled. The form is validated by package schema, as a JSON Schema
// that also refuses fields the form does not have and a choice made twice
// in a multiple choice.
func checkAnswer(form protocol.RequestedSchema, content protocol.Object) error {
	s, err := compiledForm(form)
	if err != nil {
		return err
	}
	instance := []byte("{}")
	if content != nil {
		if instance, err = json.Marshal(content); err != nil {
			return &AnswerError{Problems: []string{"the content is not JSON: " + err.Error()}}
		}
	}
	var found []string
	if vs := s.Validate(instance); len(vs) > 0 {
		found = problems(form, content, vs)
	}
	found = append(found, formatProblems(form, content)...)
	if len(found) == 0 {
		return nil
	}
	return &AnswerError{Problems: found}
}

// maxCompiledForms bounds the cache of compiled forms.
const maxCompiledForms = 256

// compiledForms caches compiled forms by their JSON, oldest first out.
var compiledForms struct {
	mu    sync.Mutex
	m     map[string]*schema.Schema
	order []string // keys of m, oldest first
}

// compiledForm returns form compiled for checking answers (see
// checkSchema), from the cache when it was compiled before.
func compiledForm(form protocol.RequestedSchema) (*schema.Schema, error) {
	raw, err := json.Marshal(form)
	if err != nil {
		return nil, fmt.Errorf("ask: the form does not encode: %w", err)
	}
	key := string(raw)
	c := &compiledForms
	c.mu.Lock()
	s, ok := c.m[key]
	c.mu.Unlock()
	if ok {
		return s, nil
	}
	doc, err := checkSchema(raw)
	if err == nil {
		s, err = schema.Compile(doc)
	}
	if err != nil {
		return nil, fmt.Errorf("ask: the form cannot be checked: %w", err)
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	if _, ok := c.m[key]; !ok {
		if c.m == nil {
			c.m = map[string]*schema.Schema{}
		}
		if len(c.order) == maxCompiledForms {
			delete(c.m, c.order[0])
			c.order = append(c.order[:0], c.order[1:]...)
		}
		c.m[key] = s
		c.order = append(c.order, key)
	}
	return s, nil
}

// checkSchema returns the JSON Schema an answer to the form raw must
// satisfy: the form, with "additionalProperties": false, and
// "uniqueItems": true on each multiple choice.
func checkSchema(raw []byte) ([]byte, error) {
	var doc map[string]json.RawMessage
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	var props map[string]map[string]json.RawMessage
	if err := json.Unmarshal(doc["properties"], &props); err != nil {
		return nil, err
	}
	for _, p := range props {
		if string(p["type"]) == `"array"` {
			p["uniqueItems"] = json.RawMessage("true")
		}
	}
	var err error
	if doc["properties"], err = json.Marshal(props); err != nil {
		return nil, err
	}
	doc["additionalProperties"] = json.RawMessage("false")
	return json.Marshal(doc)
}

// problems words the violations vs of content against form, one sentence
// each, in the order of the violations (required fields in the form's
// order). A type violation hides the other violations of the same value.
func problems(form protocol.RequestedSchema, content protocol.Object, vs []schema.Violation) []string {
	typed := map[string]bool{}
	for _, v := range vs {
		if v.Keyword == "type" {
			typed[v.Pointer] = true
		}
	}
	var out []string
	for _, v := range vs {
		tokens := pointerTokens(v.Pointer)
		switch {
		case v.Keyword == schema.MoreKeyword:
			out = append(out, v.Message+" problems")
		case v.Keyword == "required" && len(tokens) == 0:
			n := len(out)
			for _, name := range form.Required {
				if _, ok := content[name]; !ok {
					out = append(out, fmt.Sprintf("field %q is required but missing", name))
				}
			}
			if len(out) == n {
				out = append(out, v.Message)
			}
		case v.Keyword == "additionalProperties" && len(tokens) == 1:
			out = append(out, fmt.Sprintf("field %q is not in the form", tokens[0]))
		case typed[v.Pointer] && v.Keyword != "type":
		case len(tokens) == 1:
			out = append(out, fmt.Sprintf("field %q: %s", tokens[0], fieldProblem(form, content, tokens[0], v)))
		case len(tokens) == 2:
			out = append(out, fmt.Sprintf("field %q: the choice %s", tokens[0], itemProblem(form, content, tokens, v)))
		default:
			out = append(out, fmt.Sprintf("%s: %s", orRoot(v.Pointer), v.Message))
		}
	}
	return out
}

// fieldProblem words violation v of the field name: in the validator's
// words, except for a titled choice, which says what the choices are, the
// number of choices, which says how many were made, and a choice made
// twice, which names it.
func fieldProblem(form protocol.RequestedSchema, content protocol.Object, name string, v schema.Violation) string {
	def := form.Properties[name]
	switch v.Keyword {
	case "oneOf":
		if s := def.TitledSingleSelectEnum; s != nil {
			return jsonx.ValueText(content[name]) + " should be one of " + quotedConsts(s.OneOf)
		}
	case "minItems", "maxItems", "uniqueItems":
		var items []json.RawMessage
		if json.Unmarshal(content[name], &items) != nil {
			break
		}
		if v.Keyword == "uniqueItems" {
			if twice := repeated(items); twice != nil {
				return jsonx.ValueText(twice) + " is chosen more than once"
			}
			break
		}
		lo, hi := choiceBounds(def)
		if v.Keyword == "minItems" && lo != nil {
			return fmt.Sprintf("at least %s should be chosen, not %d", choiceCount(*lo), len(items))
		}
		if v.Keyword == "maxItems" && hi != nil {
			return fmt.Sprintf("at most %s should be chosen, not %d", choiceCount(*hi), len(items))
		}
	}
	return v.Message
}

// itemProblem words violation v of the item at tokens (field name and
// index) of a multiple choice.
func itemProblem(form protocol.RequestedSchema, content protocol.Object, tokens []string, v schema.Violation) string {
	if s := form.Properties[tokens[0]].TitledMultiSelectEnum; s != nil && v.Keyword == "anyOf" {
		var items []json.RawMessage
		i, err := strconv.Atoi(tokens[1])
		if json.Unmarshal(content[tokens[0]], &items) == nil && err == nil && i >= 0 && i < len(items) {
			return jsonx.ValueText(items[i]) + " should be one of " + quotedConsts(s.Items.AnyOf)
		}
	}
	return v.Message
}

// repeated returns the first item of items equal to an earlier one, or
// nil. Items are compared as the text sent, which for the strings of a
// multiple choice is close enough: an item written with other escapes
// than its repeat gets the validator's own words.
func repeated(items []json.RawMessage) json.RawMessage {
	seen := make(map[string]bool, len(items))
	for _, it := range items {
		if seen[string(it)] {
			return it
		}
		seen[string(it)] = true
	}
	return nil
}

// choiceBounds returns the minItems and maxItems of a multiple choice.
func choiceBounds(def protocol.PrimitiveSchemaDefinition) (lo, hi *int64) {
	if s := def.UntitledMultiSelectEnum; s != nil {
		return s.MinItems, s.MaxItems
	}
	if s := def.TitledMultiSelectEnum; s != nil {
		return s.MinItems, s.MaxItems
	}
	return nil, nil
}

// choiceCount writes n choices: "1 choice", "3 choices".
func choiceCount(n int64) string {
	if n == 1 {
		return "1 choice"
	}
	return strconv.FormatInt(n, 10) + " choices"
}

// quotedConsts lists the values of titled choices as JSON strings.
func quotedConsts(options []protocol.EnumOption) string {
	quoted := make([]string, len(options))
	for i, o := range options {
		quoted[i] = string(jsonx.AppendString(nil, o.Const))
	}
	return strings.Join(quoted, ", ")
}

// pointerTokens splits a JSON pointer into its reference tokens,
// unescaped.
func pointerTokens(ptr string) []string {
	if ptr == "" {
		return nil
	}
	tokens := strings.Split(strings.TrimPrefix(ptr, "/"), "/")
	for i, t := range tokens {
		tokens[i] = strings.ReplaceAll(strings.ReplaceAll(t, "~1", "/"), "~0", "~")
	}
	return tokens
}

// orRoot names the root for an empty pointer.
func orRoot(ptr string) string {
	if ptr == "" {
		return "the answer"
	}
	return ptr
}
