package uritemplate

import (
	"regexp"
	"strings"
	"sync"
)

// A Template matches through one RE2 regexp (package regexp), so that a
// Match takes time linear in the uri's length, whatever the template and
// the uri; its submatches are the variables' values, still encoded, which
// Match then decodes and checks.

// capture is where Match finds values: the submatch of one unnamed
// variable, or of a whole named expression (v == nil).
type capture struct {
	group int
	expr  *expression
	v     *varspec
}

// compile builds t.re and t.caps from t.parts.
func (t *Template) compile() error {
	var b strings.Builder
	b.WriteString(`\A`)
	for i, p := range t.parts {
		if p.expr == nil {
			writeLiteral(&b, p.lit, i == 0)
		} else {
			t.writeExpression(&b, p.expr)
		}
	}
	b.WriteString(`\z`)
	re, err := regexp.Compile(b.String())
	if err != nil {
		return err
	}
	t.re = re
	return nil
}

// group opens the submatch of the next capture.
func (t *Template) group(b *strings.Builder, e *expression, v *varspec) {
	t.caps = append(t.caps, capture{group: len(t.caps) + 1, expr: e, v: v})
	b.WriteByte('(')
}

// writeExpression writes the pattern of e: the form its expansion takes.
func (t *Template) writeExpression(b *strings.Builder, e *expression) {
	if e.op.named {
		t.group(b, e, nil)
		b.WriteString(`(?:` + regexp.QuoteMeta(e.op.first) + namedItem(e) +
			`(?:` + regexp.QuoteMeta(e.op.sep) + namedItem(e) + `)*)?)`)
		return
	}
	notRaw := "#"
	if e.comp == inPath {
		notRaw = "#?"
	}
	for k := range e.vars {
		v := &e.vars[k]
		if k == 0 {
			b.WriteString(regexp.QuoteMeta(e.op.first))
		} else {
			b.WriteString(regexp.QuoteMeta(e.op.sep))
		}
		t.group(b, e, v)
		switch {
		case v.explode && (e.op.char == 0 || e.op.char == '/'):
			// Items are delimited in the uri; an item may not hold the
			// delimiter encoded, or the value could not be split back.
			u := unitPattern(false, "", e.op.listSep)
			b.WriteString(u + `+(?:` + regexp.QuoteMeta(e.op.sep) + u + `+)*)`)
		default:
			b.WriteString(unitPattern(e.op.reserved, notRaw, "") + `+)`)
		}
	}
}

// namedItem is the pattern of one name or name=value of a named
// expression, for any of its variables.
func namedItem(e *expression) string {
	var b strings.Builder
	b.WriteString(`(?:`)
	for k, v := range e.vars {
		if k > 0 {
			b.WriteByte('|')
		}
		notPct := ""
		if v.explode {
			notPct = e.op.listSep
		}
		writeLiteral(&b, v.name, false)
		b.WriteString(`(?:=` + unitPattern(false, "", notPct) + `*)?`)
	}
	b.WriteByte(')')
	return b.String()
}

// writeLiteral writes the pattern of a literal: its bytes, except that the
// hex digits of a percent-encoded triplet match in either case, and so
// does a scheme at the start of a leading literal.
func writeLiteral(b *strings.Builder, lit string, leading bool) {
	if n := schemeLen(lit); leading && n > 0 {
		for i := range n {
			b.WriteString(foldASCII(lit[i]))
		}
		lit = lit[n:]
	}
	for lit != "" {
		if lit[0] == '%' { // Parse made sure two hex digits follow.
			b.WriteString("%" + foldASCII(lit[1]) + foldASCII(lit[2]))
			lit = lit[3:]
			continue
		}
		n := strings.IndexByte(lit, '%')
		if n < 0 {
			n = len(lit)
		}
		b.WriteString(regexp.QuoteMeta(lit[:n]))
		lit = lit[n:]
	}
}

// schemeLen returns the length of the RFC 3986 scheme that s starts with,
// ALPHA *( ALPHA / DIGIT / "+" / "-" / "." ) followed by ":", or 0.
func schemeLen(s string) int {
	for i := 0; i < len(s); i++ {
		c := s[i]
		switch {
		case 'a' <= c && c <= 'z' || 'A' <= c && c <= 'Z':
		case i > 0 && ('0' <= c && c <= '9' || c == '+' || c == '-' || c == '.'):
		case i > 0 && c == ':':
			return i
		default:
			return 0
		}
	}
	return 0
}

