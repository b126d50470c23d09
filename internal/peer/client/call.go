package client

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"sort"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/jsonx"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// Call sends method with params and returns the result, or the server's
// error response as rpcErr; err reports what kept the call from getting
// an answer: ctx ended (the server gets notifications/cancelled), the
// connection ended, the answer could not be read, or, in the modern era,
// an input request could not be answered.
//
// params may be nil (none), a json.RawMessage sent as it is, or any value
// encoded as JSON. In the modern era an object's _meta gets the
// per-request protocolVersion, clientCapabilities and clientInfo wherever
// it lacks them, and an input_required result is answered and the request
// sent again, until the result is complete (see the package doc). Params
// that are not an object are sent as they are.
func (s *Session) Call(ctx context.Context, method string, params any) (result json.RawMessage, rpcErr *jsonrpc.Error, err error) {
	raw, err := encodeParams(params)
	if err != nil {
		return nil, nil, fmt.Errorf("client: %s params: %w", method, err)
	}
	if s.era != protocol.Modern {
		return s.call(ctx, method, raw)
	}
	first, ok := s.spliceMeta(raw)
	var m members
	if !ok {
		if m, ok = parseMembers(raw); !ok {
			return s.call(ctx, method, raw)
		}
		m.set("_meta", s.withMeta(m.get("_meta")))
		first = m.encode()
	}
	if ctx.Value(resumeKey{}) != nil {
		if m == nil {
			m, _ = parseMembers(first)
		}
		var ok bool
		if m, ok = resumed(ctx, method, m); ok {
			first = m.encode()
		}
	}
	for round, params := 1, first; ; round++ {
		result, rpcErr, err := s.call(ctx, method, params)
		if err != nil || rpcErr != nil {
			return result, rpcErr, err
		}
		in, err := inputRequired(result)
		if err != nil || in == nil {
			return result, nil, wrap(method, err)
		}
		if round > s.opts.MaxInputRounds {
			return nil, nil, fmt.Errorf("%w: %s was still input_required after %d rounds", ErrTooManyRounds, method, s.opts.MaxInputRounds)
		}
		answers, err := s.answerAll(ctx, in.requests)
		if d := (*Deferred)(nil); errors.As(err, &d) {
			d.Method, d.State = method, in.state
			return nil, nil, d
		}
		if err != nil {
			return nil, nil, fmt.Errorf("client: %s, round %d: %w", method, round, err)
		}
		if m == nil {
			m, _ = parseMembers(first)
		}
		m.set("inputResponses", answers)
		m.set("requestState", in.state)
		params = m.encode()
	}
}

// spliceMeta returns params with the session's _meta, encoded once, put
// first, when params is an object without _meta and no log level is set:
// the common call, which then costs no decoding and encoding of its
// params. ok is false otherwise.
func (s *Session) spliceMeta(params json.RawMessage) (json.RawMessage, bool) {
	s.mu.Lock()
	bare := s.bareMeta
	if s.logLevel != "" {
		bare = nil
	}
	s.mu.Unlock()
	if bare == nil {
		return nil, false
	}
	return jsonx.Prepend(params, "_meta", bare)
}

// call is one request and its response.
func (s *Session) call(ctx context.Context, method string, params json.RawMessage) (json.RawMessage, *jsonrpc.Error, error) {
	resp, err := s.roundTrip(ctx, method, params, true)
	if err != nil {
		return nil, nil, err
	}
	if resp.Error != nil {
		return nil, resp.Error, nil
	}
	return resp.Result, nil, nil
}

// encodeParams encodes a caller's params.
func encodeParams(p any) (json.RawMessage, error) {
	switch p := p.(type) {
	case nil:
		return nil, nil
	case json.RawMessage:
		return jsonx.OneLine(p) // a stdio line cannot carry it across lines
	}
	return json.Marshal(p)
}

// metaFor returns the per-request _meta members for version.
func (s *Session) metaFor(version string) map[string]json.RawMessage {
	v, _ := json.Marshal(version)
	c := *s.opts.Capabilities
	if c.Roots != nil { // 2026-07-28 declares roots as {}: no listChanged
		c.Roots = protocol.Object{}
	}
	caps, _ := json.Marshal(&c)
	info, _ := json.Marshal(s.opts.ClientInfo)
	return map[string]json.RawMessage{
		protocol.MetaProtocolVersion:    v,
		protocol.MetaClientCapabilities: caps,
		protocol.MetaClientInfo:         info,
	}
}

// withMeta returns the caller's _meta with the session's members added
// where it lacks them; a _meta that is not an object is the caller's to
// send as it is.
func (s *Session) withMeta(given json.RawMessage) json.RawMessage {
	if given == nil && s.bareMeta != nil {
		s.mu.Lock()
		level := s.logLevel
		s.mu.Unlock()
		if level == "" {
			return s.bareMeta // the common case, encoded once
		}
	}
	if given == nil {
		given = json.RawMessage("{}")
	}
	m, ok := parseMembers(given)
	if !ok {
		return given
	}
	keys := make([]string, 0, len(s.meta))
	for k := range s.meta {
		keys = append(keys, k)
	}
	sort.Strings(keys)
	for _, k := range keys {
		if m.get(k) == nil {
			m.set(k, s.meta[k])
		}
	}
	s.mu.Lock()
	level := s.logLevel
	s.mu.Unlock()
	if level != "" && m.get(protocol.MetaLogLevel) == nil {
		b, _ := json.Marshal(level)
		m.set(protocol.MetaLogLevel, b)
	}
	return m.encode()
}

