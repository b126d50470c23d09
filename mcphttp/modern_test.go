package mcphttp_test

import (
	"context"
	"errors"
	"net/http"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// A request whose response is its only message is answered as JSON; the
// Mcp-Session-Id it carries is ignored and never echoed.
func TestModernJSON(t *testing.T) {
	f := start(t, newServer(t, progressTool()), nil)
	hd := modernHeaders("tools/list", "")
	hd.Set("Mcp-Session-Id", "not-a-session")
	r := f.postRead(hd, modernBody(1, "tools/list", nil, nil))
	if r.status != http.StatusOK || r.header.Get("Content-Type") != "application/json" {
		t.Fatalf("%d %q %s", r.status, r.header.Get("Content-Type"), r.body)
	}
	if r.header.Get("Mcp-Session-Id") != "" {
		t.Errorf("a session id on a modern response: %q", r.header.Get("Mcp-Session-Id"))
	}
	res, _ := r.msg["result"].(map[string]any)
	if res["resultType"] != "complete" || !strings.Contains(r.body, `"steps"`) {
		t.Errorf("result: %s", r.body)
	}
}

// Progress before the response switches the response to SSE: each
// message an event with an id, the response last.
func TestModernSSEProgress(t *testing.T) {
	f := start(t, newServer(t, progressTool()), nil)
	resp := f.post(context.Background(), modernHeaders("tools/call", "steps"),
		modernBody(7, "tools/call", map[string]any{"name": "steps"}, map[string]any{"progressToken": "p"}))
	defer resp.Body.Close()
	if ct := resp.Header.Get("Content-Type"); resp.StatusCode != http.StatusOK || ct != "text/event-stream" {
		t.Fatalf("%d %q", resp.StatusCode, ct)
	}
	if resp.Header.Get("X-Accel-Buffering") != "no" {
		t.Error("no X-Accel-Buffering: no")
	}
	sse := newSSEReader(t, resp.Body)
	for i := 1; i <= 4; i++ {
		ev, ok := sse.next()
		if !ok {
			t.Fatalf("stream ended after %d events", i-1)
		}
		if ev.id != itoa(i) || ev.event != "message" {
			t.Errorf("event %d: id %q event %q", i, ev.id, ev.event)
		}
		if i < 4 && !strings.Contains(ev.data, "notifications/progress") {
			t.Errorf("event %d: %s", i, ev.data)
		}
		if i == 4 && !strings.Contains(ev.data, `"done"`) {
			t.Errorf("response: %s", ev.data)
		}
	}
	if _, ok := sse.next(); ok {
		t.Error("the stream goes on after the response")
	}
}

func itoa(i int) string { b, _ := json.Marshal(i); return string(b) }

// A client that accepts only JSON gets the response alone.
func TestModernJSONOnlyAccept(t *testing.T) {
	f := start(t, newServer(t, progressTool()), nil)
	hd := modernHeaders("tools/call", "steps")
	hd.Set("Accept", "application/json")
	r := f.postRead(hd, modernBody(1, "tools/call", map[string]any{"name": "steps"}, map[string]any{"progressToken": "p"}))
	if r.status != http.StatusOK || !strings.Contains(r.body, `"done"`) || strings.Contains(r.body, "progress") {
		t.Fatalf("%d %s", r.status, r.body)
	}
}

// A notification is accepted with 202 and no body.
func TestModernNotification(t *testing.T) {
	f := start(t, newServer(t), nil)
	hd := modernHeaders("notifications/cancelled", "")
	r := f.postRead(hd, modernBody(nil, "notifications/cancelled", map[string]any{"requestId": 3}, nil))
	if r.status != http.StatusAccepted || r.body != "" {
		t.Fatalf("%d %q", r.status, r.body)
	}
}

// The client closing its connection cancels the request: the handler sees
// mcp.ErrExchangeClosed and nothing is left running (start checks).
func TestModernDisconnectCancels(t *testing.T) {
	started := make(chan struct{})
	cause := make(chan error, 1)
	block := rawTool("block", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		close(started)
		<-ctx.Done()
		cause <- context.Cause(ctx)
		return nil, ctx.Err()
	})
	f := start(t, newServer(t, block), nil)
	ctx, cancel := context.WithCancel(context.Background())
	done := make(chan error, 1)
	go func() {
		req, _ := http.NewRequestWithContext(ctx, http.MethodPost, f.ts.URL,
			strings.NewReader(modernBody(1, "tools/call", map[string]any{"name": "block"}, nil)))
		req.Header = modernHeaders("tools/call", "block")
		resp, err := f.ts.Client().Do(req)
		if err == nil {
			resp.Body.Close()
		}
		done <- err
	}()
	<-started
	cancel()
	select {
	case err := <-cause:
		if !errors.Is(err, mcp.ErrExchangeClosed) {
			t.Errorf("cause: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("the handler was not cancelled")
	}
	if err := <-done; err == nil {
		t.Error("the request got a response")
	}
}

// subscriptions/listen is a long SSE response: acknowledged at once, kept
// alive with comments, notified of list changes, and ended by Close with
// its graceful result.
func TestModernListen(t *testing.T) {
	srv := newServer(t, progressTool())
	f := start(t, srv, &mcphttp.Options{KeepAlive: 20 * time.Millisecond})
	resp := f.post(context.Background(), modernHeaders("subscriptions/listen", ""),
		modernBody("L1", "subscriptions/listen", map[string]any{"notifications": map[string]any{"toolsListChanged": true}}, nil))
	defer resp.Body.Close()
	if resp.Header.Get("Content-Type") != "text/event-stream" {
		t.Fatalf("%d %q", resp.StatusCode, resp.Header.Get("Content-Type"))
	}
	sse := newSSEReader(t, resp.Body)
	if m := sse.nextMessage(); m["method"] != "notifications/subscriptions/acknowledged" {
		t.Fatalf("first: %v", m)
	}
	if ev, _ := sse.next(); ev.comment != "keep-alive" {
		t.Errorf("no keep-alive comment: %+v", ev)
	}
	srv.MustAddTool(rawTool("later", func(context.Context, json.RawMessage) (*tool.Result, error) { return tool.TextResult("x"), nil }))
	if m := sse.nextMessage(); m["method"] != "notifications/tools/list_changed" {
		t.Errorf("after AddTool: %v", m)
	}
	go f.h.Close()
	m := sse.nextMessage()
	res, _ := m["result"].(map[string]any)
	meta, _ := res["_meta"].(map[string]any)
	if m["id"] != "L1" || res["resultType"] != "complete" || meta["io.modelcontextprotocol/subscriptionId"] != "L1" {
		t.Errorf("graceful end: %v", m)
	}
	for {
		ev, ok := sse.next()
		if !ok {
			break
		}
		if ev.comment == "" {
			t.Errorf("after the result: %+v", ev)
		}
	}
	// After Close, new requests are refused.
	if r := f.postRead(modernHeaders("tools/list", ""), modernBody(2, "tools/list", nil, nil)); r.status != http.StatusServiceUnavailable {
		t.Errorf("after Close: %d %s", r.status, r.body)
	}
}

// The stateless endpoint runs a call on the request's own goroutine; the
// messages it sends before its response still stream while it runs: the
// handler waits for the client to have read its first progress event.
func TestModernProgressStreamsWhileTheCallRuns(t *testing.T) {
	read := make(chan struct{})
	waits := rawTool("waits", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		mcp.ReportProgress(ctx, 1, 2, "")
		select {
		case <-read:
		case <-time.After(5 * time.Second):
			return tool.ErrorResult("the progress event never reached the client"), nil
		}
		return tool.TextResult("done"), nil
	})
	f := start(t, newServer(t, waits), nil)
	resp := f.post(context.Background(), modernHeaders("tools/call", "waits"),
		modernBody(1, "tools/call", map[string]any{"name": "waits"}, map[string]any{"progressToken": "p"}))
	defer resp.Body.Close()
	sse := newSSEReader(t, resp.Body)
	if ev, ok := sse.next(); !ok || !strings.Contains(ev.data, "notifications/progress") {
		t.Fatalf("first event: %+v", ev)
	}
	close(read)
	if ev, ok := sse.next(); !ok || !strings.Contains(ev.data, `"done"`) {
		t.Fatalf("response: %+v", ev)
	}
}
