package signin

import (
	"net/http"
	"strings"
)

// challenge is one challenge of a WWW-Authenticate header (RFC 9110
// §11.6.1): a scheme and its auth-params, names lowercased.
type challenge struct {
	scheme string
	params map[string]string
}

// challenges parses every WWW-Authenticate header of h. A malformed part
// ends the parse of its header; what came before it is kept.
func challenges(h http.Header) []challenge {
	var out []challenge
	for _, v := range h.Values("Www-Authenticate") {
		out = append(out, parseChallenges(v)...)
	}
	return out
}

// find returns the params of the first challenge of scheme (compared
// case-insensitively), or nil.
func find(cs []challenge, scheme string) map[string]string {
	for _, c := range cs {
		if strings.EqualFold(c.scheme, scheme) {
			return c.params
		}
	}
	return nil
}

// param returns the first value of name in any challenge, "" when none.
func param(cs []challenge, name string) string {
	for _, c := range cs {
		if v, ok := c.params[name]; ok {
			return v
		}
	}
	return ""
}

// parseChallenges parses one header value: challenges separated by
// commas, each a scheme followed by comma-separated name=value pairs
// (a token68 reads as a parameter with an empty value).
func parseChallenges(s string) []challenge {
	var out []challenge
	p := &lexer{s: s}
	for {
		p.skip(", \t")
		scheme := p.token()
		if scheme == "" {
			return out
		}
		c := challenge{scheme: scheme, params: map[string]string{}}
		for {
			p.skip(" \t")
			save := p.i
			name := p.token()
			p.skip(" \t")
			if name == "" {
				break
			}
			if !p.eat('=') {
				p.i = save // the next challenge's scheme
				break
			}
			p.skip(" \t")
			var val string
			if p.peek() == '"' {
				var ok bool
				if val, ok = p.quoted(); !ok {
					return append(out, c)
				}
			} else {
				val = p.token()
				p.skip("=") // the padding of a token68
			}
			c.params[strings.ToLower(name)] = val
			p.skip(" \t")
			if !p.eat(',') {
				break
			}
		}
		out = append(out, c)
		if p.i >= len(p.s) {
			return out
		}
	}
}

// lexer reads RFC 9110 tokens and quoted strings.
type lexer struct {
	s string
	i int
}

func (p *lexer) peek() byte {
	if p.i < len(p.s) {
		return p.s[p.i]
	}
	return 0
}

func (p *lexer) eat(c byte) bool {
	if p.peek() == c && p.i < len(p.s) {
		p.i++
		return true
	}
	return false
}

func (p *lexer) skip(set string) {
	for p.i < len(p.s) && strings.IndexByte(set, p.s[p.i]) >= 0 {
		p.i++
	}
}

// token reads a token (tchar+, RFC 9110 §5.6.2), plus the "/" and "+"
// that token68 allows, which schemes never contain.
func (p *lexer) token() string {
	start := p.i
	for p.i < len(p.s) && isTchar(p.s[p.i]) {
		p.i++
	}
	return p.s[start:p.i]
}

// quoted reads a quoted-string, undoing quoted-pairs.
func (p *lexer) quoted() (string, bool) {
	p.i++ // the opening quote
	var b strings.Builder
	for p.i < len(p.s) {
		c := p.s[p.i]
		switch c {
		case '"':
			p.i++
			return b.String(), true
		case '\\':
			p.i++
			if p.i >= len(p.s) {
				return "", false
			}
			c = p.s[p.i]
		}
		b.WriteByte(c)
		p.i++
	}
	return "", false
}

func isTchar(c byte) bool {
	switch {
	case c >= 'a' && c <= 'z', c >= 'A' && c <= 'Z', c >= '0' && c <= '9':
		return true
	}
	return strings.IndexByte("!#$%&'*+-.^_`|~/", c) >= 0
}
