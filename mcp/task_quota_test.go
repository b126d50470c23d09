package mcp_test

import (
	"context"
	"strings"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/task"
	"github.com/mcpwire/mcpwire/tool"
)

// newTask calls "must" as a task on ep for the caller ctx names.
func newTask(t *testing.T, ep *mcp.Endpoint, ctx context.Context, id int64) *jsonrpc.Response {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"name": "must", "_meta": modernMeta(tasksDeclared)})
	x := newExchange()
	ep.Handle(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: params}, x.send)
	msgs := x.wait(t)
	return msgs[len(msgs)-1].(*jsonrpc.Response)
}

// One caller cannot fill the task store for everyone: with
// MaxTasksPerCaller 3, principal ada's fourth task is refused with
// CodeQuotaExceeded (from any address: the principal is the caller),
// while principal bob, and an anonymous caller at ada's address, still
// create theirs; the store's own bound still refuses as overloaded.
func TestMaxTasksPerCaller(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	srv := newServer(t, &mcp.Options{TaskGrace: -1, MaxTasksPerCaller: 3, TaskStore: task.NewMemory(6)})
	defer srv.Close()
	must := rawTool("must", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("ok"), nil })
	if err := srv.AddTaskTool(must, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	at := func(addr string) context.Context { return auth.WithRemoteAddr(context.Background(), addr) }
	as := func(addr, subject string) context.Context {
		return auth.WithPrincipal(at(addr), &auth.Principal{Subject: subject})
	}
	id := int64(0)
	isTask := func(who string, ctx context.Context) {
		t.Helper()
		id++
		if r := newTask(t, ep, ctx, id); r.Error != nil || !strings.Contains(string(r.Result), `"resultType":"task"`) {
			t.Fatalf("%s: %s %+v, want a task", who, r.Result, r.Error)
		}
	}
	refused := func(who string, ctx context.Context, code int64, data string) {
		t.Helper()
		id++
		if r := newTask(t, ep, ctx, id); r.Error == nil || r.Error.Code != code || !strings.Contains(string(r.Error.Data), data) {
			t.Fatalf("%s: %s %+v, want code %d with data %s", who, r.Result, r.Error, code, data)
		}
	}
	for range 3 {
		isTask("ada", as("192.0.2.1", "ada"))
	}
	refused("ada's fourth", as("192.0.2.1", "ada"), mcp.CodeQuotaExceeded, `"limit":"MaxTasksPerCaller"`)
	refused("ada's fourth, from another address", as("198.51.100.7", "ada"), mcp.CodeQuotaExceeded, `"max":3`)
	isTask("bob", as("192.0.2.1", "bob"))
	isTask("anonymous at ada's address", at("192.0.2.1"))
	isTask("bob again", as("192.0.2.1", "bob"))
	refused("carol, the store full", as("203.0.113.9", "carol"), jsonrpc.CodeInternalError, `"overloaded"`)
}
