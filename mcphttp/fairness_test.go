package mcphttp_test

import (
	"context"
	"fmt"
	"io"
	"log/slog"
	"net/http"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// from returns the headers of a modern request from the client at addr,
// as a trusted proxy on loopback forwards it.
func from(addr string, hd http.Header) http.Header {
	hd.Set("X-Forwarded-For", addr)
	return hd
}

// concurrency is a tool handler's count of how many of its calls run at
// once, and the most that ever did; its calls wait for release.
type concurrency struct {
	running, most atomic.Int32
	started       chan struct{}
	release       chan struct{}
}

func newConcurrency(n int) *concurrency {
	return &concurrency{started: make(chan struct{}, n), release: make(chan struct{})}
}

func (c *concurrency) handler(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
	n := c.running.Add(1)
	defer c.running.Add(-1)
	for m := c.most.Load(); n > m && !c.most.CompareAndSwap(m, n); m = c.most.Load() {
	}
	c.started <- struct{}{}
	select {
	case <-c.release:
		return tool.TextResult("done"), nil
	case <-ctx.Done():
		return nil, context.Cause(ctx)
	}
}

func (c *concurrency) awaitStarted(t *testing.T, n int) {
	t.Helper()
	for i := range n {
		select {
		case <-c.started:
		case <-time.After(10 * time.Second):
			t.Fatalf("%d of %d calls started", i, n)
		}
	}
}

// One caller's slow calls do not take every slot of the endpoint: with
// one caller running 64 held calls (MaxConcurrentCalls), another caller's
// call is answered at once; the first caller's calls beyond its share
// wait their turn, and are answered, not refused.
func TestOneCallerCannotTakeEverySlot(t *testing.T) {
	held := newConcurrency(64)
	srv := newServer(t, rawTool("slow", held.handler), rawTool("echo", func(context.Context, json.RawMessage) (*tool.Result, error) {
		return tool.TextResult("echo"), nil
	}))
	f := start(t, srv, &mcphttp.Options{TrustedProxies: []string{"127.0.0.1", "::1"}})
	var calls []<-chan reply
	for i := range 64 {
		calls = append(calls, f.postAsync(from("198.51.100.1", modernHeaders("tools/call", "slow")),
			modernBody(i, "tools/call", map[string]any{"name": "slow"}, nil)))
	}
	share := 64 * 3 / 4 // the default MaxConcurrentCallsPerCaller
	held.awaitStarted(t, share)
	answered := make(chan reply, 1)
	began := time.Now()
	go func() {
		answered <- f.postRead(from("198.51.100.2", modernHeaders("tools/call", "echo")),
			modernBody(1, "tools/call", map[string]any{"name": "echo"}, nil))
	}()
	select {
	case r := <-answered:
		if r.status != http.StatusOK {
			t.Errorf("the other caller's echo: %d %s", r.status, r.body)
		}
		t.Logf("the other caller's echo took %v beside %d held calls", time.Since(began), share)
	case <-time.After(10 * time.Second):
		t.Error("the other caller's echo waited for the first caller's calls")
	}
	if n := held.running.Load(); n != int32(share) {
		t.Errorf("the first caller runs %d calls, want its share %d", n, share)
	}
	close(held.release)
	for i, ch := range calls {
		if r := <-ch; r.status != http.StatusOK || r.errorCode() != 0 {
			t.Errorf("held call %d: %d %s", i, r.status, r.body)
		}
	}
	if m := held.most.Load(); m > int32(share) {
		t.Errorf("the first caller ran %d calls at once, over its share %d", m, share)
	}
}

// Task handlers run under MaxConcurrentCalls, as calls do: two callers
// starting 100 tasks each at once get every task acknowledged, while at
// most MaxConcurrentCalls handlers run (each caller at most its share);
// the others wait their turn and run once slots free.
func TestTaskHandlersBounded(t *testing.T) {
	held := newConcurrency(200)
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, &mcp.Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ShutdownGrace: 200 * time.Millisecond,
		TaskGrace: -1,
	})
	if err := srv.AddTaskTool(rawTool("job", held.handler), mcp.TaskToolOptions{Support: mcp.TaskOptional}); err != nil {
		t.Fatal(err)
	}
	f := start(t, srv, &mcphttp.Options{TrustedProxies: []string{"127.0.0.1", "::1"}})
	declared := map[string]any{protocol.MetaClientCapabilities: map[string]any{
		"extensions": map[string]any{mcp.TasksExtension: map[string]any{}}}}
	var wg sync.WaitGroup
	var acked atomic.Int32
	for _, addr := range []string{"198.51.100.1", "198.51.100.2"} {
		for w := range 10 {
			wg.Go(func() {
				for i := range 10 {
					r := f.postRead(from(addr, modernHeaders("tools/call", "job")),
						modernBody(fmt.Sprint(w, "-", i), "tools/call", map[string]any{"name": "job"}, declared))
					if r.status != http.StatusOK || resultOf(r)["resultType"] != "task" {
						t.Errorf("tools/call from %s: %d %s", addr, r.status, r.body)
						return
					}
					acked.Add(1)
				}
			})
		}
	}
	wg.Wait()
	if n := acked.Load(); n != 200 {
		t.Fatalf("%d tasks acknowledged, want 200", n)
	}
	held.awaitStarted(t, 64)
	time.Sleep(100 * time.Millisecond) // room for a handler beyond the bound to start
	if n := held.running.Load(); n != 64 {
		t.Errorf("%d task handlers running, want MaxConcurrentCalls (64)", n)
	}
	close(held.release)
	held.awaitStarted(t, 200-64)
	if m := held.most.Load(); m > 64 {
		t.Errorf("%d task handlers ran at once; MaxConcurrentCalls is 64", m)
	}
}

// resultOf is the result object of a reply, nil when it has none.
func resultOf(r reply) map[string]any {
	res, _ := r.msg["result"].(map[string]any)
	return res
}
