package uritemplate

import (
	"errors"
	"maps"
	"slices"
	"strings"
	"testing"
	"time"
	"unicode/utf8"
)

// roundTrips are templates that Match splits in one way only, each with
// the values to expand from one fuzzed string s, or nil when s is outside
// what the template can give back (an empty unnamed value, an empty list
// item, a value longer than a prefix).
var roundTrips = []struct {
	tmpl string
	vals func(s string) v
}{
	{"test://template/{id}/data", func(s string) v { return nonEmpty(v{"id": s}) }},
	{"file:///{+path}", func(s string) v { return nonEmpty(v{"path": s}) }},
	{"x{/seg*}", func(s string) v {
		if slices.Contains(strings.Split(s, "/"), "") {
			return nil
		}
		return v{"seg": s}
	}},
	{"x{?q,r}", func(s string) v { return v{"q": s, "r": s} }},
	{"x{;p*}{&r}", func(s string) v { return v{"p": s, "r": s} }},
	{"x{.ext}{#frag}", func(s string) v { return nonEmpty(v{"ext": s, "frag": s}) }},
	{"{a},{b:5}", func(s string) v { return nonEmpty(v{"a": s, "b": truncate(s, 5)}) }},
	{"{x:3}/{+y}{?q:2}", func(s string) v { return nonEmpty(v{"x": truncate(s, 3), "y": s, "q": truncate(s, 2)}) }},
}

// nonEmpty returns vals, or nil if a value is empty.
func nonEmpty(vals v) v {
	for _, s := range vals {
		if s == "" {
			return nil
		}
	}
	return vals
}

// FuzzMatch checks, for any template and uri, that Parse fails only with
// a *ParseError, that Match never panics and stays fast on the uri and on
// a long repeat of it, that the values it gives are the template's, valid
// UTF-8, and expand to a uri that matches again; and, with the uri as a
// value, that Match gives back what Expand was given (roundTrips).
func FuzzMatch(f *testing.F) {
	for _, tt := range matchTests {
		f.Add(tt.tmpl, tt.uri)
	}
	f.Add("{+a}/{+b}{?q,r*}", "x/y%2Fz/w?r=1&q=2&r=3")
	f.Add("{;a,b*}{#f}", ";b=1;a;b=%C3%A9#x?y")
	parsed := make([]*Template, len(roundTrips))
	for i, rt := range roundTrips {
		tp, err := Parse(rt.tmpl)
		if err != nil {
			f.Fatal(err)
		}
		parsed[i] = tp
	}
	f.Fuzz(func(t *testing.T, tmpl, uri string) {
		checkMatch(t, tmpl, uri)
		if !utf8.ValidString(uri) {
			return
		}
		for i, rt := range roundTrips {
			vals := rt.vals(uri)
			if vals == nil {
				continue
			}
			tp := parsed[i]
			u, err := tp.Expand(vals)
			if err != nil {
				t.Fatalf("%s: Expand(%q): %v", tp, vals, err)
			}
			if got, ok := tp.Match(u); !ok || !maps.Equal(got, vals) {
				t.Fatalf("%s: Expand(%q) = %q, which matched %q, %v", tp, vals, u, got, ok)
			}
		}
	})
}

// parseCache keeps a fuzz worker's recent templates, since the fuzzer
// often changes only the uri and compiling dominates an execution.
var parseCache = map[string]*Template{}

// checkMatch is FuzzMatch's check of one template and uri.
func checkMatch(t *testing.T, tmpl, uri string) {
	tp, err := parseCache[tmpl], error(nil)
	if tp == nil {
		tp, err = Parse(tmpl)
	}
	if err != nil {
		if pe := (*ParseError)(nil); !errors.As(err, &pe) || !strings.HasPrefix(err.Error(), "uri template ") {
			t.Fatalf("Parse(%q): %T %v", tmpl, err, err)
		}
		return
	}
	if len(parseCache) >= 1000 {
		clear(parseCache)
	}
	parseCache[tmpl] = tp
	long := uri
	for uri != "" && len(long) < 2<<10 {
		long += uri
	}
	start := time.Now()
	got, ok := tp.Match(uri)
	tp.Match(long)
	if d := time.Since(start); d > 2*time.Second {
		t.Fatalf("%s: Match of %d and %d bytes took %v", tp, len(uri), len(long), d)
	}
	if !ok {
		return
	}
	for name, s := range got {
		if !slices.Contains(tp.Vars(), name) || !utf8.ValidString(s) {
			t.Fatalf("%s matched %q with %q=%q", tp, uri, name, s)
		}
	}
	u, err := tp.Expand(got)
	if err != nil {
		t.Fatalf("%s: Expand(%q): %v", tp, got, err)
	}
	// Another split of u may exceed a prefix limit (see the package doc),
	// but without prefixes u must match.
	if again, ok := tp.Match(u); !ok && !hasPrefix(tp) {
		t.Fatalf("%s matched %q as %q, but not its expansion %q (%q)", tp, uri, got, u, again)
	}
}

// hasPrefix reports whether a variable of tp has a prefix modifier.
func hasPrefix(tp *Template) bool {
	for _, p := range tp.parts {
		if p.expr != nil && slices.ContainsFunc(p.expr.vars, func(v varspec) bool { return v.prefix > 0 }) {
			return true
		}
	}
	return false
}
