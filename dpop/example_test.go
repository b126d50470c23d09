package dpop_test

import (
	"context"
	"errors"
	"fmt"

	"github.com/mcpwire/mcpwire/dpop"
)

// A client proves possession of its key with every request; the server
// checks the proof against the request and the token's cnf.jkt.
func Example() {
	key, err := dpop.GenerateKey()
	if err != nil {
		panic(err)
	}
	const url, token = "https://mcp.example.com/mcp", "an-access-token"

	// Client: one new proof per request, sent in the DPoP header with
	// Authorization: DPoP <token>.
	proof, err := key.Proof("POST", url, token, "")
	if err != nil {
		panic(err)
	}

	// Server: jkt is the token's cnf.jkt, as its verifier found it.
	checker, err := dpop.NewChecker(dpop.Options{})
	if err != nil {
		panic(err)
	}
	jkt := key.Thumbprint()
	thumbprint, err := checker.Check(context.Background(), proof, "POST", url, token, jkt)
	fmt.Println(thumbprint == jkt, err)

	// The same proof again is a replay.
	_, err = checker.Check(context.Background(), proof, "POST", url, token, jkt)
	fmt.Println(errors.Is(err, dpop.ErrInvalidProof))
	// Output:
	// true <nil>
	// true
}
