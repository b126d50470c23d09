// Command hello is the smallest complete mcpwire server: one typed tool,
// served over stdio. Copy it to start your own.
package main

import (
	"context"
	"log"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// GreetArgs are the tool's arguments; the input schema is inferred from them.
type GreetArgs struct {
	Name string `json:"name" description:"Who to greet."`
}

// Greeting is the tool's result; the output schema is inferred from it.
type Greeting struct {
	Message string `json:"message"`
}

func main() {
	srv := mcp.NewServer(mcp.Implementation{Name: "hello", Version: "0.1.0"}, nil)
	srv.MustAddTool(tool.New("greet", "Greets someone by name.",
		func(ctx context.Context, in GreetArgs) (Greeting, error) {
			return Greeting{Message: "Hello, " + in.Name + "!"}, nil
		}))
	if err := mcp.RunStdio(context.Background(), srv, nil); err != nil {
		log.Fatal(err) // log writes to stderr; stdout belongs to the protocol
	}
}
