package main

import (
	"context"
	"errors"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// The tools of the conformance suite's input-required scenarios (SEP-2322,
// 2026-07-28), with the question keys and messages the suite expects. In
// the legacy era they ask the same questions as requests to the client.

// nameForm asks for a name.
type nameForm struct {
	Name string `json:"name"`
}

// colorForm asks for a color.
type colorForm struct {
	Color string `json:"color"`
}

// contextForm asks for the context of test_input_required_result_prompt.
type contextForm struct {
	Context string `json:"context"`
}

// inputForm asks for the input of test_input_required_result_capabilities.
type inputForm struct {
	Input string `json:"input"`
}

// inputRequiredTools are the input-required scenarios' tools, in listing
// order.
func inputRequiredTools() []tool.Tool {
	return []tool.Tool{
		tool.New("test_input_required_result_elicitation", "Asks the user's name (key user_name) and greets them.",
			func(ctx context.Context, _ struct{}) (*tool.Result, error) {
				reply, err := ask.ElicitAs[nameForm](ctx, "What is your name?", ask.Key("user_name"))
				if err != nil {
					return nil, err
				}
				if !reply.Accepted() {
					return tool.TextResult("No name given: action=" + string(reply.Action)), nil
				}
				return tool.TextResult("Hello, " + reply.Content.Name + "!"), nil
			}),
		tool.New("test_input_required_result_sampling", "Asks the client's model for the capital of France (key capital_question) and quotes its answer.",
			func(ctx context.Context, _ struct{}) (*tool.Result, error) {
				text, err := ask.SampleText(ctx, "What is the capital of France?", 100, ask.Key("capital_question"))
				if err != nil {
					return nil, err
				}
				return tool.TextResult("LLM response: " + text), nil
			}),
		tool.New("test_input_required_result_list_roots", "Asks the client for its roots (key client_roots) and lists them.",
			func(ctx context.Context, _ struct{}) (*tool.Result, error) {
				roots, err := ask.Roots(ctx, ask.Key("client_roots"))
				if err != nil {
					return nil, err
				}
				return tool.TextResult(describeRoots(roots)), nil
			}),
		requestStateTool(),
		multipleInputsTool(),
		multiRoundTool(),
		tool.New("test_input_required_result_tampered_state", "Asks for a confirmation (key confirm); a retry whose requestState was altered is refused with -32602.",
			func(ctx context.Context, _ struct{}) (*tool.Result, error) {
				reply, err := ask.ElicitAs[confirmation](ctx, "Please confirm", ask.Key("confirm"))
				if err != nil {
					return nil, err
				}
				return tool.TextResult(describeReply("Confirmation", reply.Action, reply.Content)), nil
			}),
		capabilitiesTool(),
	}
}

// describeRoots lists roots in a tool's text.
func describeRoots(roots []protocol.Root) string {
	if len(roots) == 0 {
		return "The client has no roots."
	}
	list := make([]string, len(roots))
	for i, r := range roots {
		list[i] = r.URI
		if r.Name != "" {
			list[i] += " (" + r.Name + ")"
		}
	}
	if len(roots) == 1 {
		return "The client has 1 root: " + list[0]
	}
	return fmt.Sprintf("The client has %d roots: %s", len(roots), strings.Join(list, ", "))
}

// requestStateTool is test_input_required_result_request_state: it counts
// the runs of its handler with ask.Remember and ask.Recall, so its answer
// shows the state it kept came back sealed in requestState (two runs in
// 2026-07-28, one in the legacy era, where the one run waits).
func requestStateTool() tool.Tool {
	return tool.New("test_input_required_result_request_state", "Asks for a confirmation (key confirm) and shows that the state it kept across rounds came back (text state-ok).",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			var runs int
			if _, err := ask.Recall(ctx, "runs", &runs); err != nil {
				return nil, err
			}
			if err := ask.Remember(ctx, "runs", runs+1); err != nil {
				return nil, err
			}
			reply, err := ask.ElicitAs[confirmation](ctx, "Please confirm", ask.Key("confirm"))
			if err != nil {
				return nil, err
			}
			var kept int
			if found, err := ask.Recall(ctx, "runs", &kept); err != nil || !found || kept != runs+1 {
				return nil, fmt.Errorf("the state kept across rounds was lost: found %d runs, want %d (%v)", kept, runs+1, err)
			}
			return tool.TextResult(fmt.Sprintf("state-ok: %s (runs of the handler: %d)",
				describeReply("confirmation", reply.Action, reply.Content), kept)), nil
		})
}

