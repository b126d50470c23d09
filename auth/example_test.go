package auth_test

import (
	"context"
	"fmt"
	"strings"

	"github.com/mcpwire/mcpwire/auth"
)

func ExamplePrincipal_HasScope() {
	ops := &auth.Principal{Subject: "ada", Scopes: []string{"operator"}}
	var anonymous *auth.Principal
	fmt.Println(ops.HasScope("operator"), anonymous.HasScope("operator"))
	// Output: true false
}

// A transport that can ask for more scopes puts a challenge in the
// request's context; the server calls it when it refuses an item.
func ExampleChallengeScopes() {
	ctx := auth.WithScopeChallenge(context.Background(), func(scopes []string) {
		fmt.Println("answer 403, scope:", strings.Join(scopes, " "))
	})
	fmt.Println(auth.ChallengeScopes(ctx, []string{"files:write"}))
	fmt.Println(auth.ChallengeScopes(context.Background(), []string{"files:write"})) // stdio: no one to tell
	// Output:
	// answer 403, scope: files:write
	// true
	// false
}
