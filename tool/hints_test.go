package tool_test

import (
	"context"
	"strings"
	"testing"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// The hint options send false as false and leave a hint no option set
// absent, on the wire of tools/list; they never write to annotations
// shared through WithAnnotations.
func TestHintOptionsOnTheWire(t *testing.T) {
	shared := &tool.Annotations{Title: "Shared", ReadOnlyHint: new(true)}
	noop := func(context.Context, struct{}) (string, error) { return "", nil }
	srv := mcp.NewServer(mcp.Implementation{Name: "t", Version: "1"}, nil)
	srv.MustAddTool(tool.New("explicit", "All four hints.", noop,
		tool.ReadOnly(false), tool.Destructive(false), tool.Idempotent(true), tool.OpenWorld(false)))
	srv.MustAddTool(tool.New("some", "Two hints.", noop, tool.ReadOnly(true), tool.OpenWorld(false)))
	srv.MustAddTool(tool.New("merged", "Shared annotations and one hint.", noop,
		tool.OpenWorld(false), tool.WithAnnotations(shared), tool.ReadOnly(false)))
	srv.MustAddTool(tool.New("none", "No hints.", noop))
	call := serve(t, srv)
	call("initialize", `{"protocolVersion":"2025-11-25","capabilities":{},"clientInfo":{"name":"c","version":"1"}}`)
	list := string(call("tools/list", `{}`))

	tests := []struct{ name, want string }{
		{"explicit", `"annotations":{"readOnlyHint":false,"destructiveHint":false,"idempotentHint":true,"openWorldHint":false}`},
		{"some", `"annotations":{"readOnlyHint":true,"openWorldHint":false}`},
		{"merged", `"annotations":{"title":"Shared","readOnlyHint":false}`},
	}
	for _, tt := range tests {
		if !strings.Contains(list, `"name":"`+tt.name+`"`) || !strings.Contains(list, tt.want) {
			t.Errorf("tool %s: tools/list %s lacks %s", tt.name, list, tt.want)
		}
	}
	if strings.Count(list, `"annotations"`) != len(tests) {
		t.Errorf("a tool without hints has annotations: %s", list)
	}
	if *shared.ReadOnlyHint != true || shared.OpenWorldHint != nil {
		t.Errorf("the shared annotations were written to: %+v", shared)
	}
}
