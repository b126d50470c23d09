package check

import (
	"context"
	"errors"
	"fmt"
	"sync/atomic"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/internal/peer/client"
	"github.com/mcpwire/mcpwire/internal/peer/review"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/schema"
)

// callTools calls every admitted tool that needs no argument and is
// read-only (every such tool with Options.CallAll), one at a time, each call
// bounded by opts.Timeout, and reviews each result. It returns the tool
// whose call the server ended the connection during, if one did: the
// tools after it are not called.
func callTools(ctx context.Context, s *client.Session, opts Options, rep *Report) (gone *ToolReport) {
	var todo []*ToolReport
	for _, t := range rep.Tools {
		if t.Reason = skipReason(t, opts.CallAll); t.Reason == "" {
			todo = append(todo, t)
		}
	}
	if len(todo) > 0 {
		opts.step("calling %d tool%s…", len(todo), plural(len(todo)))
	}
	for i, t := range todo {
		switch {
		case gone != nil:
			t.Reason = SkipServerGone
			continue
		case ctx.Err() != nil:
			t.Reason = SkipOutOfTime
			continue
		}
		opts.step("  %d/%d %s", i+1, len(todo), clip.Quote(t.Name))
		if call(ctx, s, opts, rep.Revision, t) {
			gone = t
		}
		t.Admitted = len(t.Problems) == 0
	}
	return gone
}

// skipReason says why t is not called, "" when it is. A tool needs
// arguments when its inputSchema has required members, or refuses {}
// for another reason (minProperties, a required member under allOf).
func skipReason(t *ToolReport, callAll bool) string {
	var d struct {
		Annotations struct {
			ReadOnlyHint json.RawMessage `json:"readOnlyHint"`
		} `json:"annotations"`
		InputSchema json.RawMessage `json:"inputSchema"`
	}
	var in struct {
		Required []json.RawMessage `json:"required"`
	}
	switch {
	case !t.described || json.Unmarshal(t.descriptor, &d) != nil || json.Unmarshal(d.InputSchema, &in) != nil:
		return SkipNotAdmitted
	case len(in.Required) > 0 || !acceptsNoArguments(d.InputSchema):
		return SkipNeedsArgs
	case !callAll && string(d.Annotations.ReadOnlyHint) != "true":
		return SkipNotReadOnly
	}
	return ""
}

// acceptsNoArguments reports whether an inputSchema accepts {}.
func acceptsNoArguments(inputSchema json.RawMessage) bool {
	s, err := schema.Compile(inputSchema)
	return err == nil && len(s.Validate(json.RawMessage("{}"))) == 0
}

// progressTokens numbers the progress tokens of calls.
var progressTokens atomic.Int64

// call calls t with no arguments and records the outcome and what the
// reviewer found; it reports whether the server ended the connection.
func call(ctx context.Context, s *client.Session, opts Options, rev string, t *ToolReport) (gone bool) {
	cctx, cancel := context.WithCancel(ctx)
	defer cancel()
	// The call asks for progress, and each progress notification restarts
	// its timeout, as hosts do: a long tool that reports progress is alive.
	timer := time.AfterFunc(opts.Timeout, cancel)
	defer timer.Stop()
	token := fmt.Sprintf(`"mcpwire-check-%d"`, progressTokens.Add(1))
	defer s.WatchProgress(json.RawMessage(token), func(protocol.ProgressNotificationParams) { timer.Reset(opts.Timeout) })()
	t.Called = true
	params := map[string]any{"name": t.Name, "arguments": map[string]any{},
		"_meta": map[string]any{"progressToken": json.RawMessage(token)}}
	res, rpcErr, err := s.Call(cctx, protocol.MethodCallTool, params)
	switch {
	case err != nil:
		return failed(ctx, cctx, opts, t, err)
	case rpcErr != nil:
		t.Outcome = OutcomeError
		t.Reason = fmt.Sprintf("error %d: %s", rpcErr.Code, clip.String(rpcErr.Message))
		if refusesRequest(rpcErr.Code) {
			t.add(GateInvoke, RuleCallError, fmt.Sprintf("a call with no arguments, which the inputSchema allows, got JSON-RPC error %d: the server refused a valid request for a tool it lists", rpcErr.Code))
		}
		return false
	}
	if rt := review.ResultType(rev, res); rt != review.ResultComplete && rt != "" {
		t.Outcome, t.Reason = OutcomeIncomplete, "resultType "+clip.Quote(rt)
		return false
	}
	t.Outcome = OutcomeSuccess
	var flag struct {
		IsError bool `json:"isError"`
	}
	if json.Unmarshal(res, &flag) == nil && flag.IsError {
		t.Outcome = OutcomeIsError
	}
	t.Problems = append(t.Problems, review.Result(rev, t.descriptor, res)...)
	return false
}

// refusesRequest reports whether a JSON-RPC error code says the request
// itself was wrong (parse error, invalid request, method not found,
// invalid params): for a listed tool called as its inputSchema allows,
// that is the server's fault. Other codes (an internal error, a missing
// client capability, URL elicitation required) are answers a client can
// act on, reported but not refused.
func refusesRequest(code int64) bool {
	switch code {
	case jsonrpc.CodeParseError, jsonrpc.CodeInvalidRequest, jsonrpc.CodeMethodNotFound, jsonrpc.CodeInvalidParams:
		return true
	}
	return false
}

// failed records a call that got no usable answer; it reports whether
// the server ended the connection.
func failed(ctx, cctx context.Context, opts Options, t *ToolReport, err error) bool {
	t.Outcome = OutcomeFailed
	t.Reason = Trim(err)
	switch {
	case errors.Is(err, client.ErrNoHandler):
		t.add(GateInvoke, RuleInputUndeclared, "the tool's input_required asked for input the client did not declare (it declares elicitation and roots, not sampling)")
	case ctx.Err() != nil:
		t.Called, t.Outcome, t.Reason = false, OutcomeNotCalled, SkipOutOfTime
	case cctx.Err() != nil:
		t.Outcome, t.Reason = OutcomeTimeout, fmt.Sprintf("no answer within %v", opts.Timeout)
		t.add(GateInvoke, RuleCallTimeout, fmt.Sprintf("the call got no answer, and no progress, within %v (%s); it was cancelled", opts.Timeout, opts.TimeoutName))
	case errors.Is(err, client.ErrDisconnected):
		t.add(GateInvoke, RuleCallFailed, "the server ended the connection during the call")
		return true
	default:
		t.add(GateInvoke, RuleCallFailed, "the call got no usable answer: "+Trim(err))
	}
	return false
}

// add records one finding about t.
func (t *ToolReport) add(gate, rule, msg string) {
	t.Problems = append(t.Problems, review.Problem{Gate: gate, Rule: rule, Message: msg})
}

// plural is "s" unless n is 1.
func plural(n int) string {
	if n == 1 {
		return ""
	}
	return "s"
}