// input is what an input_required result asks.
type input struct {
	requests json.RawMessage // the inputRequests object, nil when absent
	state    json.RawMessage // the requestState token, nil when absent
}

// inputRequired returns what result asks when its resultType is
// input_required, nil otherwise.
func inputRequired(result json.RawMessage) (*input, error) {
	if jsonx.FirstByte(result) != '{' || bytes.HasPrefix(result, completeFirst) {
		// Not an object, or one that says first that it is complete (the
		// wire's decoder refuses a result that repeats a key): complete.
		return nil, nil
	}
	sc := jsonx.Scanner{Collect: true, Trusted: true} // checked by the wire's decoder
	if _, ok := sc.Scan(result); !ok {
		return nil, nil
	}
	var rt json.RawMessage
	var in input
	for i := range sc.NumMembers() {
		mb := sc.Member(i)
		key, v := mb.Key.Content(result), json.RawMessage(result[mb.Value.Start:mb.Value.End])
		switch {
		case jsonx.EqualText(key, mb.Key.Escaped, "resultType"):
			rt = v
		case jsonx.EqualText(key, mb.Key.Escaped, "inputRequests"):
			in.requests = v
		case jsonx.EqualText(key, mb.Key.Escaped, "requestState"):
			in.state = v
		}
	}
	if !isInputRequired(rt) {
		return nil, nil // no resultType, or another: complete
	}
	if in.state != nil && jsonx.FirstByte(in.state) != '"' {
		return nil, fmt.Errorf("%w: requestState is not a string", ErrBadAnswer)
	}
	if in.requests == nil && in.state == nil {
		return nil, fmt.Errorf("%w: an input_required result with neither inputRequests nor requestState", ErrBadAnswer)
	}
	return &in, nil
}

// completeFirst starts a result whose first member says it is complete, as
// servers commonly write it.
var completeFirst = []byte(`{"resultType":"` + string(protocol.ResultTypeComplete) + `"`)

// isInputRequired reports whether the resultType token rt is the string
// "input_required".
func isInputRequired(rt json.RawMessage) bool {
	if string(rt) == `"`+string(protocol.ResultTypeInputRequired)+`"` {
		return true
	}
	if !bytes.ContainsRune(rt, '\\') {
		return false // a plain string other than input_required, or not a string
	}
	var t protocol.ResultType
	return jsonx.FirstByte(rt) == '"' && json.Unmarshal(rt, &t) == nil && t == protocol.ResultTypeInputRequired
}

// answerAll answers every input request, in key order, and returns the
// inputResponses object (nil when there was nothing to answer).
func (s *Session) answerAll(ctx context.Context, requests json.RawMessage) (json.RawMessage, error) {
	if requests == nil {
		return nil, nil
	}
	m, ok := parseMembers(requests)
	if !ok {
		return nil, fmt.Errorf("%w: inputRequests is not an object", ErrBadAnswer)
	}
	m.sort()
	if round := s.opts.Handlers.Round; round != nil {
		return s.answerRound(ctx, round, m)
	}
	var out members
	for _, req := range m {
		var in protocol.InputRequest
		if err := json.Unmarshal(req.value, &in); err != nil {
			return nil, fmt.Errorf("%w: input request %s: %v", ErrBadAnswer, clip.Quote(req.key), err)
		}
		answer, err := s.answer(ctx, &in)
		if err != nil {
			return nil, fmt.Errorf("input request %s: %w", clip.Quote(req.key), err)
		}
		out = append(out, member{req.key, answer})
	}
	return out.encode(), nil
}

// answerRound answers the input requests m (sorted by key) with
// Handlers.Round.
func (s *Session) answerRound(ctx context.Context, round func(context.Context, map[string]protocol.InputRequest) (map[string]json.RawMessage, error), m members) (json.RawMessage, error) {
	requests := make(map[string]protocol.InputRequest, len(m))
	for _, req := range m {
		var in protocol.InputRequest
		if err := json.Unmarshal(req.value, &in); err != nil {
			return nil, fmt.Errorf("%w: input request %s: %v", ErrBadAnswer, clip.Quote(req.key), err)
		}
		requests[req.key] = in
	}
	answers, err := round(ctx, requests)
	if errors.Is(err, ErrDeferred) {
		return nil, &Deferred{Requests: requests}
	}
	if err != nil {
		return nil, err
	}
	out := make(members, 0, len(m))
	for _, req := range m {
		a, ok := answers[req.key]
		if !ok {
			return nil, fmt.Errorf("input request %s: no answer", clip.Quote(req.key))
		}
		out = append(out, member{req.key, a})
	}
	return out.encode(), nil
}

// Answer answers the input requests of an inputRequests object (a task's
// questions, say) with Options.Handlers, in key order, and returns the
// inputResponses object; nil requests give nil.
func (s *Session) Answer(ctx context.Context, requests json.RawMessage) (json.RawMessage, error) {
	return s.answerAll(ctx, requests)
}
