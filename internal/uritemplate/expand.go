package uritemplate

import (
	"errors"
	"strings"
	"unicode/utf8"

	"github.com/mcpwire/mcpwire/internal/clip"
)

// ErrInvalidValue is the error Expand wraps when a value is not valid
// UTF-8.
var ErrInvalidValue = errors.New("value is not valid UTF-8")

// Expand builds a uri from values by RFC 6570 expansion (section 3.2):
// each value is percent-encoded as its expression's operator requires,
// and an expression whose variables are all missing from vals (undefined)
// expands to nothing. A value is a string; an exploded variable's value
// is its items joined as the package documentation says, and Expand
// splits it there. Expand differs from RFC 6570 in one way, so that Match
// gives back what Expand was given: in {+…} and {#…} expansion a value's
// "%" is always encoded (RFC 6570 passes a value's pct-encoded triplets
// through), and so are "#", and "?" before the template's query, which
// would end the uri's component. Its error, for a value that is not
// valid UTF-8, wraps ErrInvalidValue.
func (t *Template) Expand(vals map[string]string) (string, error) {
	var b strings.Builder
	for _, p := range t.parts {
		if p.expr == nil {
			b.WriteString(p.lit)
			continue
		}
		if err := t.expand(&b, p.expr, vals); err != nil {
			return "", err
		}
	}
	return b.String(), nil
}

// expand writes the expansion of e.
func (t *Template) expand(b *strings.Builder, e *expression, vals map[string]string) error {
	first := true
	for _, v := range e.vars {
		s, ok := vals[v.name]
		if !ok {
			continue
		}
		if !utf8.ValidString(s) {
			return &valueError{t.raw, v.name}
		}
		if first {
			b.WriteString(e.op.first)
			first = false
		} else {
			b.WriteString(e.op.sep)
		}
		if !v.explode {
			if v.prefix > 0 {
				s = truncate(s, v.prefix)
			}
			writeItem(b, e, v.name, s)
			continue
		}
		for k, item := range strings.Split(s, e.op.listSep) {
			if k > 0 {
				b.WriteString(e.op.sep)
			}
			writeItem(b, e, v.name, item)
		}
	}
	return nil
}

// writeItem writes one value (or one item of an exploded value) of e, as
// name=value when e is named.
func writeItem(b *strings.Builder, e *expression, name, s string) {
	if e.op.named {
		b.WriteString(name)
		if s == "" {
			b.WriteString(e.op.ifemp)
			return
		}
		b.WriteByte('=')
	}
	encode(b, s, e.op.reserved, e.comp)
}

// encode writes s percent-encoded: every byte but the unreserved
// characters and, when reserved is set, the reserved characters other
// than "#" and, in the path, "?".
func encode(b *strings.Builder, s string, reserved bool, comp component) {
	const hex = "0123456789ABCDEF"
	for i := range len(s) {
		c := s[i]
		keep := isUnreserved(c) ||
			reserved && isReserved(c) && c != '#' && (c != '?' || comp != inPath)
		if keep {
			b.WriteByte(c)
		} else {
			b.Write([]byte{'%', hex[c>>4], hex[c&15]})
		}
	}
}

// truncate returns the first n characters of s.
func truncate(s string, n int) string {
	for i := range s {
		if n == 0 {
			return s[:i]
		}
		n--
	}
	return s
}

// valueError is Expand's error for a value that is not valid UTF-8.
type valueError struct {
	template, name string
}

// Error says which value is wrong, in which template.
func (e *valueError) Error() string {
	return "uri template " + clip.Quote(e.template) + ": value of " + clip.Quote(e.name) + " is not valid UTF-8"
}

// Unwrap returns ErrInvalidValue.
func (e *valueError) Unwrap() error { return ErrInvalidValue }
