package main

import (
	"context"
	"fmt"
	"net/url"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// prompts returns the prompts in listing order: the four the official
// conformance suite gets by name, deployment_review (review.go), then
// test_input_required_result_prompt (tools_input_required.go), which asks
// the client for input.
func prompts() []mcp.Prompt {
	return []mcp.Prompt{
		mcp.NewPrompt("test_simple_prompt", "A simple prompt without arguments.",
			func(context.Context, struct{}) (*mcp.PromptResult, error) {
				return messages(mcp.UserMessage("This is a simple prompt for testing.")), nil
			}, mcp.WithTitle("Simple prompt")),
		argumentsPrompt(),
		embeddedResourcePrompt(),
		mcp.NewPrompt("test_prompt_with_image", "A prompt whose first message is an image (a 1×1 PNG).",
			func(context.Context, struct{}) (*mcp.PromptResult, error) {
				return messages(
					mcp.PromptMessage{Role: protocol.RoleUser, Content: tool.NewImage(pixelPNG, "image/png")},
					mcp.UserMessage("Please analyze the image above.")), nil
			}, mcp.WithTitle("Prompt with an image")),
		reviewPrompt(),
		inputRequiredPrompt(),
	}
}

// messages is a prompt result holding msgs.
func messages(msgs ...mcp.PromptMessage) *mcp.PromptResult {
	return &mcp.PromptResult{Messages: msgs}
}

// testArgs are test_prompt_with_arguments' arguments.
type testArgs struct {
	Arg1 string `json:"arg1" description:"First test argument."`
	Arg2 string `json:"arg2" description:"Second test argument."`
}

// testValues are what completion suggests for both arguments of
// test_prompt_with_arguments.
var testValues = mcp.CompletePrefix("testValue1", "testValue2", "testValue3")

// argumentsPrompt quotes its two arguments back, as the conformance suite
// expects.
func argumentsPrompt() mcp.Prompt {
	p := mcp.NewPrompt("test_prompt_with_arguments", "A prompt with two required arguments, arg1 and arg2, that it quotes back.",
		func(_ context.Context, in testArgs) (*mcp.PromptResult, error) {
			return messages(mcp.UserMessage(fmt.Sprintf("Prompt with arguments: arg1='%s', arg2='%s'", in.Arg1, in.Arg2))), nil
		},
		mcp.WithTitle("Prompt with arguments"))
	p.Complete = map[string]mcp.CompleteFunc{"arg1": testValues, "arg2": testValues}
	return p
}

// embedArgs are test_prompt_with_embedded_resource's arguments.
type embedArgs struct {
	ResourceURI string `json:"resourceUri" description:"Absolute URI of the resource to embed, such as test://example-resource."`
}

// embeddedResourcePrompt embeds a resource under the URI it is given;
// a URI that is not absolute is refused (-32602), since an embedded
// resource's URI must be.
func embeddedResourcePrompt() mcp.Prompt {
	return mcp.NewPrompt("test_prompt_with_embedded_resource", "A prompt that embeds a text resource under the given URI, then asks about it.",
		func(_ context.Context, in embedArgs) (*mcp.PromptResult, error) {
			if u, err := url.Parse(in.ResourceURI); err != nil || !u.IsAbs() {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams,
					"invalid params: resourceUri %s is not an absolute URI (give one such as %s)", clip.Quote(in.ResourceURI), exampleResource)
			}
			return messages(
				mcp.PromptMessage{Role: protocol.RoleUser, Content: tool.NewEmbeddedText(in.ResourceURI, "text/plain", exampleText)},
				mcp.UserMessage("Please process the embedded resource above.")), nil
		}, mcp.WithTitle("Prompt with an embedded resource"))
}

// dynamicPromptName is the prompt test_trigger_prompt_change adds and
// removes.
const dynamicPromptName = "test_dynamic_prompt"

// promptChangeTool is test_trigger_prompt_change: it adds
// test_dynamic_prompt when it is absent and removes it when present, so
// that prompts/list changes and list_changed notifications fire.
func promptChangeTool(srv *mcp.Server) tool.Tool {
	return tool.Tool{
		Name:        "test_trigger_prompt_change",
		Description: "Adds test_dynamic_prompt if it is absent and removes it if present, so that prompts/list changes and list_changed notifications fire.",
		InputSchema: noArgs,
		Handler: func(context.Context, json.RawMessage) (*tool.Result, error) {
			if srv.RemovePrompt(dynamicPromptName) {
				return tool.TextResult("removed " + dynamicPromptName), nil
			}
			if err := srv.AddPrompt(dynamicPrompt()); err != nil {
				return nil, err
			}
			return tool.TextResult("added " + dynamicPromptName), nil
		},
	}
}

// dynamicPrompt is the prompt test_trigger_prompt_change toggles.
func dynamicPrompt() mcp.Prompt {
	return mcp.NewPrompt(dynamicPromptName, "A prompt that comes and goes, added and removed by test_trigger_prompt_change.",
		func(context.Context, struct{}) (*mcp.PromptResult, error) {
			return messages(mcp.UserMessage("This prompt comes and goes.")), nil
		})
}
