package wirecheck

import (
	"errors"
	"fmt"
	"strconv"
	"strings"
	"sync"

	json "github.com/goccy/go-json"
	"github.com/kaptinlin/jsonschema"
)

// revision is one loaded schema document: its decoded form for the strict
// walk, and its compiled form, made on first use, for validation.
type revision struct {
	name    string
	raw     []byte
	doc     map[string]any
	defsKey string // "definitions" (draft-07) or "$defs" (2020-12)
	uri     string // the document's URI inside its compiler

	once     sync.Once
	compiler *jsonschema.Compiler
	compErr  error

	mu      sync.Mutex
	schemas map[string]*jsonschema.Schema // compiled, by location "#/..."
}

// newRevision decodes a schema document without compiling it.
func newRevision(name string, raw []byte) (*revision, error) {
	var doc map[string]any
	if err := json.Unmarshal(raw, &doc); err != nil {
		return nil, err
	}
	r := &revision{
		name:    name,
		raw:     raw,
		doc:     doc,
		uri:     "https://wirecheck.invalid/" + name + "/schema.json",
		schemas: make(map[string]*jsonschema.Schema),
	}
	switch {
	case doc["$defs"] != nil:
		r.defsKey = "$defs"
	case doc["definitions"] != nil:
		r.defsKey = "definitions"
	default:
		return nil, errors.New("neither $defs nor definitions")
	}
	return r, nil
}

// defs returns the document's definitions by name.
func (r *revision) defs() map[string]any {
	defs, _ := r.doc[r.defsKey].(map[string]any)
	return defs
}

// hasDef reports whether the revision defines name.
func (r *revision) hasDef(name string) bool {
	_, ok := r.defs()[name].(map[string]any)
	return ok
}

// defLoc returns the schema location of definition name, e.g.
// "#/definitions/Tool".
func (r *revision) defLoc(name string) string {
	return "#/" + r.defsKey + "/" + escapeToken(name)
}

// schemaAt returns the compiled schema at location loc, compiling the
// document on first use.
func (r *revision) schemaAt(loc string) (*jsonschema.Schema, error) {
	r.once.Do(func() {
		c := jsonschema.NewCompiler()
		if _, err := c.Compile(r.raw, r.uri); err != nil {
			r.compErr = fmt.Errorf("wirecheck: compiling %s schema: %w", r.name, err)
			return
		}
		r.compiler = c
	})
	if r.compErr != nil {
		return nil, r.compErr
	}
	r.mu.Lock()
	defer r.mu.Unlock()
	if s, ok := r.schemas[loc]; ok {
		return s, nil
	}
	s, err := r.compiler.Schema(r.uri + loc)
	if err == nil && s == nil {
		err = errors.New("not found")
	}
	if err != nil {
		return nil, fmt.Errorf("wirecheck: %s schema location %s: %w", r.name, loc, err)
	}
	r.schemas[loc] = s
	return s, nil
}

// node returns the decoded schema at location loc ("#" or "#/a/b").
func (r *revision) node(loc string) (any, error) {
	ptr, ok := strings.CutPrefix(loc, "#")
	if !ok {
		return nil, fmt.Errorf("wirecheck: %s: only local references are supported, got %q", r.name, loc)
	}
	var cur any = r.doc
	if ptr == "" {
		return cur, nil
	}
	for _, tok := range strings.Split(strings.TrimPrefix(ptr, "/"), "/") {
		tok = unescapeToken(tok)
		switch n := cur.(type) {
		case map[string]any:
			cur = n[tok]
		case []any:
			i, err := strconv.Atoi(tok)
			if err != nil || i < 0 || i >= len(n) {
				return nil, fmt.Errorf("wirecheck: %s: bad location %s", r.name, loc)
			}
			cur = n[i]
		default:
			cur = nil
		}
		if cur == nil {
			return nil, fmt.Errorf("wirecheck: %s: bad location %s", r.name, loc)
		}
	}
	return cur, nil
}

// valid reports whether the instance (raw JSON) validates against the
// schema at loc.
func (r *revision) valid(loc string, raw []byte) (bool, error) {
	s, err := r.schemaAt(loc)
	if err != nil {
		return false, err
	}
	return s.ValidateJSON(raw).IsValid(), nil
}

// check validates the instance against the schema at loc and, when that
// passes, runs the strict walk. raw and v are the same instance, as JSON
// and decoded. base is prefixed to every problem pointer.
func (r *revision) check(loc string, raw []byte, v any, base string) ([]Problem, error) {
	s, err := r.schemaAt(loc)
	if err != nil {
		return nil, err
	}
	if res := s.ValidateJSON(raw); !res.IsValid() {
		return schemaProblems(res, v, base), nil
	}
	n, err := r.node(loc)
	if err != nil {
		return nil, err
	}
	w := &walker{r: r}
	problems := w.check([]frame{{node: n, loc: loc}}, v, base, false)
	return problems, w.err
}

// escapeToken escapes one JSON pointer reference token.
func escapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~", "~0"), "/", "~1")
}

// unescapeToken undoes escapeToken.
func unescapeToken(s string) string {
	return strings.ReplaceAll(strings.ReplaceAll(s, "~1", "/"), "~0", "~")
}
