package auth_test

import (
	"fmt"

	"github.com/mcpwire/mcpwire/auth"
)

func ExamplePrincipal_HasScope() {
	ops := &auth.Principal{Subject: "ada", Scopes: []string{"operator"}}
	var anonymous *auth.Principal
	fmt.Println(ops.HasScope("operator"), anonymous.HasScope("operator"))
	// Output: true false
}
