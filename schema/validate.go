package schema

import (
	"regexp"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
	"github.com/kaptinlin/jsonschema"

	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// Violation is one broken rule in a validated instance.
type Violation struct {
	// Pointer is the JSON pointer of the offending value within the
	// instance: "" for the root, "/a/0/b" for a nested value. A reference
	// token longer than 64 bytes is clipped to its first 64 bytes and its
	// length, so that a 10 MiB key gives a short pointer; such a pointer
	// names the value for a reader but may not resolve.
	Pointer string
	// Keyword is the schema keyword whose rule is broken, such as
	// "required", "type" or "maximum". An instance that is not JSON gives
	// "json"; a property refused by "additionalProperties": false gives
	// "additionalProperties" at the property's pointer.
	Keyword string
	// Message explains the violation in English, in JSON terms: the
	// value as sent, then what it should be ("20 should be at most 14",
	// `"one" should be an integer, not a string`). Client input it quotes
	// (a value, a property name) is clipped like pointer tokens.
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
	fs := s.libraryFound(instance)
	if fs == nil {
		return nil
	}
	return capFound(fs)
}

// libraryFound validates with the library and returns every violation,
// in no order; nil means valid.
func (s *Schema) libraryFound(instance []byte) []found {
	if s.serial {
		s.mu.Lock()
		defer s.mu.Unlock()
	}
	result := s.compiled.ValidateJSON(instance)
	if result.IsValid() {
		return nil
	}
	var raw []byte
	if w := (walker{buf: instance}); w.document(nil) {
		start := skipSpace(instance, 0)
		raw = instance[start:valueEnd(instance, start)]
	}
	lw := libraryWalk{patterns: map[string]*regexp.Regexp{}, enums: map[*jsonschema.Schema]enum{}}
	lw.collect(result, frame{raw: raw, node: s.compiled})
	return lw.out
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
				return newViolation("", "number", &params{}), true
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
