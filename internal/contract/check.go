package contract

import (
	"bytes"
	"errors"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/natural"
	"github.com/mcpwire/mcpwire/schema"
	"github.com/mcpwire/mcpwire/tool"
)

// ErrContract is wrapped by every error Check returns: the tool produced a
// result that breaks its own contract.
var ErrContract = errors.New("tool broke its contract")

// Check checks a result before it is sent:
//
//   - every content block: required fields present, base64 that decodes,
//     annotations in range (see [CheckBlock]);
//   - structured content, when present, is JSON (a Go value is encoded as
//     a typed handler's Out is, by package natural; one with no JSON form
//     is a violation) and conforms to the output schema;
//   - a tool with an output schema returns structured content unless the
//     result is an isError result or a meta-only result (no content
//     block, no structured content, a _meta: tool.MetaResult). An isError
//     result that does carry structured content is validated too.
//
// It returns the result to send: res itself, or a shallow copy whose
// Structured is the encoded JSON so it is encoded only once. When the
// result breaks the contract it returns instead an isError result that
// names every violation (never the bad result), and an error wrapping
// [ErrContract] for the server to log.
func (c *Contract) Check(res *tool.Result) (*tool.Result, error) {
	if res == nil {
		res = &tool.Result{}
	}
	var problems []string
	for i, b := range res.Content {
		if err := CheckBlock(b); err != nil {
			problems = append(problems, fmt.Sprintf("content[%d]: %v", i, err))
		}
	}
	out, structProblems := c.checkStructured(res)
	problems = append(problems, structProblems...)
	if len(problems) > 0 {
		return contractViolation(c.tool.Name, problems)
	}
	return out, nil
}

// metaOnly reports whether res is a meta-only result, such as a
// permission probe's reply: exempt from the output schema.
func metaOnly(res *tool.Result) bool {
	return res.Meta != nil && len(res.Content) == 0 && res.Structured == nil
}

// checkStructured checks res.Structured and returns the result to send.
func (c *Contract) checkStructured(res *tool.Result) (*tool.Result, []string) {
	if res.Structured == nil {
		if c.out != nil && !res.IsError && !metaOnly(res) {
			return res, []string{"structuredContent is missing, but the tool declares an output schema"}
		}
		return res, nil
	}
	raw, isRaw := res.Structured.(json.RawMessage)
	if !isRaw {
		b, err := natural.Marshal(res.Structured)
		if err != nil {
			return res, []string{err.Error()}
		}
		raw = b
	} else if trimmed := bytes.TrimSpace(raw); len(trimmed) != len(raw) {
		raw, isRaw = trimmed, false
	}
	if c.out != nil {
		if vs := c.out.Validate(raw); vs != nil {
			return res, []string{"structuredContent does not match the output schema:" + indent(vs)}
		}
	} else if isRaw && !json.Valid(raw) {
		return res, []string{"structuredContent is not valid JSON"}
	}
	return passStructured(res, raw, isRaw), nil
}

// passStructured returns res, or a copy carrying the encoded JSON.
func passStructured(res *tool.Result, raw json.RawMessage, isRaw bool) *tool.Result {
	if isRaw {
		return res
	}
	cp := *res
	cp.Structured = raw
	return &cp
}

// indent renders violations as the indented lines of a list item, capped
// as schema.FormatViolations caps them.
func indent(vs []schema.Violation) string {
	list := strings.TrimPrefix(schema.FormatViolations("", vs), ":")
	return strings.ReplaceAll(list, "\n- ", "\n  - ")
}

// contractViolation builds the replacement result and the error to log.
// Like a violation list, it names at most schema.MaxViolations problems
// and then how many more there are.
func contractViolation(name string, problems []string) (*tool.Result, error) {
	if n := len(problems) - schema.MaxViolations; n > 0 {
		problems = append(problems[:schema.MaxViolations:schema.MaxViolations], fmt.Sprintf("… and %d more", n))
	}
	text := "tool " + name + " returned a result that breaks its contract, so it was not sent (this is a bug in the tool, not in the call):\n- " +
		strings.Join(problems, "\n- ")
	err := fmt.Errorf("%w: tool %q: %s", ErrContract, name, strings.Join(problems, "; "))
	return tool.ErrorResult("%s", text), err
}
