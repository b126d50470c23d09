package mcp

import (
	"context"
	"errors"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/ratelimit"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// hasCompletions reports whether a prompt or a template has a completion
// provider: only then is the completions capability declared.
func (s *Server) hasCompletions() bool {
	s.mu.RLock()
	defer s.mu.RUnlock()
	for _, e := range s.prompts.list {
		if len(e.p.Complete) > 0 {
			return true
		}
	}
	for _, e := range s.templates.list {
		if len(e.tmpl.Complete) > 0 {
			return true
		}
	}
	return false
}

// handleComplete answers completion/complete. The reference must name a
// registered prompt (ref/prompt) or a registered template by its URI
// template text (ref/resource), and the argument one of its arguments or
// variables: otherwise -32602. An argument without a provider gets no
// values. The runtime, not the provider, caps the values at
// MaxCompletionValues (setting hasMore) and keeps total honest; suggestion
// values are never logged.
func handleComplete(ctx context.Context, ss *session, c *call, r *request, p *protocol.CompleteRequestParams) (any, error) {
	if r.params.Get("ref") == nil || r.params.Get("argument") == nil {
		return nil, invalidParams(`completion/complete needs "ref" and "argument" objects`)
	}
	provider, known, scopes, rerr := ss.srv.provider(p.Ref, p.Argument.Name)
	if rerr != nil {
		return nil, rerr
	}
	if !r.caller.HasScopes(scopes...) {
		// A prompt or template the caller may not see has no arguments
		// to complete, as one that does not exist.
		return nil, scopeRefusal(ctx, refName(p.Ref), scopes, unknownRef(p.Ref))
	}
	if !known {
		return nil, invalidParams("%s has no argument %s", refName(p.Ref), clip.Quote(p.Argument.Name))
	}
	if !ss.srv.completionRate.Allow(callerKey(r.caller)) {
		return nil, rateLimited("completion requests")
	}
	res := &protocol.CompleteResult{Completion: protocol.Completion{Values: []string{}}}
	if provider == nil {
		return res, nil
	}
	req := CompleteRequest{Argument: p.Argument.Name, Value: p.Argument.Value, Caller: r.caller}
	if p.Context != nil {
		req.Context = p.Context.Arguments
	}
	out, err := provider(c.handlerContext(ctx), req)
	if err != nil {
		var rpcErr *jsonrpc.Error
		if errors.As(err, &rpcErr) {
			return nil, rpcErr
		}
		ss.log.Log(ctx, ss.srv.opts.HandlerErrorLevel, "mcp: completion failed", "ref", refName(p.Ref), "argument", p.Argument.Name, "error", err.Error())
		return nil, jsonrpc.NewError(jsonrpc.CodeInternalError, "internal error: completing %s of %s: %s", clip.Quote(p.Argument.Name), refName(p.Ref), err.Error())
	}
	ss.log.Debug("mcp: completion", "ref", refName(p.Ref), "argument", p.Argument.Name, "values", len(out.Values))
	res.Completion = completion(out)
	return res, nil
}

// completion applies the protocol's rules to a provider's answer: at most
// MaxCompletionValues values, hasMore when some were left out, and a total
// never below the number of values.
func completion(out CompleteResult) protocol.Completion {
	values, more, total := out.Values, out.HasMore, out.Total
	if len(values) > MaxCompletionValues {
		total = max(total, len(values))
		values, more = values[:MaxCompletionValues], true
	}
	if values == nil {
		values = []string{}
	}
	c := protocol.Completion{Values: values}
	if total > 0 || len(values) == 0 && !more {
		t := int64(max(total, len(values)))
		c.Total = &t
	}
	if more || total > len(values) {
		yes := true
		c.HasMore = &yes
	}
	return c
}

// provider finds the completion provider of an argument: known is false
// when the reference has no such argument; the provider is nil when the
// argument has none; scopes are those the prompt or template needs.
func (s *Server) provider(ref protocol.CompletionReference, arg string) (_ CompleteFunc, known bool, scopes []string, _ *jsonrpc.Error) {
	s.mu.RLock()
	defer s.mu.RUnlock()
	switch {
	case ref.Prompt != nil:
		e, ok := s.prompts.get(ref.Prompt.Name)
		if !ok {
			return nil, false, nil, unknownRef(ref)
		}
		p := e.p
		for _, a := range p.Arguments {
			if a.Name == arg {
				return p.Complete[arg], true, p.Scopes, nil
			}
		}
		return nil, false, p.Scopes, nil
	case ref.Resource != nil:
		t, ok := s.templates.get(ref.Resource.URI)
		if !ok {
			return nil, false, nil, unknownRef(ref)
		}
		for _, v := range t.matcher.Vars() {
			if v == arg {
				return t.tmpl.Complete[arg], true, t.tmpl.Scopes, nil
			}
		}
		return nil, false, t.tmpl.Scopes, nil
	}
	return nil, false, nil, invalidParams(`"ref" must be a ref/prompt or a ref/resource`)
}

// unknownRef is the error of a reference to no prompt or template.
func unknownRef(ref protocol.CompletionReference) *jsonrpc.Error {
	if ref.Prompt != nil {
		return invalidParams("unknown prompt %s", clip.Quote(ref.Prompt.Name))
	}
	return invalidParams("no resource template %s", clip.Quote(ref.Resource.URI))
}

// refName names a reference in messages and logs.
func refName(ref protocol.CompletionReference) string {
	switch {
	case ref.Prompt != nil:
		return "prompt " + clip.Quote(ref.Prompt.Name)
	case ref.Resource != nil:
		return "resource template " + clip.Quote(ref.Resource.URI)
	}
	return "the reference"
}

// callerKey is the key of caller's rate limits: its subject, "" (one
// budget shared) for anonymous callers.
func callerKey(caller *auth.Principal) string {
	if caller == nil {
		return ""
	}
	return caller.Subject
}

// toolCallRate is Options.ToolCallRate as a middleware: rate tools/call
// requests a second per caller, with bursts of twice that.
func toolCallRate(rate int) Middleware {
	limit := ratelimit.NewPerKey(rate)
	return func(next Handler) Handler {
		return func(ctx context.Context, req *Request) (json.RawMessage, error) {
			if req.Method == protocol.MethodCallTool && !limit.Allow(callerKey(req.Caller)) {
				return nil, rateLimited("tool calls")
			}
			return next(ctx, req)
		}
	}
}

// rateLimited is the error of a request refused by a caller's rate limit;
// what names the requests counted.
func rateLimited(what string) *jsonrpc.Error {
	return jsonrpc.NewError(jsonrpc.CodeInternalError, "rate limited: too many %s from this caller; retry in a second", what).
		WithData(map[string]string{"reason": "rate_limited"})
}
