package ask

import (
	"context"
	"fmt"
	"strings"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/protocol"
)

// Sample asks the client to sample its model (sampling/createMessage) and
// returns the model's message. The client must have declared sampling;
// tools or a tool choice need sampling.tools, and an includeContext other
// than "none" needs sampling.context. params.MaxTokens is required.
func Sample(ctx context.Context, params protocol.CreateMessageRequestParams, opts ...Option) (*protocol.CreateMessageResult, error) {
	if params.MaxTokens <= 0 {
		return nil, fmt.Errorf("ask: a sampling request needs MaxTokens > 0")
	}
	needs := []string{"sampling"}
	if len(params.Tools) > 0 || params.ToolChoice != nil {
		needs = append(needs, "sampling.tools")
	}
	if params.IncludeContext != "" && params.IncludeContext != "none" {
		needs = append(needs, "sampling.context")
	}
	raw, err := do(ctx, protocol.MethodCreateMessage, params, needs, opts)
	if err != nil {
		return nil, err
	}
	var res protocol.CreateMessageResult
	if err := json.Unmarshal(raw, &res); err != nil {
		return nil, &AnswerError{Problems: []string{"the answer is not a sampling result: " + err.Error()}}
	}
	var problems []string
	if res.Role != protocol.RoleUser && res.Role != protocol.RoleAssistant {
		problems = append(problems, fmt.Sprintf("role %q is not user or assistant", res.Role))
	}
	if res.Model == "" {
		problems = append(problems, "model is missing")
	}
	if len(res.Content.Blocks) == 0 {
		problems = append(problems, "content is empty")
	}
	if problems != nil {
		return nil, &AnswerError{Problems: problems}
	}
	return &res, nil
}

// SampleText asks the model to answer prompt (one user message) in at
// most maxTokens tokens, and returns the text of its answer.
func SampleText(ctx context.Context, prompt string, maxTokens int64, opts ...Option) (string, error) {
	res, err := Sample(ctx, protocol.CreateMessageRequestParams{
		Messages:  protocol.List[protocol.SamplingMessage]{UserText(prompt)},
		MaxTokens: maxTokens,
	}, opts...)
	if err != nil {
		return "", err
	}
	return TextOf(res), nil
}

// UserText is a user message of one text block, for a sampling
// conversation.
func UserText(text string) protocol.SamplingMessage {
	return protocol.SamplingMessage{Role: protocol.RoleUser, Content: protocol.SamplingContent{
		Blocks: []protocol.SamplingContentBlock{{Text: &protocol.TextContent{Text: text}}},
	}}
}

// TextOf returns the text blocks of a sampling result, joined by
// newlines.
func TextOf(res *protocol.CreateMessageResult) string {
	var parts []string
	for _, b := range res.Content.Blocks {
		if b.Text != nil {
			parts = append(parts, b.Text.Text)
		}
	}
	return strings.Join(parts, "\n")
}
