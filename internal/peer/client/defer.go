package client

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// ErrDeferred is what Handlers.Round returns to leave a round unanswered:
// the call then ends with a *Deferred error, for the caller to answer the
// round later and resume the request with WithResume (a proxy that asks
// its own client, whose answer comes with a later request of its own).
var ErrDeferred = errors.New("client: the input round was deferred")

// Deferred is the error of a call whose input_required round was deferred
// (ErrDeferred): what the server asked, and its requestState.
type Deferred struct {
	// Method is the request's method.
	Method string
	// Requests are the round's input requests, by the server's keys.
	Requests map[string]protocol.InputRequest
	// State is the round's requestState token (a JSON string), nil when
	// the server sent none.
	State json.RawMessage
}

func (d *Deferred) Error() string {
	return fmt.Sprintf("client: %s: an input_required round of %d requests was deferred", d.Method, len(d.Requests))
}

// resumeKey keys a resume in a context.
type resumeKey struct{}

// resume is the answered round a request resumes with, used once.
type resume struct {
	method    string          // the request's method
	responses json.RawMessage // the inputResponses object
	state     json.RawMessage // the requestState token, nil when none
	used      atomic.Bool
}

// WithResume returns a context whose next call of method sends responses
// (an inputResponses object) and state (a requestState token, nil for
// none) with its first request: the request of a Deferred round, resumed.
// Only the first call of method made with the context takes them (not
// the tools/list a tools/call may make first, say).
func WithResume(ctx context.Context, method string, responses, state json.RawMessage) context.Context {
	return context.WithValue(ctx, resumeKey{}, &resume{method: method, responses: responses, state: state})
}

// resumed sets the round ctx resumes a call of method with, if any and
// not taken yet, in the params m.
func resumed(ctx context.Context, method string, m members) (members, bool) {
	rs, _ := ctx.Value(resumeKey{}).(*resume)
	if rs == nil || rs.method != method || !rs.used.CompareAndSwap(false, true) {
		return m, false
	}
	if rs.responses != nil {
		m.set("inputResponses", rs.responses)
	}
	if rs.state != nil {
		m.set("requestState", rs.state)
	}
	return m, true
}
