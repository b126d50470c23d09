package args

import (
	"bytes"
	"fmt"
	"slices"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/tool"
)

// Reader reads the members of one arguments object and collects problems.
// It is not safe for concurrent use; a handler makes one per call.
type Reader struct {
	members  map[string]json.RawMessage
	read     []string // names asked for, for RejectUnknown
	problems []string
}

// Parse returns a Reader over raw, the arguments object of a call. When raw
// is not a JSON object that is the one problem recorded, and every getter
// returns its zero value or default without adding more.
func Parse(raw json.RawMessage) *Reader {
	r := &Reader{}
	trimmed := bytes.TrimSpace(raw)
	if len(trimmed) == 0 || trimmed[0] != '{' || json.Unmarshal(trimmed, &r.members) != nil {
		r.problems = append(r.problems, "the arguments must be a JSON object")
		r.members = nil
	}
	return r
}

// Has reports whether the argument is present and not null.
func (r *Reader) Has(name string) bool {
	_, ok := r.value(name)
	return ok
}

// Check records err, when it is not nil, as a problem with the argument
// name, so that a handler's own checks (such as those of package validate)
// are reported with the getters' problems.
func (r *Reader) Check(name string, err error) {
	r.mark(name)
	if err != nil {
		r.addf(name, "%v", err)
	}
}

// RejectUnknown records a problem for every argument that no getter, Has or
// Check asked for, in name order. Call it after the getters.
func (r *Reader) RejectUnknown() {
	var unknown []string
	for name := range r.members {
		if !slices.Contains(r.read, name) {
			unknown = append(unknown, name)
		}
	}
	slices.Sort(unknown)
	for _, name := range unknown {
		r.addf(name, "is not an argument of this tool")
	}
}

// Problems returns the problems recorded so far, each naming its argument.
func (r *Reader) Problems() []string { return slices.Clone(r.problems) }

// Err returns nil when there was no problem, and otherwise an *Error listing
// every problem.
func (r *Reader) Err() error {
	if len(r.problems) == 0 {
		return nil
	}
	return &Error{Problems: r.Problems()}
}

// Result returns nil when there was no problem, and otherwise an isError
// result whose one text block lists every problem, for the handler to
// return as is.
func (r *Reader) Result() *tool.Result {
	if len(r.problems) == 0 {
		return nil
	}
	return tool.ErrorResult("%s", (&Error{Problems: r.problems}).Error())
}

// Error lists the problems of one call's arguments.
type Error struct {
	Problems []string
}

// Error returns "invalid arguments:" followed by one "- " line per problem.
func (e *Error) Error() string {
	return "invalid arguments:\n- " + strings.Join(e.Problems, "\n- ")
}

// value returns the member name, absent when missing or null, and notes that
// it was asked for.
func (r *Reader) value(name string) (json.RawMessage, bool) {
	r.mark(name)
	v, ok := r.members[name]
	if !ok {
		return nil, false
	}
	v = bytes.TrimSpace(v)
	if string(v) == "null" {
		return nil, false
	}
	return v, true
}

// mark notes that the argument name was asked for.
func (r *Reader) mark(name string) {
	if !slices.Contains(r.read, name) {
		r.read = append(r.read, name)
	}
}

// required returns the member name or records that it is missing.
func (r *Reader) required(name string) (json.RawMessage, bool) {
	v, ok := r.value(name)
	if !ok && r.members != nil {
		r.addf(name, "is required")
	}
	return v, ok
}

func (r *Reader) addf(name, format string, args ...any) {
	r.problems = append(r.problems, fmt.Sprintf("%q ", name)+fmt.Sprintf(format, args...))
}
