package wirecheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	"github.com/kaptinlin/jsonschema"
)

// maxSchemaProblems caps how many schema errors one check reports.
const maxSchemaProblems = 8

// summaryKeywords are keywords whose errors only say that something below
// them failed; the failures below are reported instead.
var summaryKeywords = []string{"properties", "items", "prefixItems", "$ref", "allOf", "additionalProperties", "patternProperties"}

// schemaProblems turns a failed validation result for instance v into
// problems, each at its instance location (prefixed with base) and naming
// the failed keyword and its schema path. Failed anyOf/oneOf are reported
// as such, without the failures of each branch. The validator also checks
// absent required properties against their schemas; those echoes are
// dropped, since the "required" error says it.
func schemaProblems(res *jsonschema.EvaluationResult, v any, base string) []Problem {
	var problems []Problem
	var walk func(r *jsonschema.EvaluationResult, inst, eval string)
	walk = func(r *jsonschema.EvaluationResult, inst, eval string) {
		inst += r.InstanceLocation
		eval += r.EvaluationPath
		if !exists(v, inst) {
			return
		}
		keys := make([]string, 0, len(r.Errors))
		for k := range r.Errors {
			if !slices.Contains(summaryKeywords, k) {
				keys = append(keys, k)
			}
		}
		slices.Sort(keys)
		for _, k := range keys {
			problems = append(problems, Problem{
				Pointer: base + inst,
				Message: fmt.Sprintf("%s [%s at #%s]", r.Errors[k].Error(), k, eval),
			})
		}
		for _, d := range r.Details {
			if d.Valid || strings.HasPrefix(d.EvaluationPath, "/anyOf/") || strings.HasPrefix(d.EvaluationPath, "/oneOf/") {
				continue
			}
			walk(d, inst, eval)
		}
	}
	walk(res, "", "")
	if len(problems) == 0 {
		problems = append(problems, Problem{Pointer: base, Message: "does not match the schema"})
	}
	if len(problems) > maxSchemaProblems {
		n := len(problems) - maxSchemaProblems
		problems = append(problems[:maxSchemaProblems], Problem{Pointer: base, Message: fmt.Sprintf("and %d more schema errors", n)})
	}
	return problems
}

// exists reports whether JSON pointer ptr names a value inside v.
func exists(v any, ptr string) bool {
	if ptr == "" {
		return true
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = unescapeToken(tok)
		switch n := v.(type) {
		case map[string]any:
			var ok bool
			if v, ok = n[tok]; !ok {
				return false
			}
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return false
			}
			v = n[i]
		default:
			return false
		}
	}
	return true
}
