package schema

import "reflect"

// isRecursive reports whether the schema of t refers back to t, directly
// or through other types. Such named types go to $defs.
func (g *generator) isRecursive(t reflect.Type) bool {
	if r, ok := g.cycles[t]; ok {
		return r
	}
	seen := map[reflect.Type]bool{}
	var reaches func(reflect.Type) bool
	reaches = func(from reflect.Type) bool {
		for _, c := range children(from) {
			if c == t {
				return true
			}
			if !seen[c] {
				seen[c] = true
				if reaches(c) {
					return true
				}
			}
		}
		return false
	}
	r := reaches(t)
	if g.cycles == nil {
		g.cycles = map[reflect.Type]bool{}
	}
	g.cycles[t] = r
	return r
}

// children lists the types whose schemas the schema of t embeds, with
// pointers removed. It mirrors build.
func children(t reflect.Type) []reflect.Type {
	if _, ok := special(t); ok {
		return nil
	}
	var out []reflect.Type
	add := func(c reflect.Type) {
		for c.Kind() == reflect.Pointer {
			c = c.Elem()
		}
		out = append(out, c)
	}
	switch t.Kind() {
	case reflect.Pointer, reflect.Slice, reflect.Array, reflect.Map:
		add(t.Elem())
	case reflect.Struct:
		for _, f := range structFields(t) {
			add(f.typ)
		}
	}
	return out
}
