package uritemplate

import (
	"fmt"
	"slices"
	"strings"
	"unicode/utf8"
)

// parser holds the state of one Parse.
type parser struct {
	s     string
	parts []part
	names []string
	comp  component
}

// fail returns a *ParseError at byte off.
func (p *parser) fail(off int, format string, args ...any) error {
	return &ParseError{Template: p.s, Offset: off, Msg: fmt.Sprintf(format, args...)}
}

// parse splits p.s into literals and expressions, validating both.
func (p *parser) parse() error {
	switch {
	case p.s == "":
		return &ParseError{Template: p.s, Offset: -1, Msg: "empty template"}
	case len(p.s) > MaxTemplateLength:
		return &ParseError{Template: p.s, Offset: -1, Msg: fmt.Sprintf("longer than %d bytes", MaxTemplateLength)}
	}
	lit := 0 // start of the current literal
	for i := 0; i < len(p.s); {
		if p.s[i] != '{' {
			n, err := p.literalChar(i)
			if err != nil {
				return err
			}
			i += n
			continue
		}
		p.addLiteral(p.s[lit:i])
		end := strings.IndexByte(p.s[i:], '}')
		if end < 0 {
			return p.fail(i, "unclosed expression")
		}
		if err := p.expression(i, i+end); err != nil {
			return err
		}
		i += end + 1
		lit = i
	}
	p.addLiteral(p.s[lit:])
	return nil
}

// literalChar validates the literal character at byte i and returns its
// length in bytes.
func (p *parser) literalChar(i int) (int, error) {
	c := p.s[i]
	switch {
	case c == '}':
		return 0, p.fail(i, "unexpected %q", "}")
	case c == '%':
		if i+2 >= len(p.s) || !isHex(p.s[i+1]) || !isHex(p.s[i+2]) {
			return 0, p.fail(i, "invalid percent-encoding")
		}
		return 3, nil
	case c < utf8.RuneSelf:
		if !isLiteralASCII(c) {
			return 0, p.fail(i, "invalid character %q", string(c))
		}
		return 1, nil
	}
	r, n := utf8.DecodeRuneInString(p.s[i:])
	if r == utf8.RuneError && n == 1 {
		return 0, p.fail(i, "invalid UTF-8")
	}
	if !isUcs(r) {
		return 0, p.fail(i, "invalid character %q", string(r))
	}
	return n, nil
}

// addLiteral appends a non-empty literal and moves p.comp past any "?" or
// "#" in it.
func (p *parser) addLiteral(lit string) {
	if lit == "" {
		return
	}
	p.parts = append(p.parts, part{lit: lit})
	switch {
	case strings.IndexByte(lit, '#') >= 0:
		p.comp = inFragment
	case strings.IndexByte(lit, '?') >= 0:
		p.comp = max(p.comp, inQuery)
	}
}

// expression parses the expression from the "{" at byte open to the "}"
// at byte close.
func (p *parser) expression(open, close int) error {
	i := open + 1
	if i == close {
		return p.fail(open, "empty expression")
	}
	opChar := byte(0)
	switch c := p.s[i]; {
	case strings.IndexByte("+#./;?&", c) >= 0:
		opChar = c
		i++
	case strings.IndexByte("=,!@|", c) >= 0:
		return p.fail(i, "reserved operator %q", string(c))
	}
	e := &expression{op: operators[opChar]}
	switch opChar {
	case '?', '&':
		p.comp = max(p.comp, inQuery)
	case '#':
		p.comp = inFragment
	}
	e.comp = p.comp
	for {
		v, next, err := p.varspec(i, close)
		if err != nil {
			return err
		}
		if slices.Contains(p.names, v.name) {
			return p.fail(i, "repeated variable %q", v.name)
		}
		if len(p.names) == MaxVars {
			return p.fail(i, "more than %d variables", MaxVars)
		}
		p.names = append(p.names, v.name)
		e.vars = append(e.vars, v)
		if next == close {
			break
		}
		i = next + 1 // past the ","
	}
	p.parts = append(p.parts, part{expr: e})
	return nil
}

// varspec parses the variable starting at byte i and returns it and the
// offset of the "," or "}" that ends it.
func (p *parser) varspec(i, close int) (varspec, int, error) {
	start := i
	for i < close {
		c := p.s[i]
		if c == '%' {
			if i+2 >= close || !isHex(p.s[i+1]) || !isHex(p.s[i+2]) {
				return varspec{}, 0, p.fail(i, "invalid percent-encoding")
			}
			i += 3
			continue
		}
		if !isVarchar(c) && c != '.' {
			break
		}
		i++
	}
	v := varspec{name: p.s[start:i]}
	switch {
	case v.name == "":
		if i < close && p.s[i] != ',' {
			return v, 0, p.badChar(i)
		}
		return v, 0, p.fail(start, "empty variable name")
	case v.name[0] == '.' || v.name[len(v.name)-1] == '.' || strings.Contains(v.name, ".."):
		return v, 0, p.fail(start, "invalid variable name %q", v.name)
	}
	switch {
	case i < close && p.s[i] == '*':
		v.explode = true
		i++
	case i < close && p.s[i] == ':':
		j := i + 1
		for j < close && '0' <= p.s[j] && p.s[j] <= '9' {
			j++
		}
		digits := p.s[i+1 : j]
		if digits == "" || digits[0] == '0' || len(digits) > 4 {
			return v, 0, p.fail(i+1, "invalid prefix length %q (want 1 to 9999)", digits)
		}
		for _, d := range digits {
			v.prefix = v.prefix*10 + int(d-'0')
		}
		i = j
	}
	if i < close && p.s[i] != ',' {
		return v, 0, p.badChar(i)
	}
	return v, i, nil
}

// badChar fails at the unexpected character at byte i of an expression.
func (p *parser) badChar(i int) error {
	r, n := utf8.DecodeRuneInString(p.s[i:])
	if r == utf8.RuneError && n == 1 {
		return p.fail(i, "invalid UTF-8")
	}
	return p.fail(i, "invalid character %q in expression", string(r))
}
