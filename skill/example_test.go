package skill_test

import (
	"context"
	"fmt"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/skill"
	"github.com/mcpwire/mcpwire/transport"
)

// A server serves a skill; a client lists the skills, reading no file,
// and loads the one it needs, checked against its entry.
func Example() {
	set := skill.NewSet(skill.Options{})
	set.AddFiles("haiku", map[string]string{
		"SKILL.md":          "---\nname: haiku\ndescription: Write a haiku\n---\nFive, seven, five.\n",
		"examples/frog.txt": "An old silent pond\n",
	})
	srv := mcp.NewServer(mcp.Implementation{Name: "poet", Version: "1"}, &mcp.Options{Extensions: []mcp.Extension{set.Extension()}})

	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	go srv.Serve(context.Background(), serverEnd)
	ctx := context.Background()
	c, err := client.Connect(ctx, client.Conn{Conn: clientEnd}, &client.Options{Era: protocol.Modern, Extensions: []client.Extension{skill.Declare}})
	if err != nil {
		fmt.Println(err)
		return
	}
	defer c.Close()
	for e, err := range skill.List(ctx, c) {
		if err != nil {
			fmt.Println(err)
			return
		}
		sk, err := skill.Load(ctx, c, e)
		if err != nil {
			fmt.Println(err) // a skill that fails its checks names the rule
			return
		}
		frog, _ := sk.ReadFile(ctx, "examples/frog.txt")
		fmt.Printf("%s: %d files; %q", sk.Name(), len(e.Files), frog)
	}
	// Output: haiku: 2 files; "An old silent pond\n"
}
