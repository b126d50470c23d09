package fanout_test

import (
	"fmt"

	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/mcp"
)

// Two instances of one deployment share a broker: a resource update raised
// on one is published for the others (here a plain subscriber stands for
// them). Close publishes what is still queued, then unsubscribes.
func ExampleMemory() {
	var broker fanout.Memory
	stop := broker.Subscribe(func(ev fanout.Event) { fmt.Println("other instance hears:", ev.Kind, ev.URI, ev.Seq) })
	defer stop()

	srv := mcp.NewServer(mcp.Implementation{Name: "reports", Version: "1"}, &mcp.Options{Broker: &broker})
	srv.ResourceUpdated("file:///reports/today.md")
	srv.ResourceUpdated("file:///reports/today.md")
	srv.Close()
	// Output:
	// other instance hears: resources/updated file:///reports/today.md 1
	// other instance hears: resources/updated file:///reports/today.md 2
}

// The wire format: one small JSON object per event.
func ExampleEvent_MarshalJSON() {
	b, _ := fanout.Event{Kind: fanout.ToolsListChanged, Origin: "5f0c2a9e7d41b3c8", Seq: 3}.MarshalJSON()
	fmt.Println(string(b))
	// Output: {"v":1,"kind":"tools/list_changed","origin":"5f0c2a9e7d41b3c8","seq":3}
}
