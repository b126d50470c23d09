package signin_test

import (
	"context"
	"fmt"
	"log"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/client/signin"
)

// A command-line program signs in through the user's browser: the
// redirect comes back to a loopback port.
func ExampleListenLoopback() {
	lb, err := signin.ListenLoopback()
	if err != nil {
		log.Fatal(err)
	}
	defer lb.Close()
	flow, err := signin.New(signin.Config{RedirectURL: lb.RedirectURL(), Authorize: lb.Authorize})
	if err != nil {
		log.Fatal(err)
	}
	ctx := context.Background()
	c, err := client.Connect(ctx, client.HTTP{URL: "https://mcp.example.com/mcp", SignIn: flow}, nil)
	if err != nil {
		log.Fatal(err)
	}
	defer c.Close()
}

// A machine signs in as itself with the client credentials grant; the
// example's server is a local one that approves every request.
func ExampleClientCredentials() {
	s := exampleServer()
	defer s.Close()
	flow, err := signin.New(signin.Config{
		ClientID: "reporting-job", ClientSecret: "s3cret",
		Grant: signin.ClientCredentials{},
	})
	if err != nil {
		log.Fatal(err)
	}
	body, err := exampleGet(flow, s.endpoint())
	fmt.Println(body, err)
	// Output: ok <nil>
}
