package scenario

import (
	"context"
	"encoding/json"
	"fmt"
	"reflect"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/interop/go/internal/harness"
)

// The tools of cmd/everything that ask the client something.
const (
	samplingTool    = "test_sampling"
	elicitationTool = "test_elicitation"
	rootsTool       = "test_input_required_result_list_roots"
	multiRoundTool  = "test_input_required_result_multi_round"
)

// askCheck is one check of a tool that asks the client: in the legacy era
// the server sends the client requests while the call runs, and the SDK's
// handlers answer them; in 2026-07-28 the server answers input_required and
// the SDK retries the call with the answers.
type askCheck struct {
	check, tool string
	args        map[string]any
	// rounds are the methods of the questions, one entry per round: in
	// the modern era each is one input_required result's inputRequests
	// (sorted); in the legacy era they are the server's requests, in
	// order, during the one call.
	rounds [][]string
	// handler is the kind of the adapter's handler that must have run,
	// and how many times, or "" when the SDK may answer without one.
	handler string
	calls   int
	// want checks the result's text, given what the handlers answered.
	want func(text string) string
}

func (x *run) askChecks() []askCheck {
	elicit := []string{"elicitation/create"}
	return []askCheck{
		{
			check: "sampling", tool: samplingTool, args: map[string]any{"prompt": "interop: say something"},
			rounds: [][]string{{"sampling/createMessage"}}, handler: "sampling", calls: 1,
			want: func(text string) string {
				if want := "LLM response: " + SampledReply; text != want {
					return fmt.Sprintf("text %q, want %q", text, want)
				}
				return ""
			},
		},
		{
			check: "elicitation", tool: elicitationTool, args: map[string]any{"message": "interop: please fill in the form"},
			rounds: [][]string{elicit}, handler: "elicitation", calls: 1,
			// x.accepted is what the SDK sent back, read off the wire
			// after the call.
			want: func(text string) string { return elicitTextProblem(text, "accept", x.accepted) },
		},
		{
			check: "elicitation-decline", tool: elicitationTool, args: map[string]any{"message": "interop: please decline this one"},
			rounds: [][]string{elicit}, handler: "elicitation", calls: 1,
			want: func(text string) string { return elicitTextProblem(text, "decline", nil) },
		},
		{
			check: "roots", tool: rootsTool, args: map[string]any{},
			// go-sdk keeps the roots itself (Client.AddRoots) and calls no
			// handler of ours; the wire shows what it answered.
			rounds: [][]string{{"roots/list"}},
			want: func(text string) string {
				if !strings.Contains(text, RootURI) {
					return fmt.Sprintf("text %q does not mention the client's root %s", text, RootURI)
				}
				return ""
			},
		},
		{
			check: "multi-round", tool: multiRoundTool, args: map[string]any{},
			rounds: [][]string{elicit, elicit}, handler: "elicitation", calls: 2,
			want: func(text string) string {
				if !strings.Contains(text, answerName) || !strings.Contains(text, answerColor) {
					return fmt.Sprintf("text %q does not contain both answers, %q (step 1) and %q (step 2)", text, answerName, answerColor)
				}
				return ""
			},
		},
	}
}

func (x *run) checkAsks(ctx context.Context) {
	for _, c := range x.askChecks() {
		x.checkAsk(ctx, c)
	}
}

func (x *run) checkAsk(ctx context.Context, c askCheck) {
	if x.skipUnlisted(c.check, c.tool) {
		return
	}
	mark := x.wire.Len()
	before := len(x.handlers.Calls(c.handler))
	res, err := x.call(ctx, c.tool, c.args)
	onWire, wireErr := askWire(x.wire.Lines(), mark, c.tool, c.rounds, x.modern)
	if err != nil {
		x.r.Fail(c.check, "%s: %v (wire: %s)", errChain(err), err, orProblem(onWire, wireErr))
		return
	}
	if res.IsError {
		x.r.Fail(c.check, "isError: %s (wire: %s)", firstText(res), orProblem(onWire, wireErr))
		return
	}
	x.accepted = acceptedOnWire(x.wire.Lines(), mark)
	text := firstText(res)
	if problem := c.want(text); problem != "" {
		x.r.Fail(c.check, "%s (wire: %s)", problem, orProblem(onWire, wireErr))
		return
	}
	if wireErr != nil {
		x.r.Fail(c.check, "the text is right (%q) but the wire is not: %v", text, wireErr)
		return
	}
	ran := ""
	if c.handler != "" {
		asked := x.handlers.Calls(c.handler)[before:]
		if len(asked) != c.calls {
			x.r.Fail(c.check, "the SDK ran its %s handler %d times, want %d (wire: %s)", c.handler, len(asked), c.calls, onWire)
			return
		}
		ran = fmt.Sprintf("; the SDK's %s handler ran %d time(s)", c.handler, len(asked))
	}
	x.r.Pass(c.check, "text %q; %s%s", text, onWire, ran)
}

