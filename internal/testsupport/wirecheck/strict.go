package wirecheck

import (
	"fmt"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"
)

// openProperties lists property names whose object value the strict walk
// treats as open (extra keys allowed) whatever the schema says there: the
// spec describes _meta as an extensible map, and tool input and output
// schemas as arbitrary JSON Schema objects, even where a revision's schema
// declares only a few of their keys. Keys the schema does declare there are
// still checked.
var openProperties = []string{"_meta", "inputSchema", "outputSchema"}

// frame is one schema that applies to the instance at hand.
type frame struct {
	node     any    // a decoded schema: map[string]any or bool
	loc      string // its location in the document, e.g. "#/definitions/Tool"
	branched bool   // its anyOf/oneOf was already resolved by the caller
}

// walker runs the strict pass over one instance. It assumes the instance
// already passed schema validation.
type walker struct {
	r   *revision
	err error // first internal failure (a schema location that will not compile)
}

// check returns the undeclared keys found in inst, which sits at pointer
// ptr and is described by all of frames at once. open marks the instance
// as an open object (see openProperties).
func (w *walker) check(frames []frame, inst any, ptr string, open bool) []Problem {
	frames = w.expand(frames)
	for i, f := range frames {
		n, _ := f.node.(map[string]any)
		if f.branched {
			continue
		}
		for _, kw := range []string{"anyOf", "oneOf"} {
			if branches, ok := n[kw].([]any); ok {
				return w.checkBranches(frames, i, kw, branches, inst, ptr, open)
			}
		}
	}
	switch v := inst.(type) {
	case map[string]any:
		return w.checkObject(frames, v, ptr, open)
	case []any:
		return w.checkArray(frames, v, ptr)
	}
	return nil
}

// expand flattens $ref and allOf, since every schema they point to applies
// too. A location that appears twice is kept once; it counts as branched if
// either copy was.
func (w *walker) expand(frames []frame) []frame {
	index := make(map[string]int)
	var out []frame
	var add func(f frame)
	add = func(f frame) {
		if i, ok := index[f.loc]; ok {
			out[i].branched = out[i].branched || f.branched
			return
		}
		index[f.loc] = len(out)
		out = append(out, f)
		n, ok := f.node.(map[string]any)
		if !ok {
			return
		}
		if ref, ok := n["$ref"].(string); ok {
			target, err := w.r.node(ref)
			if err != nil {
				w.fail(err)
			} else {
				add(frame{node: target, loc: ref})
			}
		}
		if all, ok := n["allOf"].([]any); ok {
			for i, sub := range all {
				add(frame{node: sub, loc: f.loc + "/allOf/" + strconv.Itoa(i)})
			}
		}
	}
	for _, f := range frames {
		add(f)
	}
	return out
}

// checkBranches resolves the anyOf/oneOf of frames[i]: the instance passes
// when, together with the other frames, one branch it validates against
// declares all its keys. Otherwise the problems of the first such branch
// are returned.
func (w *walker) checkBranches(frames []frame, i int, kw string, branches []any, inst any, ptr string, open bool) []Problem {
	raw, err := json.Marshal(inst)
	if err != nil {
		w.fail(err)
		return nil
	}
	var first []Problem
	for b, branch := range branches {
		loc := frames[i].loc + "/" + kw + "/" + strconv.Itoa(b)
		ok, err := w.r.valid(loc, raw)
		if err != nil {
			w.fail(err)
			return nil
		}
		if !ok {
			continue
		}
		next := slices.Clone(frames)
		next[i].branched = true
		next = append(next, frame{node: branch, loc: loc})
		problems := w.check(next, inst, ptr, open)
		if len(problems) == 0 {
			return nil
		}
		if first == nil {
			first = problems
		}
	}
	return first
}

