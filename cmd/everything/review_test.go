package main

import (
	"context"
	"slices"
	"testing"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/complete"
)

// production reaches no completion of a caller without the operator
// scope, however much of it is typed; an operator gets it for every
// prefix.
func TestEnvironmentCompletionHidesProduction(t *testing.T) {
	for _, caller := range []*auth.Principal{anonymous, reader, {Subject: "eve", Scopes: []string{"Operator", "operators"}}, operator} {
		for i := range len("production") + 1 {
			typed := "production"[:i]
			res, err := completeEnvironment(context.Background(), complete.Request{Argument: "environment", Value: typed, Caller: caller})
			if err != nil {
				t.Fatal(err)
			}
			if got, want := slices.Contains(res.Values, "production"), caller == operator; got != want {
				t.Errorf("caller %+v typed %q: production offered = %v, want %v (%v)", caller, typed, got, want, res.Values)
			}
		}
	}
}
