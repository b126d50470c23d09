package main

import (
	"context"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// inputTools are the tools that ask the client for something only it has
// (package ask): the conformance suite's sampling and elicitation tools,
// a sampling tool that offers the model tools, test_streaming_elicitation,
// and the input-required tools of tools_input_required.go. Each works in
// both eras: a legacy client gets a request and the call waits for its
// answer; a 2026-07-28 client gets an input_required result and retries.
func inputTools() []tool.Tool {
	return append([]tool.Tool{
		samplingTool(),
		samplingWithToolsTool(),
		elicitationTool(),
		defaultsTool(),
		enumsTool(),
		streamingElicitationTool(),
	}, inputRequiredTools()...)
}

// samplingArgs are the arguments of test_sampling and
// test_sampling_with_tools.
type samplingArgs struct {
	Prompt string `json:"prompt" description:"The prompt to send to the client's model."`
}

// samplingTool is test_sampling: one user message, at most 100 tokens,
// and the model's text quoted back.
func samplingTool() tool.Tool {
	return tool.New("test_sampling", "Asks the client's model to answer the prompt (sampling/createMessage, maxTokens 100) and returns its answer.",
		func(ctx context.Context, in samplingArgs) (*tool.Result, error) {
			text, err := ask.SampleText(ctx, in.Prompt, 100)
			if err != nil {
				return nil, err
			}
			return tool.TextResult("LLM response: " + text), nil
		})
}

// weatherTool is the tool test_sampling_with_tools offers the model.
var weatherTool = protocol.Tool{
	Name:        "get_weather",
	Description: "Returns the current weather of a city.",
	InputSchema: json.RawMessage(`{"type":"object","properties":{"city":{"type":"string"}},"required":["city"]}`),
}

// samplingWithToolsTool is test_sampling_with_tools: a sampling request
// that offers the model a tool, which needs the client's sampling.tools
// (-32021 without it). A tool_use answer is described, not run.
func samplingWithToolsTool() tool.Tool {
	return tool.New("test_sampling_with_tools", "Asks the client's model to answer the prompt with the get_weather tool at hand (needs the client's sampling.tools), and reports what it answered or which tool it called.",
		func(ctx context.Context, in samplingArgs) (*tool.Result, error) {
			res, err := ask.Sample(ctx, protocol.CreateMessageRequestParams{
				Messages:   protocol.List[protocol.SamplingMessage]{ask.UserText(in.Prompt)},
				MaxTokens:  100,
				Tools:      []protocol.Tool{weatherTool},
				ToolChoice: &protocol.ToolChoice{Mode: "auto"},
			})
			if err != nil {
				return nil, err
			}
			var parts []string
			for _, b := range res.Content.Blocks {
				switch {
				case b.Text != nil:
					parts = append(parts, "LLM response: "+b.Text.Text)
				case b.ToolUse != nil:
					parts = append(parts, fmt.Sprintf("LLM called %s with %s", b.ToolUse.Name, b.ToolUse.Input))
				}
			}
			if parts == nil {
				return tool.TextResult("LLM answered with neither text nor a tool call (model " + res.Model + ")"), nil
			}
			return tool.TextResult(strings.Join(parts, "\n")), nil
		})
}

// elicitationArgs are test_elicitation's arguments.
type elicitationArgs struct {
	Message string `json:"message" description:"The message to show the user with the form."`
}

// userForm is the form test_elicitation asks the user to fill in.
type userForm struct {
	Username string `json:"username" description:"Your user name."`
	Email    string `json:"email" description:"Your email address." jsonschema:"format=email"`
}

// elicitationTool is test_elicitation: it asks the user to fill in
// userForm and reports the action and the content. An accepted answer
// that breaks the form is the tool's error (an isError result naming the
// problems): the user's answer cannot be used.
func elicitationTool() tool.Tool {
	return tool.New("test_elicitation", "Asks the user to fill in a form (elicitation/create: username and email, both required) with the given message, and reports the action and content.",
		func(ctx context.Context, in elicitationArgs) (*tool.Result, error) {
			form, err := ask.FormOf[userForm]()
			if err != nil {
				return nil, err
			}
			reply, err := ask.Elicit(ctx, in.Message, form)
			if err != nil {
				return nil, err
			}
			return tool.TextResult(describeReply("User response", reply.Action, reply.Content)), nil
		})
}

// describeReply words an elicitation's outcome as the conformance
// reference servers do: "<what>: action=<action>, content=<content as
// JSON>", the content being {} unless the user accepted.
func describeReply(what string, action ask.Action, content any) string {
	raw := []byte("{}")
	if action == ask.Accept {
		if b, err := json.Marshal(content); err == nil {
			raw = b
		}
	}
	return fmt.Sprintf("%s: action=%s, content=%s", what, action, raw)
}

// defaultsForm is the form of the conformance scenario
// elicitation-sep1034-defaults: every field has a default (SEP-1034).
type defaultsForm struct {
	Name     string  `json:"name,omitempty" jsonschema:"default=John Doe"`
	Age      int     `json:"age,omitempty" jsonschema:"default=30"`
	Score    float64 `json:"score,omitempty" jsonschema:"default=95.5"`
	Status   string  `json:"status,omitempty" jsonschema:"enum=active|inactive|pending,default=active"`
	Verified bool    `json:"verified,omitempty" jsonschema:"default=true"`
}

// defaultsTool is test_elicitation_sep1034_defaults.
func defaultsTool() tool.Tool {
	return tool.New("test_elicitation_sep1034_defaults", "Asks the user to fill in a form whose fields all have defaults (SEP-1034: string, integer, number, enum and boolean), and reports the action and content.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			// The form is defaultsForm's, but the answer is taken as a map:
			// decoded into the struct, a zero value (age 0, verified false)
			// would vanish from the report with its omitempty.
			form, err := ask.FormOf[defaultsForm]()
			if err != nil {
				return nil, err
			}
			reply, err := ask.Elicit(ctx, "Please review and update the form fields with defaults", form)
			if err != nil {
				return nil, err
			}
			return tool.TextResult(describeReply("Elicitation completed", reply.Action, reply.Content)), nil
		})
}

