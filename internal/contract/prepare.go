package contract

import (
	"bytes"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/schema"
	"github.com/mcpwire/mcpwire/tool"
)

// Prepare checks a call's arguments against the input schema and fills in
// the schema's defaults; the handler receives what it returns. When the
// arguments break the schema it returns a nil slice and an isError result
// listing every violation with its JSON pointer and the rule it broke, for
// example
//
//	invalid arguments for tool add:
//	- /a: "one" should be an integer, not a string (type)
//	- /c: additional property is not allowed (additionalProperties)
//
// and the handler must not run. The defaulted value is the one validated.
// At most schema.MaxViolations violations are listed, then a last line
// "- … and N more"; client input quoted in the lines (long keys in
// pointers, values) is clipped.
//
// Prepare does no work for a schema that accepts every object (such as
// {"type":"object"}), answers an empty arguments object from a value
// computed by Compile, and otherwise relies on the schema package, which
// validates the common schemas in one allocation-free pass over the raw
// bytes.
func (c *Contract) Prepare(args json.RawMessage) (json.RawMessage, *tool.Result) {
	if c.trivialInput {
		return args, nil
	}
	if c.emptyArgs != nil && isEmptyObject(args) {
		if c.emptyDefaulted {
			return c.emptyArgs, nil
		}
		return args, nil
	}
	filled, err := c.in.ApplyDefaults(args)
	if err != nil {
		filled = args // not an object: validation reports it
	}
	if vs := c.in.Validate(filled); vs != nil {
		return nil, tool.ErrorResult("%s", schema.FormatViolations("invalid arguments for tool "+c.tool.Name, vs))
	}
	return filled, nil
}

// isEmptyObject reports whether args is "{}", allowing whitespace.
func isEmptyObject(args json.RawMessage) bool {
	if len(args) == 2 {
		return args[0] == '{' && args[1] == '}'
	}
	s := bytes.TrimSpace(args)
	return len(s) >= 2 && s[0] == '{' && s[len(s)-1] == '}' && len(bytes.TrimSpace(s[1:len(s)-1])) == 0
}
