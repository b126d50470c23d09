package schema

import (
	"regexp"
	"slices"
	"strconv"
	"strings"

	"github.com/kaptinlin/jsonschema"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
)

// The library path turns the library's result tree into violations: the
// pointer from the instance locations, the keyword from each error, and
// the message from the error's code and parameters, worded by message
// (message.go) as the fast path words it. What the parameters lack (the
// value as sent, the allowed values, the missing properties) is read from
// the instance and from the library's compiled schema, both walked along
// with the result tree. library_params.go reads each error's code and
// parameters.

// libraryWalk collects the violations of one result tree.
type libraryWalk struct {
	out      []found
	patterns map[string]*regexp.Regexp   // the patternProperties compiled so far
	enums    map[*jsonschema.Schema]enum // the enums written so far
}

// frame is where the walk stands: the result's instance location (ptr;
// clipped: some token of it was clipped), the keyword that led there
// (via), the instance value (raw, as sent) and the schema (node) the
// result is about; raw and node are nil when they are not known.
type frame struct {
	ptr     string
	via     string
	clipped bool
	raw     []byte
	node    *jsonschema.Schema
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
// to the parent, so f.ptr accumulates them.
func (lw *libraryWalk) collect(r *jsonschema.EvaluationResult, f frame) {
	explained := map[string]bool{}
	for _, d := range r.Details {
		if !d.Valid {
			explained[applicator(d.EvaluationPath)] = true
		}
	}
	kids := members{raw: f.raw}
	for kw, e := range r.Errors {
		if descend[kw] && (explained[kw] || (unlabelled[kw] && explained[""])) {
			continue
		}
		lw.out = append(lw.out, found{lw.violation(r, f, kw, e, &kids), f.clipped})
	}
	var missing []string
	if e, ok := r.Errors["required"]; ok {
		missing = missingProperties(e, f.node, &kids)
	}
	refs := refSchemas(f.node)
	for _, d := range r.Details {
		kw := applicator(d.EvaluationPath)
		var node *jsonschema.Schema
		if kw == "" && len(refs) > 0 {
			node, refs = refs[0], refs[1:]
		} else if kw != "" {
			node = lw.child(f.node, d.EvaluationPath)
		}
		if d.Valid || (kw != "" && !descend[kw]) {
			continue
		}
		if name, ok := strings.CutPrefix(d.EvaluationPath, "/properties/"); ok && slices.Contains(missing, name) {
			// The library also checks a missing required property's
			// schema against null; "required" already reports it.
			continue
		}
		loc, cut := d.InstanceLocation, false
		if objectApplicators[kw] && loc != "" {
			// The library does not escape property names in locations.
			loc, cut = jsonx.Pointer(loc[1:]), len(loc)-1 > clip.Max
		}
		lw.collect(d, frame{f.ptr + loc, kw, f.clipped || cut, kids.child(kw, d.InstanceLocation), node})
	}
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

// refSchemas returns the schemas of the results of s that the library
// leaves unlabelled, in the order it adds them: "$ref", "$dynamicRef"
// (nil: which schema it resolves to depends on the dynamic scope), "else".
func refSchemas(s *jsonschema.Schema) []*jsonschema.Schema {
	if s == nil {
		return nil
	}
	var refs []*jsonschema.Schema
	if s.ResolvedRef != nil {
		refs = append(refs, s.ResolvedRef)
	}
	if s.ResolvedDynamicRef != nil {
		refs = append(refs, nil)
	}
	if s.If != nil && s.Else != nil {
		refs = append(refs, s.Else)
	}
	return refs
}

// child returns the subschema of s a labelled child result is about, for
// the applicators collect descends into; nil when it is not known.
func (lw *libraryWalk) child(s *jsonschema.Schema, evalPath string) *jsonschema.Schema {
	if s == nil {
		return nil
	}
	seg, rest, _ := strings.Cut(strings.TrimPrefix(evalPath, "/"), "/")
	switch seg {
	case "properties":
		if s.Properties != nil {
			return (*s.Properties)[rest]
		}
	case "patternProperties":
		return lw.patternSchema(s, rest)
	case "dependentSchemas":
		return s.DependentSchemas[rest]
	case "additionalProperties":
		return s.AdditionalProperties
	case "unevaluatedProperties":
		return s.UnevaluatedProperties
	case "items":
		return s.Items
	case "unevaluatedItems":
		return s.UnevaluatedItems
	case "then":
		return s.Then
	case "prefixItems":
		return at(s.PrefixItems, rest)
	case "allOf":
		return at(s.AllOf, rest)
	}
	return nil
}

func at(list []*jsonschema.Schema, index string) *jsonschema.Schema {
	i, err := strconv.Atoi(index)
	if err != nil || i < 0 || i >= len(list) {
		return nil
	}
	return list[i]
}

// patternSchema returns the schema of the one pattern of s that name
// matches; nil when several do (their results look alike).
func (lw *libraryWalk) patternSchema(s *jsonschema.Schema, name string) *jsonschema.Schema {
	if s.PatternProperties == nil {
		return nil
	}
	var match *jsonschema.Schema
	for p, sub := range *s.PatternProperties {
		re, ok := lw.patterns[p]
		if !ok {
			re, _ = regexp.Compile(p) // the library has compiled it
			lw.patterns[p] = re
		}
		if re != nil && re.MatchString(name) {
			if match != nil {
				return nil
			}
			match = sub
		}
	}
	return match
}

// members indexes the members of an object or the elements of an array
// (raw, as sent; nil: not known) the first time one is looked up.
type members struct {
	raw     []byte
	built   bool
	byName  map[string][]byte
	byIndex [][]byte
}

func (m *members) build() {
	if m.built || m.raw == nil {
		return
	}
	m.built = true
	switch m.raw[0] {
	case '{':
		m.byName = map[string][]byte{}
	case '[':
	default:
		return
	}
	for mem, i, ok := rawMembers(m.raw, 0); ok; mem, i, ok = rawMembers(m.raw, i) {
		if m.byName != nil {
			m.byName[unescape(mem.key, mem.escaped)] = mem.val
		} else {
			m.byIndex = append(m.byIndex, mem.val)
		}
	}
}

// has reports whether the object has a member named name.
func (m *members) has(name string) bool {
	m.build()
	_, ok := m.byName[name]
	return ok
}

// child returns the value a child result at loc (its instance location,
// relative to the value of m) is about, via the keyword kw.
func (m *members) child(kw, loc string) []byte {
	if loc == "" || kw == "dependentSchemas" { // which checks the object itself
		return m.raw
	}
	m.build()
	if m.byName != nil {
		return m.byName[loc[1:]]
	}
	i, err := strconv.Atoi(loc[1:])
	if err != nil || i < 0 || i >= len(m.byIndex) {
		return nil
	}
	return m.byIndex[i]
}

// missingProperties returns the properties a "required" error e reports
// missing, in the order of the schema: those of s.Required the object
// lacks, else (s or the object not known) the names the library lists in
// its parameters as 'a' or 'a', 'b'.
func missingProperties(e *jsonschema.EvaluationError, s *jsonschema.Schema, kids *members) []string {
	if s != nil && kids.raw != nil && kids.raw[0] == '{' {
		var missing []string
		for _, name := range s.Required {
			if !kids.has(name) {
				missing = append(missing, name)
			}
		}
		if len(missing) > 0 {
			return missing
		}
	}
	list, _ := e.Params["property"].(string)
	if list == "" {
		list, _ = e.Params["properties"].(string)
	}
	return unquoteList(list)
}

// unquoteList reads a list the library writes as 'a', 'b'.
func unquoteList(list string) []string {
	if len(list) < 2 {
		return nil
	}
	return strings.Split(list[1:len(list)-1], "', '")
}
