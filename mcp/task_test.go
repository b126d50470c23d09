package mcp_test

import (
	"context"
	"fmt"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

var tasksDeclared = map[string]any{protocol.MetaClientCapabilities: map[string]any{
	"extensions": map[string]any{mcp.TasksExtension: map[string]any{}}}}

// taskServer has "wait" (optional task support: sleeps ms, cancellable)
// and "must" (required).
func taskServer(t *testing.T) *mcp.Server {
	srv := newServer(t, &mcp.Options{TaskGrace: -1})
	wait := rawTool("wait", func(ctx context.Context, args json.RawMessage) (*tool.Result, error) {
		var in struct{ MS int }
		json.Unmarshal(args, &in)
		select {
		case <-time.After(time.Duration(in.MS) * time.Millisecond):
			return tool.TextResult("waited"), nil
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	})
	if err := srv.AddTaskTool(wait, mcp.TaskToolOptions{Support: mcp.TaskOptional}); err != nil {
		t.Fatal(err)
	}
	must := rawTool("must", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("ok"), nil })
	if err := srv.AddTaskTool(must, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	return srv
}

func TestTaskErrors(t *testing.T) {
	c := start(t, taskServer(t))
	plain := modernMeta(nil)
	tasks := modernMeta(tasksDeclared)
	for i, tc := range []struct {
		method string
		params map[string]any
		code   int64
	}{
		{"tasks/get", map[string]any{"taskId": "x", "_meta": plain}, jsonrpc.CodeMissingRequiredClientCapability},
		{"tasks/update", map[string]any{"taskId": "x", "inputResponses": map[string]any{}, "_meta": plain}, jsonrpc.CodeMissingRequiredClientCapability},
		{"tasks/cancel", map[string]any{"taskId": "x", "_meta": plain}, jsonrpc.CodeMissingRequiredClientCapability},
		{"tools/call", map[string]any{"name": "must", "_meta": plain}, jsonrpc.CodeMissingRequiredClientCapability},
		{"tasks/get", map[string]any{"taskId": "x", "_meta": tasks}, jsonrpc.CodeInvalidParams},
		{"tasks/cancel", map[string]any{"taskId": "x", "_meta": tasks}, jsonrpc.CodeInvalidParams},
		{"tasks/get", map[string]any{"_meta": tasks}, jsonrpc.CodeInvalidParams},
		{"tasks/result", map[string]any{"taskId": "x", "_meta": tasks}, jsonrpc.CodeMethodNotFound},
		{"tasks/list", map[string]any{"_meta": tasks}, jsonrpc.CodeMethodNotFound},
	} {
		t.Run(fmt.Sprint(tc.method, i), func(t *testing.T) {
			r := c.request(jsonrpc.Int64ID(int64(i+1)), tc.method, tc.params)
			if r.Error == nil || r.Error.Code != tc.code {
				t.Fatalf("got %+v, want code %d", r.Error, tc.code)
			}
		})
	}
	// Without the declaration an optional-task tool is an ordinary call.
	res := result(t, c.request(jsonrpc.Int64ID(100), "tools/call", map[string]any{"name": "wait", "arguments": map[string]any{"MS": 0}, "_meta": plain}))
	if res["resultType"] != "complete" || res["taskId"] != nil {
		t.Fatalf("plain call: %v", res)
	}
}

// TestTasksConcurrent creates many tasks from several connections, polls
// them from others, and cancels the long ones: every task ends completed
// or cancelled, and no handler outlives the test.
func TestTasksConcurrent(t *testing.T) {
	srv := taskServer(t)
	const conns, perConn = 8, 12
	before := leakcheck.Snapshot()
	clients := make([]*client, conns)
	for i := range clients {
		serverSide, clientSide := transport.Pipe(transport.Options{})
		clients[i] = &client{t: t, conn: clientSide, done: make(chan error, 1), srv: srv}
		go func() { clients[i].done <- srv.Serve(context.Background(), serverSide) }()
	}
	defer func() {
		srv.Close()
		for _, c := range clients {
			c.conn.Close()
			<-c.done
		}
		leakcheck.Check(t, before)
	}()
	meta := modernMeta(tasksDeclared)
	type created struct {
		id   string
		long bool
	}
	ids := make(chan created, conns*perConn)
	var wg sync.WaitGroup
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j := range perConn {
				ms := 5
				if j%2 == 0 {
					ms = 60000
				}
				res := result(t, c.request(jsonrpc.StringID(fmt.Sprint("c", i, "-", j)), "tools/call",
					map[string]any{"name": "wait", "arguments": map[string]any{"MS": ms}, "_meta": meta}))
				if res["resultType"] != "task" {
					t.Errorf("not a task: %v", res)
					return
				}
				ids <- created{res["taskId"].(string), ms > 5}
			}
		}()
	}
	wg.Wait()
	close(ids)
	var all []created
	for c := range ids {
		all = append(all, c)
	}
	for i, c := range clients {
		wg.Add(1)
		go func() {
			defer wg.Done()
			for j, task := range all {
				if j%conns != i {
					continue
				}
				p := map[string]any{"taskId": task.id, "_meta": meta}
				result(t, c.request(jsonrpc.StringID(fmt.Sprint("g", j)), "tasks/get", p))
				if task.long {
					result(t, c.request(jsonrpc.StringID(fmt.Sprint("x", j)), "tasks/cancel", p))
				}
			}
		}()
	}
	wg.Wait()
	deadline := time.Now().Add(5 * time.Second)
	for j, task := range all {
		for {
			res := result(t, clients[0].request(jsonrpc.StringID(fmt.Sprint("p", j)), "tasks/get", map[string]any{"taskId": task.id, "_meta": meta}))
			if s := res["status"]; s == "completed" || s == "cancelled" {
				break
			} else if time.Now().After(deadline) {
				t.Fatalf("task %s still %v", task.id, s)
			}
			time.Sleep(5 * time.Millisecond)
		}
	}
}