// checkObject reports keys of obj no frame declares, and walks into the
// values of the others.
func (w *walker) checkObject(frames []frame, obj map[string]any, ptr string, open bool) []Problem {
	props := make(map[string][]frame)
	var extra []frame   // additionalProperties schemas
	var declarer *frame // a frame with "properties", to name in messages
	closed := false     // additionalProperties: false somewhere
	for i, f := range frames {
		n, _ := f.node.(map[string]any)
		if p, ok := n["properties"].(map[string]any); ok {
			if declarer == nil {
				declarer = &frames[i]
			}
			for k, s := range p {
				props[k] = append(props[k], frame{node: s, loc: f.loc + "/properties/" + escapeToken(k)})
			}
		}
		switch a := n["additionalProperties"].(type) {
		case bool:
			open = open || a
			closed = closed || !a
		case map[string]any:
			open = true
			extra = append(extra, frame{node: a, loc: f.loc + "/additionalProperties"})
		}
	}
	if declarer == nil && !closed {
		open = true
	}
	keys := make([]string, 0, len(obj))
	for k := range obj {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	var problems []Problem
	for _, k := range keys {
		child := ptr + "/" + escapeToken(k)
		switch {
		case props[k] != nil:
			problems = append(problems, w.check(props[k], obj[k], child, slices.Contains(openProperties, k))...)
		case extra != nil:
			problems = append(problems, w.check(extra, obj[k], child, false)...)
		case !open:
			problems = append(problems, Problem{
				Pointer: child,
				Message: fmt.Sprintf("key %q is not defined by %s %s", k, w.r.name, w.r.describe(declarer)),
			})
		}
	}
	return problems
}

// checkArray walks into the elements of arr with the frames' item schemas.
func (w *walker) checkArray(frames []frame, arr []any, ptr string) []Problem {
	var items []frame
	var tuples []frame
	for _, f := range frames {
		n, _ := f.node.(map[string]any)
		switch it := n["items"].(type) {
		case map[string]any:
			items = append(items, frame{node: it, loc: f.loc + "/items"})
		case []any: // draft-07 tuple form
			tuples = append(tuples, f)
		}
		if it, ok := n["prefixItems"].([]any); ok && len(it) > 0 {
			tuples = append(tuples, f)
		}
	}
	var problems []Problem
	for i, el := range arr {
		elFrames := slices.Clone(items)
		for _, f := range tuples {
			n := f.node.(map[string]any)
			kw := "prefixItems"
			list, ok := n[kw].([]any)
			if !ok {
				kw = "items"
				list, _ = n[kw].([]any)
			}
			if i < len(list) {
				elFrames = append(elFrames, frame{node: list[i], loc: f.loc + "/" + kw + "/" + strconv.Itoa(i)})
			}
		}
		if len(elFrames) > 0 {
			problems = append(problems, w.check(elFrames, el, ptr+"/"+strconv.Itoa(i), false)...)
		}
	}
	return problems
}

// fail records the first internal failure.
func (w *walker) fail(err error) {
	if w.err == nil {
		w.err = err
	}
}

// describe names the schema place f: its definition, then the properties
// leading to it, e.g. "Tool" or "ServerCapabilities.tools" or
// "CallToolResult.content[]".
func (r *revision) describe(f *frame) string {
	if f == nil {
		return "schema"
	}
	toks := strings.Split(strings.TrimPrefix(f.loc, "#/"), "/")
	if len(toks) < 2 || toks[0] != r.defsKey {
		return f.loc
	}
	var b strings.Builder
	b.WriteString(unescapeToken(toks[1]))
	for i := 2; i < len(toks); i++ {
		switch toks[i] {
		case "properties":
			if i+1 < len(toks) {
				i++
				b.WriteString("." + unescapeToken(toks[i]))
			}
		case "items":
			b.WriteString("[]")
		case "additionalProperties":
			b.WriteString(".*")
		case "anyOf", "oneOf", "allOf", "prefixItems":
			i++ // the branch index says nothing useful
		}
	}
	return b.String()
}
