package probe

import (
	"cmp"
	"slices"
)

// Patterns is what a probe answers: the patterns a call with these
// arguments needs, and those any call of the tool needs.
type Patterns struct {
	// Args are the patterns that depend on the arguments
	// (forge.patterns).
	Args []Pattern
	// Always are the patterns that hold whatever the arguments are
	// (forge.always).
	Always []Pattern
}

// Canonical returns p with each list sorted (by verb, then target: the
// byte order of the patterns' text) and without duplicates, and with every
// pattern of Always removed from Args, since it holds anyway. The lists are
// never nil.
//
// Sorting, rather than keeping the order the tool found its needs in, makes
// the same set of needs the same list whatever the order of the arguments,
// which is what a host policy or a cache keyed on the reply wants.
func (p Patterns) Canonical() Patterns {
	always := sortedUnique(p.Always)
	args := slices.DeleteFunc(sortedUnique(p.Args), func(x Pattern) bool {
		_, found := slices.BinarySearchFunc(always, x, comparePatterns)
		return found
	})
	return Patterns{Args: args, Always: always}
}

// Check reports the first pattern of p that is not canonical.
func (p Patterns) Check() error {
	for _, list := range [][]Pattern{p.Args, p.Always} {
		for _, pat := range list {
			if err := pat.Check(); err != nil {
				return err
			}
		}
	}
	return nil
}

// Meta returns the _meta object of the probe reply for p, made canonical:
// [PatternsKey] and [AlwaysKey], each a JSON array of strings (empty, never
// null). It does not check the patterns; see [Patterns.Check].
func (p Patterns) Meta() map[string]any {
	c := p.Canonical()
	return map[string]any{PatternsKey: texts(c.Args), AlwaysKey: texts(c.Always)}
}

// comparePatterns orders patterns by verb, then target. No verb is a prefix
// of another, so this is the byte order of their text.
func comparePatterns(a, b Pattern) int {
	return cmp.Or(cmp.Compare(a.Verb, b.Verb), cmp.Compare(a.Target, b.Target))
}

// sortedUnique returns a sorted copy of ps without duplicates, never nil.
func sortedUnique(ps []Pattern) []Pattern {
	out := append(make([]Pattern, 0, len(ps)), ps...)
	slices.SortFunc(out, comparePatterns)
	return slices.Compact(out)
}

// texts returns the wire form of each pattern, never nil.
func texts(ps []Pattern) []string {
	out := make([]string, len(ps))
	for i, p := range ps {
		out[i] = p.String()
	}
	return out
}
