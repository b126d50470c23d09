package ask

import (
	"strconv"
	"strings"
)

// AnswerError reports a client's answer the handler cannot use: a form
// that breaks its requested schema, or an answer of the wrong shape.
type AnswerError struct {
	// Problems lists what is wrong, one sentence each.
	Problems []string
}

// Error lists the problems.
func (e *AnswerError) Error() string {
	return "ask: the client's answer is not usable: " + strings.Join(e.Problems, "; ")
}

func itoa(i int) string { return strconv.Itoa(i) }
