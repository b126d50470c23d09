package redisbroker_test

import (
	"context"
	"errors"
	"fmt"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/ask"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/redisbroker"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/task/storetest"
	"github.com/mcpwire/mcpwire/tool"
)

// The Redis store passes the conformance table every task.Store passes,
// each subtest under a prefix of its own in one redis-server.
func TestTaskStoreConformance(t *testing.T) {
	r := startRedis(t)
	rdb := r.client()
	storetest.Run(t, func(t *testing.T, max int) task.Store {
		return redisbroker.NewTaskStore(rdb, &redisbroker.TaskStoreOptions{Prefix: "{" + t.Name() + "}:", MaxTasks: max})
	})
}

// The store's own rows: a bounded record size, ids no task can have, and
// a clear, quick error while Redis is down, gone once it is back.
func TestTaskStoreLimits(t *testing.T) {
	r := startRedis(t)
	ctx := context.Background()
	s := redisbroker.NewTaskStore(r.client(), &redisbroker.TaskStoreOptions{MaxRecordBytes: 1024, Timeout: 2 * time.Second})
	now := time.Now()
	rec := &task.Task{ID: task.NewID(), Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: time.Minute}
	big := &task.Task{ID: task.NewID(), Arguments: json.RawMessage(`"` + strings.Repeat("x", 2000) + `"`)}
	if err := s.Create(ctx, big, 0); !errors.Is(err, redisbroker.ErrRecordTooLarge) {
		t.Fatalf("a 2 KB record: %v", err)
	}
	if err := s.Create(ctx, rec, 0); err != nil {
		t.Fatal(err)
	}
	_, err := s.Update(ctx, rec.ID, func(t *task.Task) error { t.Result = big.Arguments; return nil })
	if !errors.Is(err, redisbroker.ErrRecordTooLarge) {
		t.Fatalf("growing a record past the bound: %v", err)
	}
	if got, err := s.Get(ctx, rec.ID); err != nil || got.Result != nil {
		t.Fatalf("after the refused update: %+v %v", got, err)
	}
	if _, err := s.Get(ctx, strings.Repeat("a", 1000)); !errors.Is(err, task.ErrNotFound) {
		t.Fatalf("a 1000-byte id: %v", err)
	}

	r.kill()
	start := time.Now()
	_, err = s.Get(ctx, rec.ID)
	if !errors.Is(err, redisbroker.ErrUnavailable) || errors.Is(err, task.ErrNotFound) {
		t.Fatalf("Get with Redis down: %v", err)
	}
	if el := time.Since(start); el > 3*time.Second {
		t.Errorf("Get with Redis down took %v", el)
	}
	if err := s.Create(ctx, &task.Task{ID: task.NewID()}, 0); !errors.Is(err, redisbroker.ErrUnavailable) {
		t.Fatalf("Create with Redis down: %v", err)
	}
	if _, err := s.Update(ctx, rec.ID, func(*task.Task) error { return nil }); !errors.Is(err, redisbroker.ErrUnavailable) {
		t.Fatalf("Update with Redis down: %v", err)
	}
	r.start() // an empty Redis: the record is gone with the old one
	eventually(t, 10*time.Second, "the store works again", func() bool {
		_, err := s.Get(ctx, rec.ID)
		return errors.Is(err, task.ErrNotFound)
	})
}

