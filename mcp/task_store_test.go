package mcp_test

import (
	"context"
	"errors"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// brokenStore fails every operation as a network store does when its
// server is down, naming the address it could not reach.
type brokenStore struct{}

var errStoreDown = errors.New("dial tcp 10.1.2.3:6379: connect: connection refused")

func (brokenStore) Create(context.Context, *task.Task, int) error { return errStoreDown }
func (brokenStore) Get(context.Context, string) (*task.Task, error) {
	return nil, errStoreDown
}
func (brokenStore) Update(context.Context, string, func(*task.Task) error) (*task.Task, error) {
	return nil, errStoreDown
}

// A task store that fails answers -32603 with data.reason "task_store",
// and the client never learns the store's own words (its address).
func TestTaskStoreFailure(t *testing.T) {
	srv := newServer(t, &mcp.Options{TaskGrace: -1, TaskStore: brokenStore{}})
	must := rawTool("must", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("ok"), nil })
	if err := srv.AddTaskTool(must, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	c := start(t, srv)
	meta := modernMeta(tasksDeclared)
	for i, tc := range []struct {
		method string
		params map[string]any
	}{
		{"tools/call", map[string]any{"name": "must", "_meta": meta}},
		{"tasks/get", map[string]any{"taskId": "x", "_meta": meta}},
		{"tasks/cancel", map[string]any{"taskId": "x", "_meta": meta}},
	} {
		r := c.request(jsonrpc.Int64ID(int64(i+1)), tc.method, tc.params)
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError || !strings.Contains(string(r.Error.Data), `"task_store"`) ||
			strings.Contains(r.Error.Message, "10.1.2.3") {
			t.Errorf("%s: %+v, want -32603 task_store without the store's address", tc.method, r.Error)
		}
	}
}

// pickyStore is a memory store that refuses records whose result is over
// a size, as a network store bounds its records.
type pickyStore struct{ task.Store }

var errTooBig = errors.New("record too large")

func (p pickyStore) Update(ctx context.Context, id string, fn func(*task.Task) error) (*task.Task, error) {
	return p.Store.Update(ctx, id, func(t *task.Task) error {
		if err := fn(t); err != nil {
			return err
		}
		if len(t.Result) > 1000 {
			return errTooBig
		}
		return nil
	})
}

// An outcome the store refuses still ends the task: failed, saying why,
// rather than working until its TTL.
func TestTaskOutcomeRefused(t *testing.T) {
	srv := newServer(t, &mcp.Options{TaskGrace: -1, TaskStore: pickyStore{task.NewMemory(0)}})
	// The handler ends only once the task exists, so that its outcome
	// is an update of the record, not part of its creation.
	created := make(chan struct{})
	release := sync.OnceFunc(func() { close(created) })
	defer release()
	big := rawTool("big", func(context.Context, json.RawMessage) (*tool.Result, error) {
		<-created
		return tool.TextResult(strings.Repeat("x", 5000)), nil
	})
	if err := srv.AddTaskTool(big, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	c := start(t, srv)
	meta := modernMeta(tasksDeclared)
	res := result(t, c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "big", "_meta": meta}))
	id, _ := res["taskId"].(string)
	if id == "" {
		t.Fatalf("no task: %v", res)
	}
	release()
	deadline := time.Now().Add(5 * time.Second)
	for i := 2; ; i++ {
		got := result(t, c.request(jsonrpc.Int64ID(int64(i)), "tasks/get", map[string]any{"taskId": id, "_meta": meta}))
		if got["status"] == "failed" {
			if msg, _ := got["statusMessage"].(string); !strings.Contains(msg, "could not be stored") {
				t.Errorf("failed with %v", got)
			}
			return
		}
		if got["status"] != "working" || time.Now().After(deadline) {
			t.Fatalf("task is %v, want working, then failed", got)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// A handler that runs past its task's TTL loses the record (nothing
// writes a working task), and is cancelled with ErrTaskExpired rather
// than left running for an outcome no one can read.
func TestTaskExpiryCancelsTheHandler(t *testing.T) {
	srv := newServer(t, &mcp.Options{TaskGrace: -1, TaskTTL: 150 * time.Millisecond})
	cause := make(chan error, 1)
	block := rawTool("block", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		select {
		case <-ctx.Done():
			cause <- context.Cause(ctx)
			return nil, ctx.Err()
		case <-time.After(10 * time.Second):
			cause <- nil
			return tool.TextResult("ran to the end"), nil
		}
	})
	if err := srv.AddTaskTool(block, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	c := start(t, srv)
	meta := modernMeta(tasksDeclared)
	created := result(t, c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "block", "_meta": meta}))
	if created["resultType"] != "task" {
		t.Fatalf("tools/call: %v, want a task", created)
	}
	select {
	case err := <-cause:
		if !errors.Is(err, mcp.ErrTaskExpired) {
			t.Fatalf("the handler ended with cause %v, want ErrTaskExpired", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler still runs long after its task expired")
	}
	r := c.request(jsonrpc.Int64ID(2), "tasks/get", map[string]any{"taskId": created["taskId"], "_meta": meta})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Fatalf("tasks/get of the expired task: %+v, want -32602", r.Error)
	}
}
