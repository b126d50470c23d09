package schema

import (
	"fmt"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/kaptinlin/jsonschema"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// Violation is one broken rule in a validated instance.
type Violation struct {
	// Pointer is the JSON pointer of the offending value within the
	// instance: "" for the root, "/a/0/b" for a nested value. A reference
	// token longer than clip.Max bytes (see package internal/clip) is
	// clipped, as [Pointer] does, so that a 10 MiB key gives a short
	// pointer; such a pointer names the value for a reader but may not
	// resolve.
	Pointer string
	// Keyword is the schema keyword whose rule is broken, such as
	// "required", "type" or "maximum". An instance that is not JSON gives
	// "json"; a property refused by "additionalProperties": false gives
	// "additionalProperties" at the property's pointer.
	Keyword string
	// Message explains the violation in English. Client input it quotes
	// (a value not in an enum, a number out of range) is clipped like
	// pointer tokens.
	Message string
}

// Validate checks instance against the schema and returns the violations,
// sorted by pointer, then keyword, then message, with repeats dropped; nil
// means valid. An instance that is not a single JSON value (including an
// empty one, and one with a duplicate object key) gives one violation with
// keyword "json".
//
// At most [MaxViolations] violations are returned: when there are more,
// the first MaxViolations (in that order) are followed by one entry with
// Keyword [MoreKeyword] whose Message gives the exact number left out,
// "… and 999980 more". The fast path (see the package documentation)
// builds a violation's pointer and message only while it may still be
// among the first MaxViolations, and past that only counts, so a million
// violations cost little more than the scan. Two violations whose
// pointers were clipped are never taken for repeats: they may be two
// different keys.
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
	if tooDeep(instance) {
		return []Violation{depthViolation} // one nesting limit on both paths
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
	var fs []found
	collect(result, "", "", false, &fs)
	return capFound(fs)
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
// to the parent, so ptr accumulates them (clipped: some token of it was
// clipped); via is the keyword that led here.
func collect(r *jsonschema.EvaluationResult, ptr, via string, clipped bool, out *[]found) {
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
		*out = append(*out, found{violation(ptr, via, kw, e), clipped})
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
		loc, cut := d.InstanceLocation, false
		if objectApplicators[kw] && loc != "" {
			// The library does not escape property names in locations.
			loc, cut = Pointer(loc[1:]), len(loc)-1 > clip.Max
		}
		collect(d, ptr+loc, kw, clipped || cut, out)
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
	v := Violation{Pointer: ptr, Keyword: kw, Message: message(e)}
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

// clientParams are the parameters of the library's messages that repeat
// the instance: the value itself, numbers, property names and indices.
var clientParams = map[string]bool{
	"received": true, "value": true, "property": true, "properties": true,
	"index": true, "indexs": true, "indexes": true,
}

// message is e.Error() with the parameters that repeat the instance
// clipped (the names "required" lists are the schema's, not clipped). Like
// the library, it fills in the parameters in map order.
func message(e *jsonschema.EvaluationError) string {
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

// tooDeep reports whether instance nests deeper than jsonx.MaxDepth, the
// limit the wire and the fast path keep; the library would allow more.
func tooDeep(instance []byte) bool {
	sc := jsonx.Scanner{Mode: jsonx.Pairs}
	sc.Scan(instance)
	return sc.TooDeep
}
