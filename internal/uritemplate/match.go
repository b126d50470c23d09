package uritemplate

import (
	"strings"
	"unicode/utf8"
)

// Match reports whether the whole of uri is an expansion of the template,
// as the package documentation's matching rules define it, and returns the
// variables' decoded values: every variable of an unnamed expression, and
// the variables of a named expression ({;…}, {?…}, {&…}) that the uri
// carries. A uri longer than MaxURILength bytes, or not valid UTF-8,
// matches nothing. The map is the caller's.
func (t *Template) Match(uri string) (map[string]string, bool) {
	if len(uri) > MaxURILength || !uriChars(uri) {
		return nil, false
	}
	m := t.re.FindStringSubmatchIndex(uri)
	if m == nil {
		return nil, false
	}
	vals := make(map[string]string, len(t.vars))
	for _, c := range t.caps {
		text := uri[m[2*c.group]:m[2*c.group+1]]
		ok := false
		if c.v != nil {
			ok = setValue(vals, c.v, text)
		} else {
			ok = matchNamed(vals, c.expr, text)
		}
		if !ok {
			return nil, false
		}
	}
	return vals, true
}

// setValue decodes the value of v and stores it, unless it is longer than
// v's prefix modifier allows.
func setValue(vals map[string]string, v *varspec, encoded string) bool {
	s, ok := decode(encoded)
	if !ok || v.prefix > 0 && utf8.RuneCountInString(s) > v.prefix {
		return false
	}
	vals[v.name] = s
	return true
}

// matchNamed stores the values of the named expression e whose text, as
// the uri has it, is text: the operator and items such as x=1, separated
// by the operator's separator. A variable given twice fails, unless it is
// exploded: then its items are joined with ",".
func matchNamed(vals map[string]string, e *expression, text string) bool {
	if text == "" {
		return true
	}
	var lists map[string][]string // items of exploded variables
	for item := range strings.SplitSeq(text[len(e.op.first):], e.op.sep) {
		name, encoded, _ := strings.Cut(item, "=")
		v := e.lookup(name)
		if v == nil {
			return false
		}
		if _, dup := vals[v.name]; dup && !v.explode {
			return false
		}
		if !setValue(vals, v, encoded) {
			return false
		}
		if v.explode {
			if lists == nil {
				lists = make(map[string][]string)
			}
			lists[v.name] = append(lists[v.name], vals[v.name])
		}
	}
	for name, items := range lists {
		vals[name] = strings.Join(items, e.op.listSep)
	}
	return true
}

// lookup returns the variable of e that the uri names name, or nil.
func (e *expression) lookup(name string) *varspec {
	for k := range e.vars {
		if sameName(e.vars[k].name, name) {
			return &e.vars[k]
		}
	}
	return nil
}

// sameName reports whether the uri's name b is the template's variable
// name a, the hex digits of percent-encoded triplets in either case.
func sameName(a, b string) bool {
	if len(a) != len(b) {
		return false
	}
	for i := range len(a) {
		if a[i] == b[i] {
			continue
		}
		inTriplet := i >= 1 && a[i-1] == '%' || i >= 2 && a[i-2] == '%'
		if !inTriplet || !isHex(a[i]) || a[i]|0x20 != b[i]|0x20 {
			return false
		}
	}
	return true
}

// decode percent-decodes s. It fails on a result that is not valid UTF-8,
// or an invalid escape (which the pattern has ruled out already).
func decode(s string) (string, bool) {
	if strings.IndexByte(s, '%') < 0 {
		return s, true
	}
	b := make([]byte, 0, len(s))
	for i := 0; i < len(s); i++ {
		c := s[i]
		if c == '%' {
			if i+2 >= len(s) || !isHex(s[i+1]) || !isHex(s[i+2]) {
				return "", false
			}
			c = unhex(s[i+1])<<4 | unhex(s[i+2])
			i += 2
		}
		b = append(b, c)
	}
	if !utf8.Valid(b) {
		return "", false
	}
	return string(b), true
}
