package mcphttp_test

import (
	"context"
	"io"
	"log/slog"
	"net/http"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// openListen opens a subscriptions/listen stream and returns its first
// event's message (the acknowledgement, or nil) and the response, whose
// body the caller closes; a refusal comes back as a reply instead.
func openListen(t *testing.T, f *fixture, ctx context.Context, hd http.Header, id int) (map[string]any, *http.Response) {
	t.Helper()
	body := modernBody(id, "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil)
	resp := f.post(ctx, hd, body)
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		return nil, resp
	}
	return newSSEReader(t, resp.Body).nextMessage(), resp
}

// Listen streams are bounded per caller, not per the one endpoint every
// modern client shares: with the default options, 40 listens held at
// once from one address are all acknowledged (16 were, before, for every
// client together).
func TestFortyListensFromOneAddress(t *testing.T) {
	f := start(t, newServer(t, progressTool()), nil)
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	var wg sync.WaitGroup
	acks := make(chan bool, 40)
	for i := range 40 {
		wg.Go(func() {
			ack, resp := openListen(t, f, ctx, modernHeaders("subscriptions/listen", ""), i)
			acks <- ack["method"] == "notifications/subscriptions/acknowledged"
			if ack == nil {
				r := readReply(t, resp)
				t.Errorf("listen %d: %d %s", i, r.status, r.body)
				return
			}
			go func() { <-ctx.Done(); resp.Body.Close() }()
		})
	}
	wg.Wait()
	close(acks)
	n := 0
	for ok := range acks {
		if ok {
			n++
		}
	}
	if n != 40 {
		t.Errorf("%d of 40 listens acknowledged", n)
	}
}

// A caller over its listen quota gets 429 with CodeQuotaExceeded naming
// the limit, while another caller still listens.
func TestListenQuotaOverHTTP(t *testing.T) {
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, &mcp.Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ShutdownGrace: 200 * time.Millisecond,
		DynamicTools: true, MaxListenStreamsPerCaller: 2,
	})
	f := start(t, srv, &mcphttp.Options{TrustedProxies: []string{"127.0.0.1", "::1"}})
	// Bounded: a stream opened where a refusal was due would never end.
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	for i := range 2 {
		ack, resp := openListen(t, f, ctx, from("198.51.100.1", modernHeaders("subscriptions/listen", "")), i)
		if ack == nil {
			t.Fatalf("listen %d of the first caller: %d", i, resp.StatusCode)
		}
		defer resp.Body.Close()
	}
	ack, resp := openListen(t, f, ctx, from("198.51.100.1", modernHeaders("subscriptions/listen", "")), 3)
	r := readReply(t, resp)
	if ack != nil || r.status != http.StatusTooManyRequests || r.errorCode() != mcp.CodeQuotaExceeded ||
		!strings.Contains(r.body, "MaxListenStreamsPerCaller") {
		t.Errorf("a third listen of the first caller: %d %s", r.status, r.body)
	}
	ack, resp = openListen(t, f, ctx, from("198.51.100.2", modernHeaders("subscriptions/listen", "")), 4)
	if ack == nil {
		t.Errorf("another caller's listen: %d", resp.StatusCode)
	} else {
		resp.Body.Close()
	}
}

// The task store is shared with a quota per caller: alice at her quota is
// refused with 429 and CodeQuotaExceeded, and bob still creates tasks.
func TestTaskQuotaOverHTTP(t *testing.T) {
	srv := mcp.NewServer(mcp.Implementation{Name: "test", Version: "1"}, &mcp.Options{
		Logger: slog.New(slog.NewTextHandler(io.Discard, nil)), ShutdownGrace: 200 * time.Millisecond,
		TaskGrace: -1, MaxTasksPerCaller: 3,
	})
	quick := rawTool("quick", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("ok"), nil })
	if err := srv.AddTaskTool(quick, mcp.TaskToolOptions{Support: mcp.TaskRequired}); err != nil {
		t.Fatal(err)
	}
	h := mcphttp.NewHandler(srv, nil)
	defer h.Close()
	ts := asCaller(t, h)
	declared := map[string]any{protocol.MetaClientCapabilities: map[string]any{
		"extensions": map[string]any{mcp.TasksExtension: map[string]any{}}}}
	create := func(who string, id int) reply {
		req, _ := http.NewRequest(http.MethodPost, ts.URL, strings.NewReader(modernBody(id, "tools/call", map[string]any{"name": "quick"}, declared)))
		req.Header = modernHeaders("tools/call", "quick")
		req.Header.Set("X-Test-Caller", who)
		resp, err := ts.Client().Do(req)
		if err != nil {
			t.Fatal(err)
		}
		return readReply(t, resp)
	}
	for i := range 3 {
		if r := create("alice", i); r.status != http.StatusOK || resultOf(r)["resultType"] != "task" {
			t.Fatalf("alice's task %d: %d %s", i, r.status, r.body)
		}
	}
	r := create("alice", 4)
	if r.status != http.StatusTooManyRequests || r.errorCode() != mcp.CodeQuotaExceeded || !strings.Contains(r.body, "MaxTasksPerCaller") {
		t.Errorf("alice's fourth task: %d %s", r.status, r.body)
	}
	for i := range 3 {
		if r := create("bob", 10+i); r.status != http.StatusOK || resultOf(r)["resultType"] != "task" {
			t.Errorf("bob's task %d beside alice at her quota: %d %s", i, r.status, r.body)
		}
	}
}
