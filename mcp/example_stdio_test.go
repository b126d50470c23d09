package mcp_test

import (
	"context"
	"log"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// The main function of a stdio server: hosts launch the binary and talk to
// it over stdin and stdout. (Not run here: it would serve this process's
// own standard input.)
func ExampleRunStdio() {
	type addArgs struct {
		A int `json:"a"`
		B int `json:"b"`
	}
	type sum struct {
		Sum int `json:"sum"`
	}
	srv := mcp.NewServer(mcp.Implementation{Name: "adder", Version: "1.0.0"}, nil)
	srv.MustAddTool(tool.New("add", "Adds two integers.",
		func(_ context.Context, in addArgs) (sum, error) { return sum{in.A + in.B}, nil }))
	if err := mcp.RunStdio(context.Background(), srv, nil); err != nil {
		log.Fatal(err) // log writes to stderr; stdout belongs to the protocol
	}
}
