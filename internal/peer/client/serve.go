package client

import (
	"context"
	"errors"
	"fmt"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// serve answers one request of the server (legacy era): ping at once, the
// input requests on a goroutine each, anything else with -32601.
func (s *Session) serve(req *jsonrpc.Request) {
	if s.modern.Load() {
		s.problem("the server sent a request (%s, id %s) in the 2026-07-28 era, which has none", clip.Quote(req.Method), req.ID)
		return
	}
	switch req.Method {
	case protocol.MethodPing:
		s.respond(req.ID, json.RawMessage("{}"), nil)
		return
	case protocol.MethodElicit, protocol.MethodCreateMessage, protocol.MethodListRoots:
	default:
		s.respond(req.ID, nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: the client does not answer %s", clip.Quote(req.Method)))
		return
	}
	key := req.ID.Key()
	ctx, cancel := context.WithCancel(s.life)
	s.mu.Lock()
	if _, dup := s.serving[key]; dup {
		s.mu.Unlock()
		cancel()
		s.problem("the server sent request id %s again while the first is being answered", req.ID)
		s.respond(req.ID, nil, jsonrpc.NewError(jsonrpc.CodeInvalidRequest, "invalid request: id %s is in use", req.ID))
		return
	}
	s.serving[key] = cancel
	s.workers.Add(1) // before Close waits: Close waits for the reader first
	s.mu.Unlock()
	go func() {
		defer s.workers.Done()
		answer, err := s.answerLegacy(ctx, req)
		cancel()
		s.mu.Lock()
		_, live := s.serving[key]
		delete(s.serving, key)
		s.mu.Unlock()
		if live { // a request the server cancelled gets no response
			s.respond(req.ID, answer, err)
		}
	}()
}

// answerLegacy runs the handler for a legacy request.
func (s *Session) answerLegacy(ctx context.Context, req *jsonrpc.Request) (json.RawMessage, error) {
	in, err := legacyInput(req.Method, req.Params)
	if err != nil {
		return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: %v", err)
	}
	answer, err := s.answer(ctx, in)
	if errors.Is(err, ErrNoHandler) {
		return nil, jsonrpc.NewError(jsonrpc.CodeMethodNotFound, "method not found: the client does not answer %s", req.Method)
	}
	return answer, err
}

// legacyInput reads a legacy request as the input request it is.
func legacyInput(method string, params json.RawMessage) (*protocol.InputRequest, error) {
	var in protocol.InputRequest
	switch method {
	case protocol.MethodElicit:
		in.Elicit = &protocol.ElicitRequestParams{}
		return &in, decodeParams(params, in.Elicit)
	case protocol.MethodCreateMessage:
		in.CreateMessage = &protocol.CreateMessageRequestParams{}
		return &in, decodeParams(params, in.CreateMessage)
	}
	in.ListRoots = &protocol.ListRootsRequestParams{}
	return &in, nil
}

// decodeParams decodes required params.
func decodeParams(params json.RawMessage, v any) error {
	if len(params) == 0 {
		return errors.New("params are missing")
	}
	return json.Unmarshal(params, v)
}

// answer runs the handler for one input request and encodes its answer.
func (s *Session) answer(ctx context.Context, in *protocol.InputRequest) (json.RawMessage, error) {
	h := s.opts.Handlers
	switch {
	case in.Elicit != nil && h.Elicit != nil:
		return encodeAnswer(h.Elicit(ctx, in.Elicit))
	case in.CreateMessage != nil && h.Sample != nil:
		return encodeAnswer(h.Sample(ctx, in.CreateMessage))
	case in.ListRoots != nil && h.Roots != nil:
		return encodeAnswer(h.Roots(ctx))
	}
	return nil, fmt.Errorf("%w: %s", ErrNoHandler, inputMethod(in))
}

// inputMethod names an input request's method.
func inputMethod(in *protocol.InputRequest) string {
	switch {
	case in.Elicit != nil:
		return protocol.MethodElicit
	case in.CreateMessage != nil:
		return protocol.MethodCreateMessage
	}
	return protocol.MethodListRoots
}

// encodeAnswer encodes what a handler returned.
func encodeAnswer[T any](v *T, err error) (json.RawMessage, error) {
	if err != nil {
		return nil, err
	}
	if v == nil {
		return nil, errors.New("client: the handler returned no answer")
	}
	return json.Marshal(v)
}

// respond writes the answer to one of the server's requests; a write that
// fails means the connection is ending, which the reader reports.
func (s *Session) respond(id jsonrpc.ID, result json.RawMessage, err error) {
	resp := &jsonrpc.Response{ID: id, Result: result}
	if err != nil {
		resp = jsonrpc.NewErrorResponse(id, err)
	}
	s.conn.Write(s.life, resp)
}

// stopServing cancels the handler answering key, whose response is then
// never sent.
func (s *Session) stopServing(key string) {
	s.mu.Lock()
	cancel := s.serving[key]
	delete(s.serving, key)
	s.mu.Unlock()
	if cancel != nil {
		cancel()
	}
}

// cancelServing cancels every handler: the connection ended.
func (s *Session) cancelServing() {
	s.mu.Lock()
	defer s.mu.Unlock()
	for _, cancel := range s.serving {
		cancel()
	}
}