// enumsForm is the form of the conformance scenario
// elicitation-sep1330-enums (SEP-1330), less its legacyEnum field, which
// no Go field can describe (enumNames is deprecated): enumsSchema adds it.
type enumsForm struct {
	UntitledSingle string   `json:"untitledSingle,omitempty" jsonschema:"enum=option1|option2|option3"`
	TitledSingle   string   `json:"titledSingle,omitempty" jsonschema:"enum=value1|value2|value3" titles:"First Option|Second Option|Third Option"`
	UntitledMulti  []string `json:"untitledMulti,omitempty" jsonschema:"enum=option1|option2|option3,minItems=1,maxItems=3"`
	TitledMulti    []string `json:"titledMulti,omitempty" jsonschema:"enum=value1|value2|value3" titles:"First Choice|Second Choice|Third Choice"`
}

// enumsSchema is the form of elicitation-sep1330-enums: enumsForm's
// fields and legacyEnum, a single choice labelled by enumNames.
func enumsSchema() (protocol.RequestedSchema, error) {
	form, err := ask.FormOf[enumsForm]()
	if err != nil {
		return form, err
	}
	form.Properties["legacyEnum"] = protocol.PrimitiveSchemaDefinition{LegacyTitledEnum: &protocol.LegacyTitledEnumSchema{
		Enum:      protocol.List[string]{"opt1", "opt2", "opt3"},
		EnumNames: []string{"Option One", "Option Two", "Option Three"},
	}}
	return form, nil
}

// enumsTool is test_elicitation_sep1330_enums.
func enumsTool() tool.Tool {
	return tool.New("test_elicitation_sep1330_enums", "Asks the user to fill in a form of every kind of choice (SEP-1330: untitled, titled and legacy enumNames single choices, untitled and titled multiple choices), and reports the action and content.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			form, err := enumsSchema()
			if err != nil {
				return nil, err
			}
			reply, err := ask.Elicit(ctx, "Please select options from the enum fields", form)
			if err != nil {
				return nil, err
			}
			return tool.TextResult(describeReply("Elicitation completed", reply.Action, reply.Content)), nil
		})
}

// confirmation is the one-field form of the tools that ask for a yes or
// no.
type confirmation struct {
	OK bool `json:"ok"`
}

// streamingElicitationTool is test_streaming_elicitation: it reports
// progress (when the call has a progressToken), asks for a confirmation
// and reports progress again. In the 2026-07-28 era its response stream
// carries only those notifications and the final result or
// input_required, never a request of the server's.
func streamingElicitationTool() tool.Tool {
	return tool.New("test_streaming_elicitation", "Reports progress, asks the user to confirm (elicitation {ok: boolean}), reports progress again and answers; in 2026-07-28 the question travels as input_required, never as a request on the response stream.",
		func(ctx context.Context, _ struct{}) (*tool.Result, error) {
			mcp.ReportProgress(ctx, 0, 2, "asking for confirmation")
			reply, err := ask.ElicitAs[confirmation](ctx, "Please confirm to continue", ask.Key("confirm"))
			if err != nil {
				return nil, err
			}
			mcp.ReportProgress(ctx, 1, 2, "answered")
			if !reply.Accepted() {
				return tool.TextResult("Not confirmed: action=" + string(reply.Action)), nil
			}
			mcp.ReportProgress(ctx, 2, 2, "done")
			return tool.TextResult(fmt.Sprintf("Streaming elicitation completed: ok=%t", reply.Content.OK)), nil
		})
}
