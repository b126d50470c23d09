package ask

import (
	"context"
	"crypto/rand"
	"encoding/hex"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/callctx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Action is what the user did with an elicitation.
type Action = protocol.ElicitAction

// The actions of an elicitation.
const (
	// Accept: the user submitted the form (or agreed to visit the URL).
	Accept = protocol.ElicitAccept
	// Decline: the user explicitly refused.
	Decline = protocol.ElicitDecline
	// Cancel: the user dismissed the request without choosing.
	Cancel = protocol.ElicitCancel
)

// Reply is the user's answer to a form.
type Reply[T any] struct {
	// Action is what the user did.
	Action Action
	// Content is the submitted form; set only when Action is Accept.
	Content T
}

// Accepted reports whether the user submitted the form.
func (r Reply[T]) Accepted() bool { return r.Action == Accept }

// Elicit asks the user to fill in a form: message says why, form describes
// the fields (a flat object of primitive fields; see package protocol's
// RequestedSchema). The client must have declared elicitation (the form
// mode). An accepted answer is checked against form before it is
// returned: one that breaks it is an [*AnswerError].
func Elicit(ctx context.Context, message string, form protocol.RequestedSchema, opts ...Option) (Reply[map[string]any], error) {
	res, err := elicit(ctx, message, form, opts)
	if err != nil || res.Action != Accept {
		return Reply[map[string]any]{Action: res.Action}, err
	}
	content := make(map[string]any, len(res.Content))
	for k, v := range res.Content {
		var x any
		if err := json.Unmarshal(v, &x); err != nil {
			return Reply[map[string]any]{}, &AnswerError{Problems: []string{fmt.Sprintf("%q is not JSON: %v", k, err)}}
		}
		content[k] = x
	}
	return Reply[map[string]any]{Action: Accept, Content: content}, nil
}

// ElicitAs asks the user to fill in the form [FormOf] infers from T, a
// struct of primitive fields, and decodes an accepted answer into a T.
func ElicitAs[T any](ctx context.Context, message string, opts ...Option) (Reply[T], error) {
	form, err := FormOf[T]()
	if err != nil {
		return Reply[T]{}, err
	}
	res, err := elicit(ctx, message, form, opts)
	if err != nil || res.Action != Accept {
		return Reply[T]{Action: res.Action}, err
	}
	raw, err := json.Marshal(res.Content)
	if err != nil {
		return Reply[T]{}, err
	}
	var v T
	if err := json.Unmarshal(raw, &v); err != nil {
		return Reply[T]{}, &AnswerError{Problems: []string{err.Error()}}
	}
	return Reply[T]{Action: Accept, Content: v}, nil
}

func elicit(ctx context.Context, message string, form protocol.RequestedSchema, opts []Option) (protocol.ElicitResult, error) {
	if _, err := compiledForm(form); err != nil {
		return protocol.ElicitResult{}, err // the form is the handler's mistake: never ask with it
	}
	params := protocol.ElicitRequestParams{Form: &protocol.ElicitRequestFormParams{Message: message, RequestedSchema: form}}
	raw, err := do(ctx, protocol.MethodElicit, params, []string{"elicitation.form"}, opts)
	if err != nil {
		return protocol.ElicitResult{}, err
	}
	res, err := decodeElicitResult(raw)
	if err != nil {
		return protocol.ElicitResult{}, err
	}
	if res.Action == protocol.ElicitAccept {
		if err := checkAnswer(form, res.Content); err != nil {
			return protocol.ElicitResult{}, err
		}
	}
	return res, nil
}

func decodeElicitResult(raw json.RawMessage) (protocol.ElicitResult, error) {
	var res protocol.ElicitResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return res, &AnswerError{Problems: []string{"the answer is not an elicitation result: " + err.Error()}}
	}
	switch res.Action {
	case protocol.ElicitAccept, protocol.ElicitDecline, protocol.ElicitCancel:
	default:
		return res, &AnswerError{Problems: []string{fmt.Sprintf("action %q is not accept, decline or cancel", res.Action)}}
	}
	return res, nil
}

