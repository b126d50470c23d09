package mcp_test

import (
	"context"
	"errors"
	"log/slog"
	"os"
	"path/filepath"
	"strconv"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire"
	"github.com/mcpwire/mcpwire/internal/testsupport/syncbuf"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

func TestHandlerErrors(t *testing.T) {
	var logs syncbuf.Buffer
	srv := newServer(t, &mcp.Options{Logger: slog.New(slog.NewTextHandler(&logs, &slog.HandlerOptions{Level: slog.LevelWarn})), HandlerErrorLevel: slog.LevelWarn},
		rawTool("rpc_error", func(context.Context, json.RawMessage) (*tool.Result, error) {
			return nil, jsonrpc.NewError(-32099+1, "on purpose")
		}),
		rawTool("go_error", func(context.Context, json.RawMessage) (*tool.Result, error) {
			return nil, errors.New("disk full")
		}),
		rawTool("wrapped_rpc_error", func(context.Context, json.RawMessage) (*tool.Result, error) {
			return nil, errors.Join(errors.New("context"), jsonrpc.NewError(jsonrpc.CodeInvalidParams, "bad input"))
		}),
	)
	c := start(t, srv)
	c.initialize("2025-11-25")

	r := c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "rpc_error"})
	if r.Error == nil || r.Error.Code != -32098 || r.Error.Message != "on purpose" {
		t.Errorf("rpc_error: got %+v, want the handler's own JSON-RPC error", r.Error)
	}
	r = c.request(jsonrpc.Int64ID(2), "tools/call", map[string]any{"name": "go_error"})
	res := result(t, r)
	if res["isError"] != true || !strings.Contains(string(r.Result), "disk full") {
		t.Errorf("go_error: got %s, want an isError result carrying the text", r.Result)
	}
	r = c.request(jsonrpc.Int64ID(3), "tools/call", map[string]any{"name": "wrapped_rpc_error"})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("wrapped_rpc_error: got %+v, want -32602 found with errors.As", r.Error)
	}
	// The plain error is logged, at the configured level, with the tool and
	// the request id; the JSON-RPC errors are the client's to see.
	got := logs.String()
	if !strings.Contains(got, `level=WARN msg="mcp: tool returned an error" tool=go_error id=2 error="disk full"`) ||
		strings.Count(got, "tool returned an error") != 1 {
		t.Errorf("server log:\n%s", got)
	}
}

func TestStaleCursor(t *testing.T) {
	var tools []tool.Tool
	for _, n := range []string{"a", "b", "c"} {
		tools = append(tools, rawTool(n, func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }))
	}
	srv := newServer(t, &mcp.Options{PageSize: 1}, tools...)
	c := start(t, srv)
	c.initialize("2025-11-25")
	page := result(t, c.request(jsonrpc.Int64ID(1), "tools/list", nil))
	cursor, _ := page["nextCursor"].(string)
	if cursor == "" {
		t.Fatal("no nextCursor on the first page")
	}
	if ok := result(t, c.request(jsonrpc.Int64ID(2), "tools/list", map[string]any{"cursor": cursor})); ok["tools"] == nil {
		t.Fatal("valid cursor refused")
	}
	tampered := []byte(cursor)
	tampered[len(tampered)-1] ^= 1
	if r := c.request(jsonrpc.Int64ID(3), "tools/list", map[string]any{"cursor": string(tampered)}); r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams {
		t.Errorf("tampered cursor: got %+v, want -32602", r.Error)
	}
	srv.RemoveTool("c")
	r := c.request(jsonrpc.Int64ID(4), "tools/list", map[string]any{"cursor": cursor})
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInvalidParams || !strings.Contains(r.Error.Message, "stale") {
		t.Errorf("stale cursor: got %+v, want -32602 naming the stale cursor", r.Error)
	}
}

// blockingTool blocks until release is closed and counts its calls.
func blockingTool(name string, started chan<- struct{}, release <-chan struct{}) tool.Tool {
	return rawTool(name, func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		started <- struct{}{}
		select {
		case <-release:
			return tool.TextResult("released"), nil
		case <-ctx.Done():
			return nil, context.Cause(ctx)
		}
	})
}