func orProblem(summary string, err error) string {
	if err != nil {
		return err.Error()
	}
	return summary
}

// elicitTextProblem checks test_elicitation's text, "User response:
// action=<a>, content=<json>": the action, and for an accepted form the
// content the handler gave.
func elicitTextProblem(text, action string, content map[string]any) string {
	prefix := "User response: action=" + action
	if !strings.HasPrefix(text, prefix) {
		return fmt.Sprintf("text %q, want it to start with %q", text, prefix)
	}
	if action != "accept" {
		return ""
	}
	rest, ok := strings.CutPrefix(text, prefix+", content=")
	if !ok {
		return fmt.Sprintf("text %q has no \", content=\" after the action", text)
	}
	var got map[string]any
	if err := json.Unmarshal([]byte(rest), &got); err != nil {
		return fmt.Sprintf("content in the text is no JSON object: %q: %v", rest, err)
	}
	// Compare as JSON values: numbers decode as float64 either way.
	want, _ := json.Marshal(content)
	var w map[string]any
	_ = json.Unmarshal(want, &w)
	if !reflect.DeepEqual(got, w) {
		return fmt.Sprintf("content in the text %s, the client accepted with %s", rest, want)
	}
	return ""
}

// acceptedOnWire is the content of the first accepted form the client sent
// after transcript position from: in the result of its response to an
// elicitation/create (legacy) or in the inputResponses of a retried call
// (modern).
func acceptedOnWire(lines []harness.Line, from int) map[string]any {
	for _, l := range lines[from:] {
		if l.Dir != harness.ClientToServer {
			continue
		}
		var answers []json.RawMessage
		switch {
		case l.IsResponse() && !l.IsError:
			answers = append(answers, l.Result)
		case l.Method == "tools/call":
			var p struct {
				InputResponses map[string]json.RawMessage `json:"inputResponses"`
			}
			_ = json.Unmarshal(l.Params, &p)
			for _, r := range p.InputResponses {
				answers = append(answers, r)
			}
		}
		for _, a := range answers {
			var e struct {
				Action  string         `json:"action"`
				Content map[string]any `json:"content"`
			}
			if json.Unmarshal(a, &e) == nil && e.Action == "accept" {
				return e.Content
			}
		}
	}
	return nil
}

// askWire checks the exchange of a tool call that asks the client, from
// transcript position from, and summarises it.
//
// Legacy: one tools/call; while it runs the server sends requests with the
// methods of rounds, in order, each answered by the client with a result
// before the call's result.
//
// Modern: one tools/call per round plus the last: every answer but the last
// is resultType input_required with inputRequests of the round's methods;
// each retry has a new id, carries inputResponses for every key asked and
// echoes requestState exactly (or omits it when none was given); the last
// answer is resultType complete. The server sends no requests.
func askWire(lines []harness.Line, from int, tool string, rounds [][]string, modern bool) (string, error) {
	var calls []harness.Line
	for _, l := range lines[from:] {
		if l.Dir != harness.ClientToServer || l.Method != "tools/call" || !l.IsRequest() {
			continue
		}
		var p callParams
		if json.Unmarshal(l.Params, &p) == nil && p.Name == tool {
			calls = append(calls, l)
		}
	}
	if len(calls) == 0 {
		return "", fmt.Errorf("no tools/call for %s", tool)
	}
	if modern {
		return modernAskWire(lines, from, calls, rounds)
	}
	return legacyAskWire(lines, calls, rounds)
}

func legacyAskWire(lines []harness.Line, calls []harness.Line, rounds [][]string) (string, error) {
	if len(calls) != 1 {
		return "", fmt.Errorf("%d tools/call requests, want 1 in the legacy era", len(calls))
	}
	call := calls[0]
	resp, ok := responseAfter(lines, harness.ServerToClient, call.ID, call.Seq)
	if !ok {
		return "", fmt.Errorf("no answer to tools/call id %s", call.ID)
	}
	var want, got, parts []string
	for _, r := range rounds {
		want = append(want, r...)
	}
	for _, l := range lines[call.Seq+1 : resp.Seq] {
		if l.Dir != harness.ServerToClient || !l.IsRequest() {
			continue
		}
		got = append(got, l.Method)
		answer, ok := responseAfter(lines, harness.ClientToServer, l.ID, l.Seq)
		switch {
		case !ok || answer.Seq > resp.Seq:
			return "", fmt.Errorf("the client did not answer the server's %s (id %s) before the call's result", l.Method, l.ID)
		case answer.IsError:
			return "", fmt.Errorf("the client answered the server's %s (id %s) with error %d %q", l.Method, l.ID, answer.ErrCode, answer.ErrMsg)
		}
		parts = append(parts, fmt.Sprintf("%s (id %s) answered %.120s", l.Method, l.ID, answer.Result))
	}
	if !slices.Equal(got, want) {
		return "", fmt.Errorf("during the call the server asked %v, want %v", got, want)
	}
	return fmt.Sprintf("one tools/call; the server asked %s; then the result", strings.Join(parts, ", ")), nil
}

