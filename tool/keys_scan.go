package tool

import (
	"cmp"
	"slices"
	"strconv"
	"strings"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/schema"
)

// check returns the violations of the keys of args, a JSON value to be
// decoded by plan p: each key that matches no member of its struct
// exactly but one when case is ignored (strings.EqualFold), with its
// pointer, at most schema.MaxViolations of them and then a
// schema.MoreKeyword entry. It returns nil when there are none, and when
// args is not valid JSON, which the decoder then reports.
func (p *keyPlan) check(args []byte) []schema.Violation {
	s := keyScan{data: args, skipper: jsonx.Scanner{Trusted: true}}
	s.value(p, 0, 0)
	if s.bad || len(s.found) == 0 {
		return nil
	}
	vs := make([]schema.Violation, 0, len(s.found)+1)
	for _, k := range s.found {
		tokens := append(pathTo(args, k.Start-1), k.Text(args))
		// Worded as "additionalProperties": false words an unknown key, so
		// that strict and relaxed schemas answer a case variant alike.
		vs = append(vs, schema.NewViolation(jsonx.Pointer(tokens...), "additionalProperties", nil, ""))
	}
	slices.SortFunc(vs, func(a, b schema.Violation) int { return cmp.Compare(a.Pointer, b.Pointer) })
	vs = slices.Compact(vs) // a repeated key
	if s.more > 0 {
		vs = append(vs, schema.Violation{Keyword: schema.MoreKeyword, Message: "… and " + strconv.Itoa(s.more) + " more"})
	}
	return vs
}

// keyScan walks a JSON text along a key plan, with the steps of package
// jsonx; what the plan does not look into is skipped by its scanner. The
// arguments were checked when the request was read (their nesting bounded
// by jsonx.MaxDepth), so the scanner trusts them, and still stops
// without panicking should they break that promise.
type keyScan struct {
	data    []byte
	skipper jsonx.Scanner
	found   []jsonx.Str // the refused keys
	more    int         // refused keys past schema.MaxViolations
	bad     bool        // not valid JSON: the scan stopped
}

// value scans the value at data[i] along p, depth levels down, and returns
// the index after it.
func (s *keyScan) value(p *keyPlan, i, depth int) int {
	i = jsonx.SkipSpace(s.data, i)
	if i < len(s.data) && depth < jsonx.MaxDepth && p != nil {
		switch c := s.data[i]; {
		case p.kind != planList && c == '{':
			return s.object(p, i, depth)
		case p.kind == planList && c == '[':
			return s.array(p.elem, i, depth)
		}
	}
	return s.skip(i, depth)
}

// skip passes over the value at data[i].
func (s *keyScan) skip(i, depth int) int {
	next, ok := s.skipper.Skip(s.data, i, depth)
	if !ok {
		s.bad = true
	}
	return next
}

func (s *keyScan) object(p *keyPlan, i, depth int) int {
	i, empty := jsonx.Open(s.data, i)
	for !empty && !s.bad {
		k, next, ok := jsonx.Key(s.data, i, jsonx.Lenient)
		if !ok {
			s.bad = true
			return next
		}
		sub, known := p.elem, true
		if p.kind == planStruct {
			if k.Escaped {
				sub, known = p.members[k.Text(s.data)]
			} else {
				sub, known = p.members[string(k.Content(s.data))]
			}
			if !known && p.folds(k.Text(s.data)) {
				s.refuse(k)
			}
		}
		if known {
			i = s.value(sub, next, depth+1)
		} else {
			i = s.skip(next, depth+1)
		}
		var more bool
		if i, more, ok = jsonx.Next(s.data, i, '}'); !ok {
			s.bad = true
		}
		empty = !more
	}
	return i
}

func (s *keyScan) array(elem *keyPlan, i, depth int) int {
	i, empty := jsonx.Open(s.data, i)
	for !empty && !s.bad {
		i = s.value(elem, i, depth+1)
		var more, ok bool
		if i, more, ok = jsonx.Next(s.data, i, ']'); !ok {
			s.bad = true
		}
		empty = !more
	}
	return i
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
func (s *keyScan) refuse(k jsonx.Str) {
	if len(s.found) == schema.MaxViolations {
		s.more++
		return
	}
	s.found = append(s.found, k)
}
