package mcp_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/mcp"
)

// The arguments are inferred from a struct of strings: json names them,
// omitempty makes one optional, a description tag describes it.
func ExampleNewPrompt() {
	type ReviewArgs struct {
		Environment string `json:"environment" description:"Where to deploy."`
		Note        string `json:"note,omitempty" jsonschema:"Anything the reviewer should know."`
	}
	review := mcp.NewPrompt("deployment_review", "Reviews a deployment.",
		func(_ context.Context, in ReviewArgs) (*mcp.PromptResult, error) {
			return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("Review the deployment to " + in.Environment + ".")}}, nil
		})
	for _, a := range review.Arguments {
		fmt.Printf("%s required=%v: %s\n", a.Name, a.Required, a.Description)
	}
	res, _ := review.Get(context.Background(), map[string]string{"environment": "staging"})
	fmt.Println(res.Messages[0].Role, res.Messages[0].Content.ContentType())
	// Output:
	// environment required=true: Where to deploy.
	// note required=false: Anything the reviewer should know.
	// user text
}