// inputRequired is the part of an input_required result the checks read.
type inputRequired struct {
	ResultType    string `json:"resultType"`
	InputRequests map[string]struct {
		Method string `json:"method"`
	} `json:"inputRequests"`
	RequestState *string `json:"requestState"`
}

func modernAskWire(lines []harness.Line, from int, calls []harness.Line, rounds [][]string) (string, error) {
	for _, l := range lines[from:] {
		if l.Dir == harness.ServerToClient && l.IsRequest() {
			return "", fmt.Errorf("the server sent a request to a modern client: %s", l.Head)
		}
	}
	if len(calls) != len(rounds)+1 {
		return "", fmt.Errorf("%d tools/call requests, want %d (%d input_required rounds and the complete one)", len(calls), len(rounds)+1, len(rounds))
	}
	seen := map[string]bool{}
	var parts []string
	var prev *inputRequired
	for i, call := range calls {
		if seen[call.ID] {
			return "", fmt.Errorf("call %d reuses id %s", i+1, call.ID)
		}
		seen[call.ID] = true
		if prev != nil {
			if err := retryProblem(call, prev); err != nil {
				return "", fmt.Errorf("retry %d (id %s): %w", i, call.ID, err)
			}
		}
		resp, ok := responseAfter(lines, harness.ServerToClient, call.ID, call.Seq)
		if !ok {
			return "", fmt.Errorf("no answer to call %d (id %s)", i+1, call.ID)
		}
		if resp.IsError {
			return "", fmt.Errorf("call %d (id %s): error %d %q", i+1, call.ID, resp.ErrCode, resp.ErrMsg)
		}
		var res inputRequired
		if err := json.Unmarshal(resp.Result, &res); err != nil {
			return "", fmt.Errorf("call %d: result %.200s: %v", i+1, resp.Result, err)
		}
		if i == len(rounds) {
			if res.ResultType != "complete" {
				return "", fmt.Errorf("call %d: resultType %q, want \"complete\" after %d rounds: %s", i+1, res.ResultType, len(rounds), resp.Head)
			}
			parts = append(parts, "complete")
			break
		}
		if res.ResultType != "input_required" {
			return "", fmt.Errorf("call %d: resultType %q, want \"input_required\" (round %d of %d): %s", i+1, res.ResultType, i+1, len(rounds), resp.Head)
		}
		var methods, keys []string
		for k, r := range res.InputRequests {
			keys = append(keys, k)
			methods = append(methods, r.Method)
		}
		slices.Sort(keys)
		slices.Sort(methods)
		if !slices.Equal(methods, rounds[i]) {
			return "", fmt.Errorf("round %d asked %v, want %v: %s", i+1, methods, rounds[i], resp.Head)
		}
		state := "no requestState"
		if res.RequestState != nil {
			state = "requestState"
		}
		parts = append(parts, fmt.Sprintf("input_required %v with %s", keys, state))
		prev = &res
	}
	return fmt.Sprintf("%d calls: %s, each retried with a new id, the answers under the same keys and the state echoed", len(rounds)+1, strings.Join(parts, " → ")), nil
}

// retryProblem checks that a retried call answers every question of the
// previous input_required result and echoes its requestState.
func retryProblem(call harness.Line, prev *inputRequired) error {
	var p struct {
		InputResponses map[string]json.RawMessage `json:"inputResponses"`
		RequestState   *string                    `json:"requestState"`
	}
	if err := json.Unmarshal(call.Params, &p); err != nil {
		return err
	}
	for k := range prev.InputRequests {
		if _, ok := p.InputResponses[k]; !ok {
			return fmt.Errorf("no inputResponses[%q]: %.300s", k, call.Params)
		}
	}
	switch {
	case prev.RequestState == nil && p.RequestState != nil:
		return fmt.Errorf("a requestState the server never gave")
	case prev.RequestState != nil && p.RequestState == nil:
		return fmt.Errorf("the requestState is not echoed")
	case prev.RequestState != nil && *p.RequestState != *prev.RequestState:
		return fmt.Errorf("the requestState echoed is not the one given")
	}
	return nil
}

// responseAfter finds the response travelling in direction d to the request
// with the given raw id, after transcript position seq.
func responseAfter(lines []harness.Line, d harness.Dir, id string, seq int) (harness.Line, bool) {
	for _, l := range lines[seq+1:] {
		if l.Dir == d && l.IsResponse() && l.ID == id {
			return l, true
		}
	}
	return harness.Line{}, false
}
