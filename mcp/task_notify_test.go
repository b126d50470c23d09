package mcp_test

import (
	"context"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// Task status notifications on subscriptions/listen (notifications/tasks).

// askingMeta declares the tasks extension and elicitation.
var askingMeta = modernMeta(map[string]any{protocol.MetaClientCapabilities: map[string]any{
	"elicitation": map[string]any{}, "extensions": map[string]any{mcp.TasksExtension: map[string]any{}}}})

// gatedServer is one instance whose caller is subject, sharing store and b
// (either may be nil) with the others. Its task tool "gated" waits for a
// token on gate at each run, asks a yes/no question (key "ok"), and
// answers "done".
func gatedServer(t *testing.T, subject string, store task.Store, b fanout.Broker, gate chan struct{}) *mcp.Server {
	t.Helper()
	srv := newServer(t, &mcp.Options{TaskGrace: -1, TaskStore: store, Broker: b, Caller: &auth.Principal{Subject: subject}})
	gated := rawTool("gated", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		select {
		case <-gate:
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
		if _, err := ask.ElicitAs[struct {
			OK bool `json:"ok"`
		}](ctx, "Go on?", ask.Key("ok")); err != nil {
			return nil, err
		}
		return tool.TextResult("done"), nil
	})
	if err := srv.AddTaskTool(gated, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// startTask calls "gated" and returns the task id.
func (c *client) startTask(id string) string {
	c.t.Helper()
	res := result(c.t, c.request(jsonrpc.StringID(id), "tools/call", map[string]any{"name": "gated", "_meta": askingMeta}))
	if res["resultType"] != "task" || res["status"] != "working" {
		c.t.Fatalf("not a working task: %v", res)
	}
	return res["taskId"].(string)
}

// listenTasks opens listen stream "T" asking for taskIds and returns the
// acknowledged filter.
func (c *client) listenTasks(meta map[string]any, ids ...string) map[string]any {
	c.t.Helper()
	params, _ := json.Marshal(map[string]any{"_meta": meta,
		"notifications": map[string]any{"toolsListChanged": true, "taskIds": ids}})
	c.send(&jsonrpc.Request{ID: jsonrpc.StringID("T"), Method: "subscriptions/listen", Params: params})
	n, ok := c.next(time.Second).(*jsonrpc.Notification)
	if !ok || n.Method != protocol.NotificationSubscriptionsAcknowledged {
		c.t.Fatalf("listen: no acknowledgement: %+v", n)
	}
	var ack struct {
		Notifications map[string]any `json:"notifications"`
	}
	json.Unmarshal(n.Params, &ack)
	return ack.Notifications
}

// expectTask reads a notifications/tasks on stream "T" for task id with
// status, and returns its params.
func (c *client) expectTask(id, status string) map[string]any {
	c.t.Helper()
	n, ok := c.next(2 * time.Second).(*jsonrpc.Notification)
	if !ok || n.Method != "notifications/tasks" {
		c.t.Fatalf("got %+v, want notifications/tasks (%s)", n, status)
	}
	var p map[string]any
	if err := json.Unmarshal(n.Params, &p); err != nil {
		c.t.Fatal(err)
	}
	meta, _ := p["_meta"].(map[string]any)
	if p["taskId"] != id || p["status"] != status || meta[protocol.MetaSubscriptionID] != "T" || p["resultType"] != nil {
		c.t.Fatalf("got %s, want task %s %s on T", n.Params, id, status)
	}
	return p
}

// answer answers the pending question of task id through c.
func (c *client) answer(reqID, id string) {
	c.t.Helper()
	res := result(c.t, c.request(jsonrpc.StringID(reqID), "tasks/update", map[string]any{"taskId": id, "_meta": askingMeta,
		"inputResponses": map[string]any{"ok": map[string]any{"action": "accept", "content": map[string]any{"ok": true}}}}))
	if res["resultType"] != "complete" {
		c.t.Fatalf("tasks/update: %v", res)
	}
}

// A stream that follows its caller's task hears each state: the one it
// was in when the stream opened, input_required with the question, working
// again once answered, and completed with the result; a stream that did
// not ask hears nothing.
func TestTaskNotifications(t *testing.T) {
	fanoutNoLeaks(t)
	gate := make(chan struct{}, 2)
	srv := gatedServer(t, "ada", nil, nil, gate)
	caller, follower, other := fanoutConnect(t, srv), fanoutConnect(t, srv), fanoutConnect(t, srv)
	id := caller.startTask("c1")

	if got := follower.listenTasks(askingMeta, id, "no-such-task", id); !equalIDs(got["taskIds"], id) || got["toolsListChanged"] != true {
		t.Fatalf("acknowledged %v, want taskIds [%s]", got, id)
	}
	other.listenAll() // lists and a resource, no taskIds
	follower.expectTask(id, "working")

	gate <- struct{}{}
	p := follower.expectTask(id, "input_required")
	if reqs, _ := p["inputRequests"].(map[string]any); reqs["ok"] == nil {
		t.Fatalf("input_required without the question: %v", p)
	}
	caller.answer("u1", id)
	follower.expectTask(id, "working")
	gate <- struct{}{}
	p = follower.expectTask(id, "completed")
	if res, _ := p["result"].(map[string]any); res == nil || !strings.Contains(string(mustJSON(t, res)), `"done"`) {
		t.Fatalf("completed without the result: %v", p)
	}
	follower.quiet(50 * time.Millisecond)
	other.quiet(20 * time.Millisecond)
}

// A stream is not told of another caller's task: the id is not
// acknowledged, and its changes (on either instance) never reach the
// stream, nor does the id's existence show.
func TestTaskNotificationsOwnerOnly(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	store := task.NewMemory(0)
	gate := make(chan struct{}, 2)
	ada := gatedServer(t, "ada", store, &mem, gate)
	bob := gatedServer(t, "bob", store, &mem, gate)
	caller := fanoutConnect(t, ada)
	id := caller.startTask("c1")
	onBob := fanoutConnect(t, bob)
	if got := onBob.listenTasks(askingMeta, id); got["taskIds"] != nil {
		t.Fatalf("bob's stream acknowledged ada's task: %v", got)
	}
	gate <- struct{}{}
	waitStatus(t, caller, id, "input_required")
	caller.answer("u1", id)
	gate <- struct{}{}
	waitStatus(t, caller, id, "completed")
	onBob.quiet(100 * time.Millisecond)
}

// Asking for taskIds without declaring the extension is -32021.
func TestTaskNotificationsNeedTheExtension(t *testing.T) {
	gate := make(chan struct{}, 1)
	c := start(t, gatedServer(t, "ada", nil, nil, gate))
	r := c.request(jsonrpc.StringID("T"), "subscriptions/listen", map[string]any{"_meta": modernMeta(nil),
		"notifications": map[string]any{"taskIds": []string{"x"}}})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeMissingRequiredClientCapability {
		t.Fatalf("got %+v, want -32021", r)
	}
	// Malformed taskIds, a string or holding a number, are -32602 naming
	// the member.
	for i, ids := range []any{"x", []any{1}} {
		r = c.request(jsonrpc.Int64ID(int64(i+1)), "subscriptions/listen", map[string]any{"_meta": askingMeta,
			"notifications": map[string]any{"taskIds": ids}})
		if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, "taskIds") {
			t.Errorf("taskIds %v: %+v, want -32602 naming taskIds", ids, r.Error)
		}
	}
}

// A stream on instance B follows a task that runs on A: the changes come
// through the broker, each state read from the shared store.
func TestTaskNotificationsAcrossInstances(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	store := task.NewMemory(0)
	gate := make(chan struct{}, 2)
	a := gatedServer(t, "ada", store, &mem, gate)
	b := gatedServer(t, "ada", store, &mem, gate)
	onA, onB := fanoutConnect(t, a), fanoutConnect(t, b)
	id := onA.startTask("c1")
	if got := onB.listenTasks(askingMeta, id); !equalIDs(got["taskIds"], id) {
		t.Fatalf("acknowledged %v", got)
	}
	onB.expectTask(id, "working")
	gate <- struct{}{}
	onB.expectTask(id, "input_required")
	onA.answer("u1", id)
	onB.expectTask(id, "working")
	gate <- struct{}{}
	onB.expectTask(id, "completed")
	onB.quiet(50 * time.Millisecond)
}

func equalIDs(v any, ids ...string) bool {
	got, _ := v.([]any)
	if len(got) != len(ids) {
		return false
	}
	for i := range got {
		if got[i] != ids[i] {
			return false
		}
	}
	return true
}

func waitStatus(t *testing.T, c *client, id, status string) {
	t.Helper()
	deadline := time.Now().Add(2 * time.Second)
	for i := 0; ; i++ {
		res := result(t, c.request(jsonrpc.Int64ID(int64(1000+i)), "tasks/get", map[string]any{"taskId": id, "_meta": askingMeta}))
		if res["status"] == status {
			return
		}
		if time.Now().After(deadline) {
			t.Fatalf("task %s is %v, want %s", id, res["status"], status)
		}
		time.Sleep(5 * time.Millisecond)
	}
}

// A tasks/cancel that reaches another instance stops the handler where it
// runs (through the broker), not only the record.
func TestTaskCancelAcrossInstances(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	store := task.NewMemory(0)
	stopped := make(chan error, 1)
	build := func() *mcp.Server {
		srv := newServer(t, &mcp.Options{TaskGrace: -1, TaskStore: store, Broker: &mem, Caller: &auth.Principal{Subject: "ada"}})
		long := rawTool("gated", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
			<-ctx.Done()
			stopped <- context.Cause(ctx)
			return nil, context.Cause(ctx)
		})
		if err := srv.AddTaskTool(long, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		return srv
	}
	a, b := build(), build()
	onA, onB := fanoutConnect(t, a), fanoutConnect(t, b)
	id := onA.startTask("c1")
	result(t, onB.request(jsonrpc.StringID("x1"), "tasks/cancel", map[string]any{"taskId": id, "_meta": askingMeta}))
	select {
	case err := <-stopped:
		if err == nil || !strings.Contains(err.Error(), "another instance") {
			t.Errorf("the handler stopped with %v", err)
		}
	case <-time.After(2 * time.Second):
		t.Fatal("the handler on A still runs after a cancel through B")
	}
	waitStatus(t, onA, id, "cancelled")
}
