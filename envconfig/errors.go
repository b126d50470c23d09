package envconfig

import (
	"fmt"
	"strings"
)

// Problem is one missing or malformed variable.
type Problem struct {
	// Var is the full environment variable name, prefix included.
	Var string
	// Reason says what is wrong, for example "required but not set".
	// It never contains the value of a secret field.
	Reason string
}

// String renders the problem as "VAR: reason".
func (p Problem) String() string { return p.Var + ": " + p.Reason }

// Error is returned by [Load] when one or more variables are missing or
// malformed. It lists every problem found, in field order; match it with
// errors.As.
type Error struct {
	Problems []Problem
}

// Error renders every problem, one per line after a count, for example:
//
//	envconfig: 2 problems:
//	- APP_PORT: required but not set
//	- APP_TIMEOUT: invalid duration "5 parsecs"
func (e *Error) Error() string {
	var b strings.Builder
	noun := "problems"
	if len(e.Problems) == 1 {
		noun = "problem"
	}
	fmt.Fprintf(&b, "envconfig: %d %s:", len(e.Problems), noun)
	for _, p := range e.Problems {
		b.WriteString("\n- ")
		b.WriteString(p.String())
	}
	return b.String()
}