// URLReply is the user's answer to a URL elicitation.
type URLReply struct {
	// Action is what the user did: Accept means they agreed to visit the
	// URL, not that the interaction there is done.
	Action Action
	// ElicitationID identifies the elicitation in the legacy era, where
	// the server tells the client when the interaction at the URL is done
	// (mcp.Server.CompleteElicitation); empty in the 2026-07-28 era.
	ElicitationID string
}

// ElicitURL asks the user to visit url out of band, for what must not pass
// through the client (credentials, payment, consent at a third party).
// The client must have declared elicitation.url.
func ElicitURL(ctx context.Context, message, url string, opts ...Option) (URLReply, error) {
	p := &protocol.ElicitRequestURLParams{Message: message, URL: url}
	if c := callctx.From(ctx); c != nil && c.Request().Era == protocol.Legacy {
		p.ElicitationID = newElicitationID()
		c.TrackElicitation(p.ElicitationID)
	}
	raw, err := do(ctx, protocol.MethodElicit, protocol.ElicitRequestParams{URL: p}, []string{"elicitation.url"}, opts)
	if err != nil {
		return URLReply{}, err
	}
	res, err := decodeElicitResult(raw)
	if err != nil {
		return URLReply{}, err
	}
	return URLReply{Action: res.Action, ElicitationID: p.ElicitationID}, nil
}

// RequireURL makes the call wait until the user has agreed to visit url
// (credentials for a third party, say), for a handler that cannot go on
// without what the visit gives. It returns nil once the user agreed, and
// otherwise the error for the handler to return:
//
//   - legacy (2025-11-25): a [*URLRequiredError], the -32042 error that
//     tells the client to show the URL and retry the call later
//     (mcp.Server.CompleteElicitation tells it when);
//   - 2026-07-28: the question goes out as an input request like
//     [ElicitURL]'s, and a decline or cancel is an error naming it.
//
// Call it only while what the visit gives is still missing: in the legacy
// era it always answers -32042.
func RequireURL(ctx context.Context, message, url string, opts ...Option) error {
	c := callctx.From(ctx)
	if c == nil {
		return ErrNoCall
	}
	if c.Request().Era != protocol.Legacy {
		reply, err := ElicitURL(ctx, message, url, opts...)
		if err != nil {
			return err
		}
		if reply.Action != Accept {
			return fmt.Errorf("ask: the user did not agree to visit %s (%s)", url, reply.Action)
		}
		return nil
	}
	if !declared(c.Request().ClientCapabilities, "elicitation.url") {
		return &CapabilityError{Capability: "elicitation.url"}
	}
	p := protocol.ElicitRequestURLParams{Message: message, URL: url, ElicitationID: newElicitationID()}
	c.TrackElicitation(p.ElicitationID)
	return &URLRequiredError{Elicitations: []protocol.ElicitRequestURLParams{p}}
}

// URLRequiredError is the legacy -32042 error (URLElicitationRequired):
// the call needs the user to visit the URLs first.
type URLRequiredError struct {
	// Elicitations are the URL elicitations to show.
	Elicitations []protocol.ElicitRequestURLParams
}

// Error names the URLs.
func (e *URLRequiredError) Error() string {
	urls := make([]string, len(e.Elicitations))
	for i, el := range e.Elicitations {
		urls[i] = el.URL
	}
	return fmt.Sprintf("ask: the user must visit %v first", urls)
}

// As makes the error the -32042 *jsonrpc.Error for errors.As, with
// data.elicitations as the server sends it.
func (e *URLRequiredError) As(target any) bool {
	p, ok := target.(**jsonrpc.Error)
	if !ok {
		return false
	}
	*p = jsonrpc.NewError(jsonrpc.CodeURLElicitationRequired, "URL elicitation required: %s", e.Error()[len("ask: "):]).
		WithData(map[string]any{"elicitations": e.Elicitations})
	return true
}

func newElicitationID() string {
	var b [16]byte
	rand.Read(b[:])
	return hex.EncodeToString(b[:])
}
