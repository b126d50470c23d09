package complete_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/complete"
)

func ExamplePrefix() {
	envs := complete.Prefix("development", "staging", "production")
	res, _ := envs(context.Background(), complete.Request{Argument: "environment", Value: "st"})
	fmt.Println(res.Values, res.Total)
	// Output: [staging] 1
}
