package schema

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/kaptinlin/jsonschema"
)

// Violation is one broken rule in a validated instance.
type Violation struct {
	// Pointer is the JSON pointer of the offending value within the
	// instance: "" for the root, "/a/0/b" for a nested value.
	Pointer string
	// Keyword is the schema keyword whose rule is broken, such as
	// "required", "type" or "maximum". An instance that is not JSON gives
	// "json"; a property refused by "additionalProperties": false gives
	// "additionalProperties" at the property's pointer.
	Keyword string
	// Message explains the violation in English.
	Message string
}

// Validate checks instance against the schema and returns every violation,
// sorted by pointer, then keyword, then message; nil means valid. An
// instance that is not a single JSON value (including an empty one, and
// one with a duplicate object key) gives one violation with keyword "json".
//
// Failures inside "anyOf", "oneOf", "not", "if", "contains" and
// "propertyNames" are reported once, at the applicator, not per branch.
// Failures under "properties", "items", "allOf", "$ref" and the other
// applicators that require every subschema to hold are reported at the
// innermost value.
func (s *Schema) Validate(instance json.RawMessage) []Violation {
	if s.fast != nil {
		return s.fast.validate(instance)
	}
	if v, ok := oversizeNumber(instance); ok {
		return []Violation{v} // the fast path needs no such limit
	}
	return s.validateSlow(instance)
}