// taskInstance is one instance of a deployment sharing store: "slow"
// (optional task support: waits ms, cancellable, and tells started) and
// "confirm" (asks a question, key confirm). The grace is the default: a
// slow call becomes a task after it, while confirm's handler ends at once
// with its question, and its task is created input_required.
func taskInstance(t *testing.T, store task.Store, started chan<- context.Context) *mcp.Server {
	log, _ := testLogger(t, "server")
	srv := mcp.NewServer(mcp.Implementation{Name: "fleet", Version: "1"}, &mcp.Options{TaskStore: store, Logger: log})
	type slowArgs struct {
		MS int `json:"ms"`
	}
	slow := tool.New("slow", "Waits ms milliseconds.", func(ctx context.Context, in slowArgs) (*tool.Result, error) {
		if started != nil {
			started <- ctx
		}
		select {
		case <-time.After(time.Duration(in.MS) * time.Millisecond):
			return tool.TextResult(fmt.Sprint("waited ", in.MS)), nil
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	})
	type confirmForm struct {
		Confirm bool `json:"confirm"`
	}
	confirm := tool.New("confirm", "Asks to confirm.", func(ctx context.Context, _ struct{}) (*tool.Result, error) {
		reply, err := ask.ElicitAs[confirmForm](ctx, "Sure?", ask.Key("confirm"))
		if err != nil {
			return nil, err
		}
		return tool.TextResult(fmt.Sprint("confirmed: ", reply.Accepted() && reply.Content.Confirm)), nil
	})
	for _, tl := range []tool.Tool{slow, confirm} {
		if err := srv.AddTaskTool(tl, mcp.TaskToolOptions{Support: mcp.TaskOptional}); err != nil {
			t.Fatal(err)
		}
	}
	t.Cleanup(func() { srv.Close() })
	return srv
}

// taskClient sends 2026-07-28 requests declaring the tasks extension to
// one server, over a stateless endpoint as HTTP would.
type taskClient struct {
	t   *testing.T
	ep  *mcp.Endpoint
	n   int
	who context.Context // whose requests they are (auth.WithPrincipal); nil for no one's
}

func newTaskClient(t *testing.T, srv *mcp.Server) *taskClient {
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	t.Cleanup(func() { ep.Close() })
	return &taskClient{t: t, ep: ep}
}

// call sends one request and returns its response.
func (c *taskClient) call(method string, params map[string]any) *jsonrpc.Response {
	c.t.Helper()
	params["_meta"] = map[string]any{
		protocol.MetaProtocolVersion: "2026-07-28",
		protocol.MetaClientCapabilities: map[string]any{"elicitation": map[string]any{},
			"extensions": map[string]any{mcp.TasksExtension: map[string]any{}}},
		protocol.MetaClientInfo: map[string]any{"name": "t", "version": "1"},
	}
	body, _ := json.Marshal(params)
	c.n++
	got := make(chan *jsonrpc.Response, 1)
	base := c.who
	if base == nil {
		base = context.Background()
	}
	ctx, cancel := context.WithTimeout(base, 10*time.Second)
	defer cancel()
	c.ep.Handle(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(c.n)), Method: method, Params: body}, func(m jsonrpc.Message) {
		if r, ok := m.(*jsonrpc.Response); ok {
			got <- r
		}
	})
	select {
	case r := <-got:
		return r
	case <-ctx.Done():
		c.t.Fatalf("%s: no response within 10s", method)
		return nil
	}
}

// result is a successful response's result, decoded.
func (c *taskClient) result(method string, params map[string]any) map[string]any {
	c.t.Helper()
	r := c.call(method, params)
	if r.Error != nil {
		c.t.Fatalf("%s: %+v", method, r.Error)
	}
	var v map[string]any
	if err := json.Unmarshal(r.Result, &v); err != nil {
		c.t.Fatal(err)
	}
	return v
}

// poll gets the task on c until its status is want.
func (c *taskClient) poll(id string, want task.Status) map[string]any {
	c.t.Helper()
	deadline := time.Now().Add(10 * time.Second)
	for {
		got := c.result("tasks/get", map[string]any{"taskId": id})
		if got["status"] == string(want) {
			return got
		}
		if time.Now().After(deadline) {
			c.t.Fatalf("task %s: %v, not %s within 10s", id, got, want)
		}
		time.Sleep(20 * time.Millisecond)
	}
}

