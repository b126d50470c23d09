package mcp_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/mcp"
)

func ExampleCompletePrefix() {
	envs := mcp.CompletePrefix("development", "staging", "production")
	res, _ := envs(context.Background(), mcp.CompleteRequest{Argument: "environment", Value: "st"})
	fmt.Println(res.Values, res.Total)
	// Output: [staging] 1
}
