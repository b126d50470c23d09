package redisbroker_test

import (
	"context"
	"errors"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/redisbroker"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// The quota per caller holds across the stores of two instances sharing
// one Redis, and a caller's index lives no longer than its records: no
// expiry while one has none, else its last record's, and gone with it.
func TestTaskStoreCallerIndex(t *testing.T) {
	r := startRedis(t)
	rdb := r.client()
	ctx := context.Background()
	one, two := redisbroker.NewTaskStore(rdb, nil), redisbroker.NewTaskStore(rdb, nil)
	rec := func(caller string, ttl time.Duration) *task.Task {
		now := time.Now().UTC()
		return &task.Task{ID: task.NewID(), Caller: caller, Status: task.Working, CreatedAt: now, UpdatedAt: now, TTL: ttl}
	}
	const ada, bob = "sub:ada", "addr:192.0.2.1"
	adaKey, bobKey := redisbroker.DefaultTaskPrefix+"c:"+ada, redisbroker.DefaultTaskPrefix+"c:"+bob
	if err := one.Create(ctx, rec(ada, time.Hour), 2); err != nil {
		t.Fatal(err)
	}
	if err := two.Create(ctx, rec(ada, 0), 2); err != nil {
		t.Fatal(err)
	}
	if err := one.Create(ctx, rec(ada, time.Hour), 2); !errors.Is(err, task.ErrQuota) {
		t.Fatalf("ada's third task, through the other instance's store: %v, want ErrQuota", err)
	}
	if ttl := rdb.PTTL(ctx, adaKey).Val(); ttl != -1 {
		t.Errorf("ada's index, which holds a record without a TTL, expires in %v", ttl)
	}

	b := rec(bob, 300*time.Millisecond)
	if err := one.Create(ctx, b, 2); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, bobKey).Val(); ttl <= 0 || ttl > 300*time.Millisecond {
		t.Errorf("bob's index expires in %v, want its record's 300ms", ttl)
	}
	if _, err := two.Update(ctx, b.ID, func(t *task.Task) error { t.UpdatedAt, t.TTL = time.Now().UTC(), 2*time.Second; return nil }); err != nil {
		t.Fatal(err)
	}
	if ttl := rdb.PTTL(ctx, bobKey).Val(); ttl <= time.Second {
		t.Errorf("bob's index expires in %v after its record's TTL became 2s", ttl)
	}
	if _, err := two.Update(ctx, b.ID, func(t *task.Task) error { t.UpdatedAt, t.TTL = time.Now().UTC(), 200*time.Millisecond; return nil }); err != nil {
		t.Fatal(err)
	}
	eventually(t, 5*time.Second, "bob's index gone with his record", func() bool {
		return rdb.Exists(ctx, bobKey).Val() == 0
	})
	if _, err := one.Get(ctx, b.ID); !errors.Is(err, task.ErrNotFound) {
		t.Errorf("bob's record after its index expired: %v, want it expired too", err)
	}
	if n := rdb.Exists(ctx, redisbroker.DefaultTaskPrefix+"c:").Val(); n != 0 {
		t.Errorf("an index for the empty caller exists")
	}
}

// Two instances sharing the Redis store, with MaxTasksPerCaller 2: the
// tasks a principal creates on either count against one quota, its
// third is refused with CodeQuotaExceeded on both, and another principal
// still creates tasks.
func TestTaskQuotaAcrossInstances(t *testing.T) {
	r := startRedis(t)
	store := redisbroker.NewTaskStore(r.client(), nil)
	instance := func() *mcp.Server {
		log, _ := testLogger(t, "server")
		srv := mcp.NewServer(mcp.Implementation{Name: "fleet", Version: "1"},
			&mcp.Options{TaskStore: store, Logger: log, MaxTasksPerCaller: 2, TaskGrace: -1})
		must := tool.Tool{Name: "must", Description: "Answers at once.", InputSchema: json.RawMessage(`{"type":"object"}`),
			Handler: func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("ok"), nil }}
		if err := srv.AddTaskTool(must, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
			t.Fatal(err)
		}
		t.Cleanup(func() { srv.Close() })
		return srv
	}
	one, two := instance(), instance()
	as := func(srv *mcp.Server, subject string) *taskClient {
		c := newTaskClient(t, srv)
		c.who = auth.WithPrincipal(auth.WithRemoteAddr(context.Background(), "192.0.2.1"), &auth.Principal{Subject: subject})
		return c
	}
	adaOne, adaTwo, bobTwo := as(one, "ada"), as(two, "ada"), as(two, "bob")
	call := map[string]any{"name": "must", "arguments": map[string]any{}}
	for _, c := range []*taskClient{adaOne, adaTwo} {
		if got := c.result("tools/call", call); got["resultType"] != "task" {
			t.Fatalf("ada's task: %v", got)
		}
	}
	for i, c := range []*taskClient{adaOne, adaTwo} {
		resp := c.call("tools/call", call)
		if resp.Error == nil || resp.Error.Code != mcp.CodeQuotaExceeded || !strings.Contains(string(resp.Error.Data), `"MaxTasksPerCaller"`) {
			t.Fatalf("ada's third task on instance %d: %+v, want CodeQuotaExceeded naming MaxTasksPerCaller", i+1, resp)
		}
	}
	if got := bobTwo.result("tools/call", call); got["resultType"] != "task" {
		t.Fatalf("bob's task, at ada's address: %v", got)
	}
}
