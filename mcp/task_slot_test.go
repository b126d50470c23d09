package mcp_test

import (
	"context"
	"fmt"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// On a connection, a task's handler keeps the slot of the call that
// started it: with MaxConcurrentCalls 2, six tasks started at once run at
// most two handlers at a time; the calls beyond wait for a slot as calls
// do, and every call is answered once the handlers go on.
func TestStdioTaskHandlersKeepTheirSlot(t *testing.T) {
	var running, most atomic.Int32
	started, release := make(chan struct{}, 6), make(chan struct{})
	srv := newServer(t, &mcp.Options{MaxConcurrentCalls: 2, TaskGrace: -1})
	job := rawTool("job", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		n := running.Add(1)
		defer running.Add(-1)
		for m := most.Load(); n > m && !most.CompareAndSwap(m, n); m = most.Load() {
		}
		started <- struct{}{}
		select {
		case <-release:
			return tool.TextResult("done"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
	if err := srv.AddTaskTool(job, mcp.TaskToolOptions{Support: mcp.TaskOptional}); err != nil {
		t.Fatal(err)
	}
	c := start(t, srv)
	meta := modernMeta(tasksDeclared)
	for i := range 6 {
		params, _ := json.Marshal(map[string]any{"name": "job", "_meta": meta})
		c.send(&jsonrpc.Request{ID: jsonrpc.StringID(fmt.Sprint("t", i)), Method: "tools/call", Params: params})
	}
	for range 2 {
		<-started
	}
	time.Sleep(100 * time.Millisecond) // room for a third handler to start, were it allowed to
	if n := running.Load(); n != 2 {
		t.Errorf("%d task handlers running, want MaxConcurrentCalls (2)", n)
	}
	close(release)
	ids := map[string]bool{}
	for len(ids) < 6 {
		if r, ok := c.next(5 * time.Second).(*jsonrpc.Response); ok {
			// A task, or, for a call whose handler ran after the release
			// and ended at once, its result (TaskGrace is 0).
			if res := result(t, r); res["resultType"] != "task" && res["resultType"] != "complete" {
				t.Fatalf("%s: %v", r.ID, res)
			}
			ids[r.ID.String()] = true
		}
	}
	if m := most.Load(); m > 2 {
		t.Errorf("%d task handlers ran at once; MaxConcurrentCalls is 2", m)
	}
}