// multipleInputsTool is test_input_required_result_multiple_inputs: three
// questions asked before any error is looked at, so that a 2026-07-28
// client gets them all in one round.
func multipleInputsTool() tool.Tool {
	return tool.New("test_input_required_result_multiple_inputs", "Asks three questions in one round: the user's name (user_name), a greeting from the model (greeting) and the roots (client_roots).",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			name, err1 := ask.ElicitAs[nameForm](ctx, "What is your name?", ask.Key("user_name"))
			greeting, err2 := ask.SampleText(ctx, "Generate a greeting", 50, ask.Key("greeting"))
			roots, err3 := ask.Roots(ctx, ask.Key("client_roots"))
			if err := errors.Join(err1, err2, err3); err != nil {
				return nil, err
			}
			who := "stranger (action=" + string(name.Action) + ")"
			if name.Accepted() {
				who = name.Content.Name
			}
			return tool.TextResult(fmt.Sprintf("All three answers: name %s; greeting %q; %s", who, greeting, describeRoots(roots))), nil
		})
}

// multiRoundTool is test_input_required_result_multi_round: the second
// question is asked only once the first is answered, so a 2026-07-28
// client answers two rounds before the result.
func multiRoundTool() tool.Tool {
	return tool.New("test_input_required_result_multi_round", "Asks the user's name (step1), then, once answered, their favorite color (step2): two rounds of input.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			first, err := ask.ElicitAs[nameForm](ctx, "Step 1: What is your name?", ask.Key("step1"))
			if err != nil {
				return nil, err
			}
			if !first.Accepted() {
				return tool.TextResult("Stopped at step 1: action=" + string(first.Action)), nil
			}
			second, err := ask.ElicitAs[colorForm](ctx, "Step 2: What is your favorite color?", ask.Key("step2"))
			if err != nil {
				return nil, err
			}
			if !second.Accepted() {
				return tool.TextResult("Stopped at step 2: action=" + string(second.Action)), nil
			}
			return tool.TextResult(fmt.Sprintf("Both steps done: %s's favorite color is %s.", first.Content.Name, second.Content.Color)), nil
		})
}

// capabilitiesTool is test_input_required_result_capabilities: it asks
// only what this request's client declared it can answer, an elicitation
// (elicit_input) and a sampling (sample_input), and nothing when neither.
func capabilitiesTool() tool.Tool {
	return tool.New("test_input_required_result_capabilities", "Asks only for what the client declared: an elicitation (elicit_input) with elicitation, a sampling (sample_input) with sampling.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			var got []string
			var errs []error
			if ask.Declared(ctx, "elicitation.form") {
				reply, err := ask.ElicitAs[inputForm](ctx, "What input should the tool use?", ask.Key("elicit_input"))
				errs = append(errs, err)
				got = append(got, describeReply("elicit_input", reply.Action, reply.Content))
			}
			if ask.Declared(ctx, "sampling") {
				text, err := ask.SampleText(ctx, "Suggest an input for the tool", 50, ask.Key("sample_input"))
				errs = append(errs, err)
				got = append(got, "sample_input: "+text)
			}
			if err := errors.Join(errs...); err != nil {
				return nil, err
			}
			if got == nil {
				return tool.TextResult("The client declared neither elicitation nor sampling: nothing to ask."), nil
			}
			return tool.TextResult(strings.Join(got, "; ")), nil
		})
}

// inputRequiredPrompt is test_input_required_result_prompt: a prompt that
// asks the user for its context (user_context) before it renders. An
// answer that breaks the form is the caller's invalid input (-32602).
func inputRequiredPrompt() mcp.Prompt {
	return mcp.NewPrompt("test_input_required_result_prompt", "A prompt that asks the user what context to use (key user_context) before it renders.",
		func(ctx context.Context, _ struct{}) (*mcp.PromptResult, error) {
			reply, err := ask.ElicitAs[contextForm](ctx, "What context should the prompt use?", ask.Key("user_context"))
			var bad *ask.AnswerError
			if errors.As(err, &bad) {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams, "invalid params: %s", bad.Error())
			}
			if err != nil {
				return nil, err
			}
			if !reply.Accepted() {
				return messages(mcp.UserMessage("No context was given (action=" + string(reply.Action) + "): answer without one.")), nil
			}
			return messages(mcp.UserMessage("Use this context: " + reply.Content.Context)), nil
		}, mcp.WithTitle("Prompt that asks for input"))
}