// Two instances sharing the Redis store: a task created on A is polled to
// completion on B, an input_required task created on A is answered on B
// (which runs the rest of it) and seen completed on A, and a task running
// on A is cancelled on B.
func TestTasksAcrossInstances(t *testing.T) {
	r := startRedis(t)
	store := redisbroker.NewTaskStore(r.client(), nil)
	started := make(chan context.Context, 4)
	a, b := newTaskClient(t, taskInstance(t, store, started)), newTaskClient(t, taskInstance(t, store, nil))

	t.Run("poll", func(t *testing.T) {
		created := a.result("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 300}})
		id, _ := created["taskId"].(string)
		if created["resultType"] != "task" || created["status"] != "working" || id == "" {
			t.Fatalf("created on A: %v", created)
		}
		<-started
		if got := b.result("tasks/get", map[string]any{"taskId": id}); got["status"] != "working" {
			t.Fatalf("at once on B: %v", got)
		}
		done := b.poll(id, task.Completed)
		if res, _ := done["result"].(map[string]any); res == nil || !strings.Contains(fmt.Sprint(res["content"]), "waited 300") {
			t.Fatalf("completed on B: %v", done)
		}
	})
	t.Run("input", func(t *testing.T) {
		created := a.result("tools/call", map[string]any{"name": "confirm", "arguments": map[string]any{}})
		id, _ := created["taskId"].(string)
		waiting := b.poll(id, task.InputRequired)
		if reqs, _ := waiting["inputRequests"].(map[string]any); reqs["confirm"] == nil {
			t.Fatalf("input_required on B: %v", waiting)
		}
		ack := b.result("tasks/update", map[string]any{"taskId": id, "inputResponses": map[string]any{
			"confirm": map[string]any{"action": "accept", "content": map[string]any{"confirm": true}}}})
		if ack["resultType"] != "complete" {
			t.Fatalf("tasks/update on B: %v", ack)
		}
		done := a.poll(id, task.Completed)
		if !strings.Contains(fmt.Sprint(done["result"]), "confirmed: true") {
			t.Fatalf("completed on A: %v", done)
		}
	})
	t.Run("cancel", func(t *testing.T) {
		created := a.result("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 60000}})
		id, _ := created["taskId"].(string)
		<-started
		if ack := b.result("tasks/cancel", map[string]any{"taskId": id}); ack["resultType"] != "complete" {
			t.Fatalf("tasks/cancel on B: %v", ack)
		}
		if got := a.result("tasks/get", map[string]any{"taskId": id}); got["status"] != "cancelled" {
			t.Fatalf("on A after the cancel on B: %v", got)
		}
		// Cancelling again is acked (idempotent), on either instance.
		if ack := a.result("tasks/cancel", map[string]any{"taskId": id}); ack["resultType"] != "complete" {
			t.Fatalf("a second tasks/cancel on A: %v", ack)
		}
	})
	t.Run("redis-down", func(t *testing.T) {
		created := a.result("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 100}})
		id, _ := created["taskId"].(string)
		<-started
		b.poll(id, task.Completed)
		r.kill()
		defer r.start()
		start := time.Now()
		resp := b.call("tasks/get", map[string]any{"taskId": id})
		if resp.Error == nil || resp.Error.Code != jsonrpc.CodeInternalError {
			t.Fatalf("tasks/get with Redis down: %+v", resp)
		}
		if el := time.Since(start); el > 5*time.Second {
			t.Errorf("tasks/get with Redis down answered after %v", el)
		}
		t.Logf("tasks/get with Redis down, after %v: %d %s", time.Since(start).Round(time.Millisecond), resp.Error.Code, resp.Error.Message)
		// A call that becomes a task cannot be one: an error, not a task
		// id that no instance can find.
		resp = a.call("tools/call", map[string]any{"name": "slow", "arguments": map[string]any{"ms": 1000}})
		if resp.Error == nil || resp.Error.Code != jsonrpc.CodeInternalError {
			t.Fatalf("tools/call of a task tool with Redis down: %+v", resp)
		}
	})
}
