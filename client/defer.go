package client

import (
	"context"
	"errors"
	"fmt"
	"slices"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/jsonx"
	engine "github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/protocol"
)

// ErrDeferInput, returned by Options.AnswerInputs, leaves a 2026-07-28
// input_required round of a call unanswered: the call ends with an
// *InputRound error, and a later call made with WithInputResponses
// resumes the request with the answers. A task's rounds cannot be
// deferred (the task's call fails).
var ErrDeferInput = engine.ErrDeferred

// InputRound is the error of a call whose input_required round
// Options.AnswerInputs deferred (ErrDeferInput): what the server asked,
// by its keys, and the round's requestState, to answer and resume with
// WithInputResponses. It is how a proxy hands a round to its own client,
// whose answers come with a later request of the client's, with nothing
// waiting in between.
type InputRound struct {
	// Method is the request's method.
	Method string
	// Requests are the input requests, by the server's keys.
	Requests map[string]protocol.InputRequest
	// State is the server's requestState, "" when it sent none.
	State string
}

func (r *InputRound) Error() string {
	return fmt.Sprintf("client: %s: an input_required round of %d requests was deferred", r.Method, len(r.Requests))
}

// WithInputResponses returns a context whose next call of round's method
// resumes round, a deferred round (see InputRound): its first request
// carries responses, by the server's keys (each an encoded ElicitResult,
// CreateMessageResult or ListRootsResult), and round's requestState.
// Later rounds of the call are answered as any other. Only the first call
// of the method made with the context takes them.
func WithInputResponses(ctx context.Context, round *InputRound, responses map[string]json.RawMessage) context.Context {
	keys := make([]string, 0, len(responses))
	for k := range responses {
		keys = append(keys, k)
	}
	slices.Sort(keys)
	obj := []byte{'{'}
	for i, k := range keys {
		if i > 0 {
			obj = append(obj, ',')
		}
		obj = append(append(jsonx.AppendString(obj, k), ':'), responses[k]...)
	}
	obj = append(obj, '}')
	var st json.RawMessage
	if round.State != "" {
		st = jsonx.AppendString(nil, round.State)
	}
	return engine.WithResume(ctx, round.Method, obj, st)
}

// inputRound is err as the caller sees it: an engine's deferred round as
// an *InputRound.
func inputRound(err error) error {
	var d *engine.Deferred
	if !errors.As(err, &d) {
		return err
	}
	r := &InputRound{Method: d.Method, Requests: d.Requests}
	if d.State != nil && json.Unmarshal(d.State, &r.State) != nil {
		return fmt.Errorf("%w: %s: requestState is not a string", engine.ErrBadAnswer, d.Method)
	}
	return r
}
