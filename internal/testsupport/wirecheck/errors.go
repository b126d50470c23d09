package wirecheck

import "strings"

// Problem is one thing wirecheck found wrong in an instance.
type Problem struct {
	// Pointer is the JSON pointer of the offending value in the checked
	// instance or line; "" is the root.
	Pointer string
	// Message says what is wrong.
	Message string
}

// String formats the problem as "pointer: message".
func (p Problem) String() string {
	if p.Pointer == "" {
		return "(root): " + p.Message
	}
	return p.Pointer + ": " + p.Message
}

// Error reports every problem found in one instance. Definition and the
// Server* methods return it (as error) when the instance is not valid.
type Error struct {
	// Revision is the MCP revision checked against, e.g. "2025-06-18".
	Revision string
	// Subject names what was checked: a definition name, or a description
	// of a server message such as `response to "tools/call"`.
	Subject string
	// Problems lists what is wrong, in instance order. It is never empty.
	Problems []Problem
}

// Error lists the problems, one per line after the first.
func (e *Error) Error() string {
	var b strings.Builder
	b.WriteString("wirecheck: ")
	b.WriteString(e.Revision)
	b.WriteString(" ")
	b.WriteString(e.Subject)
	b.WriteString(":")
	if len(e.Problems) == 1 {
		b.WriteString(" ")
		b.WriteString(e.Problems[0].String())
		return b.String()
	}
	for _, p := range e.Problems {
		b.WriteString("\n\t")
		b.WriteString(p.String())
	}
	return b.String()
}

// errorOf returns nil when there are no problems, else an *Error.
func errorOf(rev, subject string, problems []Problem) error {
	if len(problems) == 0 {
		return nil
	}
	return &Error{Revision: rev, Subject: subject, Problems: problems}
}
