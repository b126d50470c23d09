package gateway_test

import (
	"context"
	"errors"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// An upstream's task is the gateway's task to a caller that declares the
// extension, under an id of the gateway's; a caller that does not gets
// -32021 from a tool that runs only as a task, as it would from the
// upstream itself (its capabilities are the upstream's to judge); a call
// that makes no task stays a call.
func TestRelayedTasks(t *testing.T) {
	up := mcp.NewServer(mcp.Implementation{Name: "up", Version: "1"}, &mcp.Options{Logger: quiet, TaskPollInterval: 20 * time.Millisecond})
	if err := up.AddTaskTool(tool.New("slow", "Runs as a task.", func(ctx context.Context, _ struct{}) (string, error) {
		time.Sleep(100 * time.Millisecond)
		return "slow done", nil
	}), mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	up.MustAddTool(tool.New("quick", "Answers at once.", func(context.Context, struct{}) (string, error) { return "quick", nil }))
	g := newGateway(t, &gateway.Config{NoNamespace: true, Upstreams: []gateway.Upstream{{Name: "up", Server: up}}})

	var mu sync.Mutex
	var states []protocol.Task
	tasks := serveGatewayWith(t, g, &client.Options{Era: protocol.Modern, Logger: quiet, Tasks: true,
		OnTask: func(tk protocol.Task) { mu.Lock(); states = append(states, tk); mu.Unlock() }})
	plain := serveGateway(t, g, protocol.Modern)
	ctx := bounded(t)

	r, err := tasks.CallTool(ctx, "slow", nil)
	if err != nil {
		t.Fatal(err)
	}
	if got := textOf(t, r); got != "slow done" {
		t.Errorf("slow answered %q", got)
	}
	_, err = plain.CallTool(ctx, "slow", nil)
	if je := (*jsonrpc.Error)(nil); !errors.As(err, &je) || je.Code != jsonrpc.CodeMissingRequiredClientCapability {
		t.Errorf("a caller without the extension calling a task-only tool: %v, want -32021", err)
	}
	mu.Lock()
	if len(states) == 0 || states[len(states)-1].Status != "completed" {
		t.Errorf("the task-declaring caller heard task states %+v, want the gateway's task followed to completed", states)
	}
	n := len(states)
	mu.Unlock()
	if r, err := tasks.CallTool(ctx, "quick", nil); err != nil || textOf(t, r) != "quick" {
		t.Fatalf("quick: %+v, %v", r, err)
	}
	mu.Lock()
	defer mu.Unlock()
	if len(states) != n {
		t.Errorf("a call the upstream answered at once became a task: %+v", states[n:])
	}
}
