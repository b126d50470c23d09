package client_test

import (
	"context"
	"errors"
	"net/http/httptest"
	"sync"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// taskServer has task tools: long (asks for confirmation, then answers)
// and stuck (runs until cancelled).
func taskServer(t *testing.T, stuckStopped chan<- struct{}) *mcp.Server {
	srv := testServer()
	long := tool.New("long", "Asks, then answers.", func(ctx context.Context, _ struct{}) (Sum, error) {
		reply, err := ask.Elicit(ctx, "go on?", protocol.RequestedSchema{
			Properties: map[string]protocol.PrimitiveSchemaDefinition{"ok": {Boolean: &protocol.BooleanSchema{}}}}, ask.Key("ok"))
		if err != nil {
			return Sum{}, err
		}
		if reply.Content["ok"] != true {
			return Sum{}, errors.New("not confirmed")
		}
		return Sum{Sum: 42}, nil
	})
	if err := srv.AddTaskTool(long, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	stuck := tool.New("stuck", "Runs until cancelled.", func(ctx context.Context, _ struct{}) (string, error) {
		<-ctx.Done()
		close(stuckStopped)
		return "", ctx.Err()
	})
	if err := srv.AddTaskTool(stuck, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestTasks(t *testing.T) {
	stopped := make(chan struct{})
	var mu sync.Mutex
	var states []task.Status
	var onWorking func() // cancels the stuck call once its task exists
	c := connect(t, taskServer(t, stopped), &client.Options{
		Era: protocol.Modern, Tasks: true,
		OnTask: func(tk protocol.Task) {
			mu.Lock()
			states = append(states, tk.Status)
			f := onWorking
			mu.Unlock()
			if f != nil && tk.Status == task.Working {
				f()
			}
		},
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": []byte("true")}}, nil
		},
	})
	sum, err := client.CallToolAs[Sum](bounded(t), c, "long", nil)
	if err != nil || sum.Sum != 42 {
		t.Fatalf("a task: %v, %v", sum, err)
	}
	mu.Lock()
	seen := map[task.Status]bool{}
	for _, s := range states {
		seen[s] = true
	}
	mu.Unlock()
	if !seen[task.InputRequired] || !seen[task.Completed] {
		t.Fatalf("task states %v, want input_required and completed among them", states)
	}

	ctx, cancel := context.WithCancel(bounded(t))
	defer cancel()
	mu.Lock()
	onWorking = cancel
	mu.Unlock()
	if _, err := c.CallTool(ctx, "stuck", nil); !errors.Is(err, context.Canceled) {
		t.Fatalf("a task outlasting its context: %v", err)
	}
	select {
	case <-stopped: // tasks/cancel reached the handler
	case <-time.After(10 * time.Second):
		t.Fatal("the task's handler was not cancelled")
	}
}

// Over 2026-07-28 HTTP, tasks/get and tasks/update carry the Mcp-Name
// header the server checks against their taskId.
func TestTasksHTTP(t *testing.T) {
	srv := httptest.NewServer(mcphttp.NewHandler(taskServer(t, make(chan struct{})), nil))
	defer srv.Close()
	c, err := client.Connect(bounded(t), client.HTTP{URL: srv.URL}, &client.Options{
		Era: protocol.Modern, Tasks: true, Logger: quiet,
		Elicit: func(context.Context, *protocol.ElicitRequestParams) (*protocol.ElicitResult, error) {
			return &protocol.ElicitResult{Action: protocol.ElicitAccept, Content: protocol.Object{"ok": []byte("true")}}, nil
		},
	})
	if err != nil {
		t.Fatal(err)
	}
	defer c.Close()
	sum, err := client.CallToolAs[Sum](bounded(t), c, "long", nil)
	if err != nil || sum.Sum != 42 {
		t.Fatalf("a task over HTTP: %v, %v", sum, err)
	}
}