func TestOverloadAndPingNotDelayed(t *testing.T) {
	started := make(chan struct{}, 10)
	release := make(chan struct{})
	srv := newServer(t, &mcp.Options{MaxConcurrentCalls: 1, MaxQueuedCalls: 1}, blockingTool("block", started, release))
	c := start(t, srv)
	c.initialize("2025-11-25")
	call := func(id int64) {
		c.send(&jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "tools/call", Params: json.RawMessage(`{"name":"block"}`)})
	}
	call(1) // runs
	<-started
	call(2) // queued
	// A slow tool must not delay ping.
	if r := c.request(jsonrpc.Int64ID(10), "ping", nil); r.Error != nil {
		t.Fatalf("ping: %v", r.Error)
	}
	call(3) // beyond the queue
	r := c.await(jsonrpc.Int64ID(3))
	if r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError || !strings.Contains(string(r.Error.Data), "overloaded") {
		t.Fatalf("third call: got %+v, want -32603 overloaded", r.Error)
	}
	close(release)
	for _, id := range []int64{1, 2} {
		if res := result(t, c.await(jsonrpc.Int64ID(id))); res["isError"] == true {
			t.Errorf("call %d failed", id)
		}
	}
}

func TestCancelCauseReachesHandler(t *testing.T) {
	causes := make(chan error, 1)
	started := make(chan struct{})
	srv := newServer(t, nil, rawTool("wait", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		close(started)
		<-ctx.Done()
		causes <- context.Cause(ctx)
		return tool.TextResult("too late"), nil
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	c.send(&jsonrpc.Request{ID: jsonrpc.StringID("w"), Method: "tools/call", Params: json.RawMessage(`{"name":"wait"}`)})
	<-started
	c.send(&jsonrpc.Notification{Method: "notifications/cancelled", Params: json.RawMessage(`{"requestId":"w","reason":"user pressed stop"}`)})
	select {
	case cause := <-causes:
		if cause == nil || !strings.Contains(cause.Error(), "user pressed stop") {
			t.Errorf("cause = %v, want the client's reason", cause)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("handler was not cancelled")
	}
	c.quiet(200 * time.Millisecond) // no response for the cancelled call
}

func TestProgressNeverAfterResponse(t *testing.T) {
	var wg sync.WaitGroup
	late := make(chan error, 1)
	srv := newServer(t, nil, rawTool("leaky", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		if err := mcp.ReportProgress(ctx, 1, 2, "first"); err != nil {
			return nil, err
		}
		if err := mcp.ReportProgress(ctx, 1, 2, "not increasing"); err == nil {
			return nil, errors.New("a non-increasing progress was accepted")
		}
		wg.Add(1)
		go func() { // reports after the handler returned
			defer wg.Done()
			time.Sleep(50 * time.Millisecond)
			late <- mcp.ReportProgress(ctx, 2, 2, "late")
		}()
		return tool.TextResult("done"), nil
	}))
	c := start(t, srv)
	c.initialize("2025-11-25")
	r := c.request(jsonrpc.Int64ID(1), "tools/call", map[string]any{"name": "leaky", "_meta": map[string]any{"progressToken": "tok"}})
	if res := result(t, r); res["isError"] == true {
		t.Fatalf("tool failed: %s", r.Result)
	}
	if len(c.notes) != 1 || c.notes[0].Method != "notifications/progress" {
		t.Fatalf("got %d notifications before the response, want 1 progress", len(c.notes))
	}
	wg.Wait()
	if err := <-late; !errors.Is(err, mcp.ErrCallDone) {
		t.Errorf("late progress: err = %v, want ErrCallDone", err)
	}
	c.quiet(100 * time.Millisecond)
}

// Registration errors are sentinels a caller matches, not strings.
func TestAddToolErrors(t *testing.T) {
	h := func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }
	srv := newServer(t, nil, rawTool("a", h))
	if err := srv.AddTool(rawTool("a", h)); !errors.Is(err, mcp.ErrDuplicateTool) {
		t.Errorf("duplicate: %v, want ErrDuplicateTool", err)
	}
	if err := srv.AddTool(rawTool("bad name", h)); !errors.Is(err, mcp.ErrInvalidTool) {
		t.Errorf("invalid name: %v, want ErrInvalidTool", err)
	}
	if err := srv.AddTool(tool.Tool{}); !errors.Is(err, mcp.ErrInvalidTool) {
		t.Errorf("zero tool: %v, want ErrInvalidTool", err)
	}
	type unfillable struct{ C chan int }
	bad := tool.New("c", "", func(context.Context, unfillable) (int, error) { return 0, nil })
	if err := srv.AddTool(bad); !errors.Is(err, mcp.ErrInvalidTool) || !strings.Contains(err.Error(), ".C") {
		t.Errorf("unfillable In: %v, want ErrInvalidTool naming the field", err)
	}
}

// A cache hint for a method that carries none is a mistake worth a warning.
func TestCacheHintsUnknownMethodWarns(t *testing.T) {
	var logs strings.Builder
	mcp.NewServer(mcp.Implementation{Name: "t", Version: "1"}, &mcp.Options{
		Logger:     slog.New(slog.NewTextHandler(&logs, nil)),
		CacheHints: map[string]mcp.CacheHint{"tools/list": {}, "tool/list": {}},
	})
	if got := logs.String(); !strings.Contains(got, "method=tool/list") || strings.Contains(got, "method=tools/list") {
		t.Errorf("warnings: %s", got)
	}
}

// A server that names no version reports mcpwire's; one with no name, the
// program's.
func TestServerInfoDefaults(t *testing.T) {
	c := start(t, mcp.NewServer(mcp.Implementation{}, nil))
	r := c.request(jsonrpc.StringID("init"), "initialize", map[string]any{
		"protocolVersion": "2025-06-18", "capabilities": map[string]any{}, "clientInfo": map[string]any{"name": "t", "version": "1"},
	})
	var res struct {
		ServerInfo mcp.Implementation `json:"serverInfo"`
	}
	if err := json.Unmarshal(r.Result, &res); err != nil {
		t.Fatal(err)
	}
	if res.ServerInfo.Version != mcpwire.Version || res.ServerInfo.Name != filepath.Base(os.Args[0]) {
		t.Errorf("serverInfo = %+v, want name %q, version %q", res.ServerInfo, filepath.Base(os.Args[0]), mcpwire.Version)
	}
}

// routedCall returns a tools/call of the named tool as HandleRouted shows
// it to a transport's check, which refuses it.
func routedCall(t *testing.T, srv *mcp.Server, ctx context.Context, name string) *mcp.Routed {
	t.Helper()
	ep := srv.NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	var got *mcp.Routed
	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":` + strconv.Quote(name) + `,"arguments":{"region":"eu"}}`)}
	ep.HandleRouted(ctx, req, func(r *mcp.Routed) bool { got = r; return false }, func(m jsonrpc.Message) { t.Errorf("a refused call answered %v", m) })
	if got == nil {
		t.Fatal("the check was not called")
	}
	return got
}

// A routed tools/call names its tool and carries the tool's x-mcp-header
// annotations; an unknown tool has none.
func TestRoutedHeaders(t *testing.T) {
	srv := newServer(t, nil, tool.Tool{Name: "route", Description: "d", Handler: func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil },
		InputSchema: json.RawMessage(`{"type":"object","properties":{"region":{"type":"string","x-mcp-header":"Region"}}}`)})
	got := routedCall(t, srv, context.Background(), "route")
	if got.Method != "tools/call" || got.Named != "name" || string(got.Name) != `"route"` || string(got.Arguments) != `{"region":"eu"}` {
		t.Errorf("routed %+v", got)
	}
	if len(got.Headers) != 1 || got.Headers[0].Header != "Region" || got.Headers[0].Path[0] != "region" {
		t.Errorf("annotations: %+v", got.Headers)
	}
	if got := routedCall(t, srv, context.Background(), "nope"); got.Headers != nil {
		t.Error("an unknown tool has annotations")
	}
}
