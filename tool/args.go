package tool

import (
	"bytes"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
)

// PrepareArgs checks a call's arguments against the input schema and fills
// in the schema's defaults; the handler receives what it returns. When the
// arguments break the schema it returns a nil slice and an isError result
// listing every violation with its JSON pointer and the rule it broke, for
// example
//
//	invalid arguments for tool add:
//	- /a: Value is string but should be integer (type)
//	- /c: additional property is not allowed (additionalProperties)
//
// and the handler must not run. The defaulted value is the one validated.
//
// PrepareArgs does no work for a schema that accepts every object (such as
// {"type":"object"}), answers an empty arguments object from a value
// computed at Compile time, and checks simple schemas (typed properties,
// required, additionalProperties, items, lengths, bounds, string enums) in
// one allocation-free scan; only arguments that scan cannot vouch for go
// through the full validator. A tool that was never compiled is compiled
// first; if that fails the call gets an isError result.
func (t *Tool) PrepareArgs(args json.RawMessage) (json.RawMessage, *Result) {
	c, err := t.state()
	if err != nil {
		return nil, ErrorResult("tool %s cannot be called: %v", t.Name, err)
	}
	if c.trivialInput {
		return args, nil
	}
	if c.emptyArgs != nil && isEmptyObject(args) {
		if c.emptyDefaulted {
			return c.emptyArgs, nil
		}
		return args, nil
	}
	if c.fastIn != nil {
		ok, present := c.fastIn.accepts(args)
		if ok && !c.inDefaults.nested {
			missing := c.inDefaults.top &^ present
			if missing == 0 {
				return args, nil // valid, and no default to fill in
			}
			filled := c.inDefaults.fill(args, missing)
			if ok, _ := c.fastIn.accepts(filled); ok {
				return filled, nil
			}
		}
	}
	filled, err := c.in.ApplyDefaults(args)
	if err != nil {
		filled = args // not an object: validation reports it
	}
	if c.fastIn != nil && !sameBytes(filled, args) {
		if ok, _ := c.fastIn.accepts(filled); ok {
			return filled, nil
		}
	}
	if vs := c.in.Validate(filled); vs != nil {
		return nil, &Result{Content: []Content{&Text{Text: invalidArguments(t.Name, vs)}}, IsError: true}
	}
	return filled, nil
}

// invalidArguments renders violations for a model: a first line naming the
// tool, then one line per violation.
func invalidArguments(name string, vs []schema.Violation) string {
	list, _ := strings.CutPrefix(schema.FormatViolations(vs), "invalid arguments:")
	return "invalid arguments for tool " + name + ":" + list
}

// isEmptyObject reports whether args is "{}", allowing whitespace.
func isEmptyObject(args json.RawMessage) bool {
	if len(args) == 2 {
		return args[0] == '{' && args[1] == '}'
	}
	s := bytes.TrimSpace(args)
	return len(s) >= 2 && s[0] == '{' && s[len(s)-1] == '}' && len(bytes.TrimSpace(s[1:len(s)-1])) == 0
}

// sameBytes reports whether a and b are the same slice.
func sameBytes(a, b []byte) bool {
	return len(a) == len(b) && (len(a) == 0 || &a[0] == &b[0])
}

// fill adds the default members of the missing properties to an object
// that is known to be valid JSON.
func (d *fastDefaults) fill(obj json.RawMessage, missing uint64) json.RawMessage {
	trimmed := bytes.TrimRight(obj, " \t\r\n")
	body := trimmed[:len(trimmed)-1] // without '}'
	empty := len(bytes.TrimSpace(body)) == 1
	n := len(body) + 1
	for i, m := range d.member {
		if missing&(1<<i) != 0 {
			n += len(m) + 1
		}
	}
	out := make([]byte, 0, n)
	out = append(out, body...)
	for i, m := range d.member {
		if missing&(1<<i) == 0 {
			continue
		}
		if !empty {
			out = append(out, ',')
		}
		empty = false
		out = append(out, m...)
	}
	return append(out, '}')
}