// validateSlow validates with the library. Schemas outside the fast-path
// subset always take it; tests call it to compare both paths.
func (s *Schema) validateSlow(instance json.RawMessage) []Violation {
	if s.serial {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	result := s.compiled.ValidateJSON(instance)
	if result.IsValid() {
		return nil
	}
	var vs []Violation
	collect(result, "", "", &vs)
	return sortViolations(vs)
}

// sortViolations sorts by pointer, then keyword, then message, and drops
// repeats.
func sortViolations(vs []Violation) []Violation {
	slices.SortFunc(vs, func(a, b Violation) int {
		if c := strings.Compare(a.Pointer, b.Pointer); c != 0 {
			return c
		}
		if c := strings.Compare(a.Keyword, b.Keyword); c != 0 {
			return c
		}
		return strings.Compare(a.Message, b.Message)
	})
	return slices.Compact(vs)
}

// descend lists the applicators whose failures are explained by their
// subschemas' failures; the others (anyOf, oneOf, not, …) are reported
// themselves.
var descend = map[string]bool{
	"properties": true, "patternProperties": true, "additionalProperties": true,
	"items": true, "prefixItems": true, "additionalItems": true,
	"allOf": true, "$ref": true, "$dynamicRef": true, "then": true, "else": true,
	"dependentSchemas": true, "unevaluatedProperties": true, "unevaluatedItems": true,
}

// collect walks a result tree. Instance locations in the tree are relative
// to the parent, so ptr accumulates them; via is the keyword that led here.
func collect(r *jsonschema.EvaluationResult, ptr, via string, out *[]Violation) {
	explained := map[string]bool{}
	for _, d := range r.Details {
		if !d.Valid {
			explained[applicator(d.EvaluationPath)] = true
		}
	}
	for kw, e := range r.Errors {
		if descend[kw] && (explained[kw] || (unlabelled[kw] && explained[""])) {
			continue
		}
		*out = append(*out, violation(ptr, via, kw, e))
	}
	missing := missingProperties(r)
	for _, d := range r.Details {
		kw := applicator(d.EvaluationPath)
		if d.Valid || (kw != "" && !descend[kw]) {
			continue
		}
		if name, ok := strings.CutPrefix(d.EvaluationPath, "/properties/"); ok && missing[name] {
			// The library also checks a missing required property's
			// schema against null; "required" already reports it.
			continue
		}
		loc := d.InstanceLocation
		if objectApplicators[kw] && loc != "" {
			// The library does not escape property names in locations.
			loc = "/" + escapePointer(loc[1:])
		}
		collect(d, ptr+loc, kw, out)
	}
}

// missingProperties returns the names a "required" error of r reports
// missing. The library lists them in its parameters as 'a' or 'a', 'b'.
func missingProperties(r *jsonschema.EvaluationResult) map[string]bool {
	e, ok := r.Errors["required"]
	if !ok {
		return nil
	}
	list, _ := e.Params["property"].(string)
	if list == "" {
		list, _ = e.Params["properties"].(string)
	}
	if len(list) < 2 {
		return nil
	}
	missing := map[string]bool{}
	for _, name := range strings.Split(list[1:len(list)-1], "', '") {
		missing[name] = true
	}
	return missing
}

// objectApplicators hold one child result per property, located at
// "/<property name>".
var objectApplicators = map[string]bool{
	"properties": true, "patternProperties": true,
	"additionalProperties": true, "unevaluatedProperties": true,
}

// unlabelled lists the keywords whose child results the library may leave
// with an empty evaluation path.
var unlabelled = map[string]bool{"$ref": true, "$dynamicRef": true, "then": true, "else": true}

// applicator returns the keyword of a child result: the first segment of
// its evaluation path ("" for the unlabelled results of "$ref", "else" and
// the like).
func applicator(evalPath string) string {
	seg, _, _ := strings.Cut(strings.TrimPrefix(evalPath, "/"), "/")
	return seg
}

func violation(ptr, via, kw string, e *jsonschema.EvaluationError) Violation {
	v := Violation{Pointer: ptr, Keyword: kw, Message: e.Error()}
	switch {
	case e.Code == "invalid_json":
		v.Keyword, v.Message = jsonViolation.Keyword, jsonViolation.Message
	case e.Code == "false_schema_mismatch" && (via == "additionalProperties" || via == "unevaluatedProperties"):
		v.Keyword, v.Message = via, "additional property is not allowed"
	case e.Code == "false_schema_mismatch":
		v.Keyword, v.Message = "false", "no value is allowed here"
	}
	return v
}

// FormatViolations renders violations as text a model can act on: a first
// line "invalid arguments:", then one line per violation,
// "- <pointer>: <message> (<keyword>)", with "(root)" for the empty
// pointer. It returns "" for no violations.
func FormatViolations(vs []Violation) string {
	if len(vs) == 0 {
		return ""
	}
	var b strings.Builder
	b.WriteString("invalid arguments:")
	for _, v := range vs {
		p := v.Pointer
		if p == "" {
			p = "(root)"
		}
		b.WriteString("\n- ")
		b.WriteString(p)
		b.WriteString(": ")
		b.WriteString(v.Message)
		b.WriteString(" (")
		b.WriteString(v.Keyword)
		b.WriteString(")")
	}
	return b.String()
}

// Number limits for the library path: its number handling takes time that
// grows with the square of an exponent (1e-60000 against a minimum takes
// most of a second) and reading a literal of a million digits takes
// seconds, so such numbers are refused before it sees them.
const (
	maxNumberDigits   = 400
	maxNumberExponent = 400
)

// oversizeNumber finds the first number literal in instance that has more
// than maxNumberDigits digits or an exponent beyond maxNumberExponent, and
// returns the violation that reports it.
func oversizeNumber(instance json.RawMessage) (Violation, bool) {
	inString := false
	for i := 0; i < len(instance); i++ {
		c := instance[i]
		switch {
		case inString:
			if c == '\\' {
				i++
			} else if c == '"' {
				inString = false
			}
		case c == '"':
			inString = true
		case c == '-' || (c >= '0' && c <= '9'):
			end := i
			for end < len(instance) && strings.IndexByte("+-0123456789.eE", instance[end]) >= 0 {
				end++
			}
			if tooBig(instance[i:end]) {
				return Violation{Keyword: "number", Message: fmt.Sprintf(
					"a number has more than %d digits or an exponent beyond %d; such numbers are not accepted",
					maxNumberDigits, maxNumberExponent)}, true
			}
			i = end - 1
		}
	}
	return Violation{}, false
}

// tooBig reports whether a number literal exceeds the limits.
func tooBig(num []byte) bool {
	mant, exp, _ := strings.Cut(strings.ToLower(string(num)), "e")
	if len(mant) > maxNumberDigits+2 { // sign and point
		return true
	}
	if exp == "" {
		return false
	}
	e, err := strconv.Atoi(exp)
	return err != nil || e > maxNumberExponent || e < -maxNumberExponent
}
