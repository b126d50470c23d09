package prompt_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/prompt"
)

// The arguments are inferred from a struct of strings: json names them,
// omitempty makes one optional, a description tag describes it.
func ExampleNew() {
	type ReviewArgs struct {
		Environment string `json:"environment" description:"Where to deploy."`
		Note        string `json:"note,omitempty" jsonschema:"Anything the reviewer should know."`
	}
	review := prompt.New("deployment_review", "Reviews a deployment.",
		func(_ context.Context, in ReviewArgs) (*prompt.Result, error) {
			return &prompt.Result{Messages: []prompt.Message{prompt.UserText("Review the deployment to " + in.Environment + ".")}}, nil
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
