package tool

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
)

// caseVariantMessage is the message of a key refused because it names a
// member only when case is ignored: the one an unknown property gets from
// "additionalProperties": false, so that strict and relaxed schemas
// answer a case-variant key alike.
const caseVariantMessage = "additional property is not allowed"

// maxKeyDepth bounds the nesting the key check follows.
const maxKeyDepth = 10000

// check returns the violations of the keys of args, a JSON value to be
// decoded by plan p: each key that matches no member of its struct
// exactly but one when case is ignored (strings.EqualFold), with its
// pointer, at most schema.MaxViolations of them and then a
// schema.MoreKeyword entry. It returns nil when there are none, and when
// args is not valid JSON, which the decoder then reports.
func (p *keyPlan) check(args []byte) []schema.Violation {
	s := keyScan{data: args}
	s.value(p, 0)
	if s.bad || len(s.found) == 0 {
		return nil
	}
	vs := make([]schema.Violation, 0, len(s.found)+1)
	for _, k := range s.found {
		tokens := append(pathTo(args, k.at), unescapeKey(args[k.at+1:k.end], k.escaped))
		vs = append(vs, schema.Violation{Pointer: schema.Pointer(tokens...), Keyword: "additionalProperties", Message: caseVariantMessage})
	}
	slices.SortFunc(vs, func(a, b schema.Violation) int { return cmp.Compare(a.Pointer, b.Pointer) })
	vs = slices.Compact(vs) // a repeated key
	if s.more > 0 {
		vs = append(vs, schema.Violation{Keyword: schema.MoreKeyword, Message: "… and " + strconv.Itoa(s.more) + " more"})
	}
	return vs
}

// keyScan walks a JSON text along a key plan.
type keyScan struct {
	data  []byte
	pos   int
	found []refused
	more  int  // refused keys past schema.MaxViolations
	bad   bool // not valid JSON: the scan stopped
}

// refused is a key refused: the offsets of its opening quote and of its
// closing one, and whether it holds escapes.
type refused struct {
	at, end int
	escaped bool
}

func (s *keyScan) space() {
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ' ', '\t', '\n', '\r':
			s.pos++
		default:
			return
		}
	}
}

// peek returns the next byte after white space; 0 at the end.
func (s *keyScan) peek() byte {
	s.space()
	if s.pos >= len(s.data) {
		s.bad = true
		return 0
	}
	return s.data[s.pos]
}

// value scans one value along p, depth levels down.
func (s *keyScan) value(p *keyPlan, depth int) {
	if depth > maxKeyDepth {
		s.bad = true
		return
	}
	switch c := s.peek(); {
	case p != nil && p.kind != planList && c == '{':
		s.object(p, depth)
	case p != nil && p.kind == planList && c == '[':
		s.array(p.elem, depth)
	default:
		s.skip()
	}
}

func (s *keyScan) object(p *keyPlan, depth int) {
	s.pos++ // {
	if s.peek() == '}' {
		s.pos++
		return
	}
	for !s.bad {
		if s.peek() != '"' {
			s.bad = true
			return
		}
		at := s.pos
		key, escaped := s.str()
		if s.peek() != ':' {
			s.bad = true
			return
		}
		s.pos++
		sub, known := p.elem, true
		if p.kind == planStruct {
			if escaped {
				sub, known = p.members[unescapeKey(key, true)]
			} else {
				sub, known = p.members[string(key)]
			}
			if !known && p.folds(unescapeKey(key, escaped)) {
				s.refuse(refused{at: at, end: at + 1 + len(key), escaped: escaped})
			}
		}
		if known {
			s.value(sub, depth+1)
		} else {
			s.skip()
		}
		switch s.peek() {
		case ',':
			s.pos++
		case '}':
			s.pos++
			return
		default:
			s.bad = true
		}
	}
}

func (s *keyScan) array(elem *keyPlan, depth int) {
	s.pos++ // [
	if s.peek() == ']' {
		s.pos++
		return
	}
	for !s.bad {
		s.value(elem, depth+1)
		switch s.peek() {
		case ',':
			s.pos++
		case ']':
			s.pos++
			return
		default:
			s.bad = true
		}
	}
}

// str reads the string at s.pos and returns its content as written.
func (s *keyScan) str() (content []byte, escaped bool) {
	start := s.pos + 1
	for i := start; i < len(s.data); i++ {
		switch s.data[i] {
		case '\\':
			escaped = true
			i++
		case '"':
			s.pos = i + 1
			return s.data[start:i], escaped
		}
	}
	s.bad = true
	return nil, false
}

// skip passes over one value, looking only for where it ends.
func (s *keyScan) skip() {
	depth := 0
	for !s.bad {
		switch c := s.peek(); c {
		case '"':
			s.str()
		case '{', '[':
			depth++
			s.pos++
			continue
		case '}', ']':
			if depth == 0 {
				s.bad = true
				return
			}
			depth--
			s.pos++
		case ',', ':':
			if depth == 0 {
				s.bad = true
				return
			}
			s.pos++
			continue
		default:
			s.scalar()
		}
		if depth == 0 {
			return
		}
	}
}

// scalar passes over a number or a literal.
func (s *keyScan) scalar() {
	start := s.pos
	for s.pos < len(s.data) {
		switch s.data[s.pos] {
		case ',', '}', ']', ':', ' ', '\t', '\n', '\r', '"', '{', '[':
			if s.pos == start {
				s.bad = true
			}
			return
		}
		s.pos++
	}
	if s.pos == start {
		s.bad = true
	}
}

// folds reports whether name matches a member of the struct when case is
// ignored.
func (p *keyPlan) folds(name string) bool {
	for _, n := range p.names {
		if strings.EqualFold(n, name) {
			return true
		}
	}
	return false
}

// refuse records a refused key, or counts it past schema.MaxViolations.
func (s *keyScan) refuse(k refused) {
	if len(s.found) == schema.MaxViolations {
		s.more++
		return
	}
	s.found = append(s.found, k)
}

// unescapeKey returns a key's name: its content, unescaped when it holds
// escapes.
func unescapeKey(content []byte, escaped bool) string {
	if !escaped {
		return string(content)
	}
	quoted := make([]byte, 0, len(content)+2)
	quoted = append(append(append(quoted, '"'), content...), '"')
	var name string
	if json.Unmarshal(quoted, &name) != nil {
		return string(content)
	}
	return name
}