// foldASCII is the pattern of the byte c in either ASCII case. It leaves
// out the non-ASCII case folds of (?i), such as the Kelvin sign for "k".
func foldASCII(c byte) string {
	switch {
	case 'a' <= c && c <= 'z':
		return "[" + string(c-'a'+'A') + string(c) + "]"
	case 'A' <= c && c <= 'Z':
		return "[" + string(c) + string(c-'A'+'a') + "]"
	}
	return regexp.QuoteMeta(string(c))
}

// unitPattern is the pattern of one character of a value: an unreserved
// character, a non-ASCII character written raw (Match has checked that it
// is a ucschar or iprivate, see uriChars), a
// percent-encoded UTF-8 character other than the ASCII bytes in notPct,
// and, when reserved is set, a reserved character not in notRaw.
func unitPattern(reserved bool, notRaw, notPct string) string {
	var b strings.Builder
	b.WriteString(`(?:[A-Za-z0-9\-._~\x{80}-\x{10FFFF}`)
	if reserved {
		for i := range len(reservedChars) {
			if c := reservedChars[i]; strings.IndexByte(notRaw, c) < 0 {
				b.WriteString(`\` + string(c))
			}
		}
	}
	b.WriteString(`]|` + pctPattern(notPct) + `)`)
	return b.String()
}

// Parts of pctPattern: any hex digit, and a UTF-8 continuation byte.
const (
	hexDigit = `[0-9A-Fa-f]`
	contByte = `%[89ABab]` + hexDigit
)

// pctPattern is the pattern of one percent-encoded character other than
// the ASCII bytes in not: an ASCII byte, or a UTF-8 lead byte and as many
// continuation bytes as it calls for. A sequence is thus never split
// between two values, and decode refuses the sequences that are not
// valid UTF-8 (overlong forms, surrogates, past U+10FFFF) whatever the
// split. The alternatives start with distinct characters, so the regexp
// can stay one-pass.
func pctPattern(not string) string {
	if p, ok := pctPatterns()[not]; ok {
		return p
	}
	return buildPctPattern(not)
}

// pctPatterns are pctPattern's results for the values of "not" that
// compile uses, built on first use rather than at package initialisation
// (about 1,000 allocations that a server without resource templates never
// needs).
var pctPatterns = sync.OnceValue(func() map[string]string {
	return map[string]string{
		"":  buildPctPattern(""),
		",": buildPctPattern(","),
		"/": buildPctPattern("/"),
		".": buildPctPattern("."),
	}
})

// buildPctPattern is pctPattern without the cache.
func buildPctPattern(not string) string {
	return `%(?:` + asciiPct(not) +
		`|[C-Dc-d]` + hexDigit + contByte +
		`|[Ee]` + hexDigit + contByte + contByte +
		`|[Ff][0-7]` + contByte + contByte + contByte +
		`)`
}

// asciiPct is the pattern of the two hex digits of an ASCII byte (00 to
// 7F) other than those in not.
func asciiPct(not string) string {
	full := "" // high digits whose every low digit is allowed
	var partial []string
	for hi := byte(0); hi < 8; hi++ {
		lows, n := "", 0
		for lo := byte(0); lo < 16; lo++ {
			if strings.IndexByte(not, hi<<4|lo) < 0 {
				lows += hexChars(lo)
				n++
			}
		}
		switch n {
		case 0:
		case 16:
			full += string('0' + hi)
		default:
			partial = append(partial, string('0'+hi)+"["+lows+"]")
		}
	}
	alts := partial
	if full != "" {
		alts = append([]string{"[" + full + "]" + hexDigit}, partial...)
	}
	return strings.Join(alts, "|")
}

// hexChars is the hex digit for lo, in both cases when it is a letter.
func hexChars(lo byte) string {
	if lo < 10 {
		return string('0' + lo)
	}
	return string('A'+lo-10) + string('a'+lo-10)
}
