package main

import (
	"context"
	"slices"
	"strings"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/clip"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
)

// operatorScope is the scope that unlocks what only operators may see:
// the production environment and the restricted evidence.
const operatorScope = "operator"

// environments returns the deployment environments caller may see:
// development and staging for everyone, production for an operator only.
func environments(caller *auth.Principal) []string {
	envs := []string{"development", "staging"}
	if caller.HasScope(operatorScope) {
		envs = append(envs, "production")
	}
	return envs
}

// completeEnvironment suggests the environments the caller may see that
// start with what was typed; production never reaches anyone else, however
// much of it they type.
func completeEnvironment(ctx context.Context, req mcp.CompleteRequest) (mcp.CompleteResult, error) {
	return mcp.CompletePrefix(environments(req.Caller)...)(ctx, req)
}

// reviewArgs are deployment_review's arguments.
type reviewArgs struct {
	Environment string `json:"environment" description:"The environment the deployment goes to; completion suggests the ones you may review."`
	Note        string `json:"note,omitempty" description:"Anything the reviewer should know."`
}

// reviewPrompt is deployment_review. Its description and its argument's
// description name no environment: they are the same for every caller,
// and production is not everyone's to see. An environment the caller may
// not review is refused as unknown, listing only the ones they may.
func reviewPrompt() mcp.Prompt {
	p := mcp.NewPrompt("deployment_review", "Reviews a deployment to one environment before it is approved.",
		func(ctx context.Context, in reviewArgs) (*mcp.PromptResult, error) {
			envs := environments(callerOf(ctx))
			if !slices.Contains(envs, in.Environment) {
				return nil, jsonrpc.NewError(jsonrpc.CodeInvalidParams,
					"invalid params: unknown environment %s: choose one of %s", clip.Quote(in.Environment), strings.Join(envs, ", "))
			}
			text := "Review the deployment to " + in.Environment + ": check the change list, the rollout plan and the way back before approving it."
			if in.Note != "" {
				text += "\nNote from the requester: " + in.Note
			}
			return messages(mcp.UserMessage(text)), nil
		},
		mcp.WithTitle("Deployment review"))
	p.Complete = map[string]mcp.CompleteFunc{"environment": completeEnvironment}
	return p
}
