package mcp_test

import (
	"context"
	"fmt"
	"time"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// A tool whose calls become tasks for clients that declare the tasks
// extension: the handler is an ordinary one.
func ExampleServer_AddTaskTool() {
	srv := mcp.NewServer(mcp.Implementation{Name: "builds", Version: "1"}, &mcp.Options{TaskTTL: 24 * time.Hour})
	build := tool.New("build", "Builds the project; minutes.", func(ctx context.Context, _ struct{}) (*tool.Result, error) {
		select {
		case <-time.After(2 * time.Minute):
			return tool.TextResult("built"), nil
		case <-ctx.Done(): // tasks/cancel
			return nil, context.Cause(ctx)
		}
	})
	err := srv.AddTaskTool(build, mcp.TaskToolOptions{Support: mcp.TaskOptional})
	fmt.Println(err, mcp.StartTask(context.Background()))
	// Output: <nil> false
}
