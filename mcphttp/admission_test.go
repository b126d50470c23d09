package mcphttp_test

import (
	"context"
	"net/http"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/tool"
)

// wantOverloaded checks a POST refused by MaxRequests or MaxRequestBytes.
func wantOverloaded(t *testing.T, r reply, what string) {
	t.Helper()
	if r.status != http.StatusServiceUnavailable || r.errorCode() != -32603 || !strings.Contains(r.errorMessage(), "overloaded") {
		t.Errorf("%s: %d %d %q, want 503 with the overload error", what, r.status, r.errorCode(), r.errorMessage())
	}
	if r.header.Get("Retry-After") == "" {
		t.Errorf("%s: no Retry-After", what)
	}
}

// holding is a tool that waits until release is closed.
func holding(name string, started chan<- struct{}, release <-chan struct{}) tool.Tool {
	return rawTool(name, func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		started <- struct{}{}
		select {
		case <-release:
			return tool.TextResult("released"), nil
		case <-ctx.Done():
			return nil, ctx.Err()
		}
	})
}

var cheapList = modernBody(9, "tools/list", nil, nil)

// postAsync posts in the background: the response to a call that holds
// comes only when it is released.
func (f *fixture) postAsync(hd http.Header, body string) <-chan reply {
	ch := make(chan reply, 1)
	go func() { ch <- f.postRead(hd, body) }()
	return ch
}

// MaxRequests bounds the POSTs in flight across both eras and every legacy
// session: with one modern call and one legacy call running, a third POST
// of either era is refused, and served once one of them ended.
func TestMaxRequestsAcrossEras(t *testing.T) {
	started, release := make(chan struct{}, 2), make(chan struct{})
	f := start(t, newServer(t, holding("a", started, release), holding("b", started, release)), &mcphttp.Options{MaxRequests: 2})
	sid := f.initialize(`{}`)
	modern := f.postAsync(modernHeaders("tools/call", "a"), modernBody(1, "tools/call", map[string]any{"name": "a"}, nil))
	legacy := f.postAsync(legacyHeaders(sid), `{"jsonrpc":"2.0","id":2,"method":"tools/call","params":{"name":"b"}}`)
	<-started
	<-started
	wantOverloaded(t, f.postRead(modernHeaders("tools/list", ""), cheapList), "a modern POST")
	wantOverloaded(t, f.postRead(legacyHeaders(sid), `{"jsonrpc":"2.0","id":3,"method":"tools/list"}`), "a legacy POST")
	close(release)
	for _, ch := range []<-chan reply{modern, legacy} {
		if r := <-ch; r.status != http.StatusOK {
			t.Errorf("a held call: %d %s", r.status, r.body)
		}
	}
	if r := f.postRead(modernHeaders("tools/list", ""), cheapList); r.status != http.StatusOK {
		t.Errorf("after the calls ended: %d %q", r.status, r.errorMessage())
	}
}

// MaxRequestBytes bounds the body bytes in flight: beside a call holding
// 600 bytes, a 600-byte POST is refused and a small one served; alone, a
// body larger than the bound is served.
func TestMaxRequestBytes(t *testing.T) {
	started, release := make(chan struct{}, 1), make(chan struct{})
	f := start(t, newServer(t, holding("a", started, release)), &mcphttp.Options{MaxRequestBytes: 1000})
	padded := func(id int, method string, params map[string]any, size int) string {
		if params == nil {
			params = map[string]any{}
		}
		body := modernBody(id, method, params, nil)
		params["pad"] = strings.Repeat("x", size-len(body)-len(`,"pad":""`))
		body = modernBody(id, method, params, nil)
		if len(body) != size {
			t.Fatalf("padded body of %d bytes, want %d", len(body), size)
		}
		return body
	}
	held := f.postAsync(modernHeaders("tools/call", "a"), padded(1, "tools/call", map[string]any{"name": "a"}, 600))
	<-started
	wantOverloaded(t, f.postRead(modernHeaders("tools/list", ""), padded(2, "tools/list", nil, 600)), "600 bytes beside 600")
	if r := f.postRead(modernHeaders("tools/list", ""), cheapList); r.status != http.StatusOK {
		t.Errorf("a small POST beside the call: %d %q", r.status, r.errorMessage())
	}
	close(release)
	<-held
	if r := f.postRead(modernHeaders("tools/list", ""), padded(3, "tools/list", nil, 1500)); r.status != http.StatusOK {
		t.Errorf("1500 bytes alone: %d %q", r.status, r.errorMessage())
	}
}

// A legacy call that goes on after its client lost the stream keeps its
// place until it ends.
func TestMaxRequestsHeldByDetachedCall(t *testing.T) {
	g := newGate()
	f := start(t, newServer(t, g.tool(false)), &mcphttp.Options{MaxRequests: 1})
	sid := f.initialize(`{}`)
	ctx, drop := context.WithCancel(context.Background())
	resp := f.post(ctx, legacyHeaders(sid), gateCall)
	newSSEReader(t, resp.Body).nextEvent()
	<-g.started
	drop()
	resp.Body.Close()
	time.Sleep(50 * time.Millisecond) // let the server see the client leave
	wantOverloaded(t, f.postRead(modernHeaders("tools/list", ""), cheapList), "beside the detached call")
	close(g.release)
	deadline := time.Now().Add(2 * time.Second)
	for {
		r := f.postRead(modernHeaders("tools/list", ""), cheapList)
		if r.status == http.StatusOK {
			break
		}
		if time.Now().After(deadline) {
			t.Fatalf("after the detached call ended: %d %q", r.status, r.errorMessage())
		}
		time.Sleep(10 * time.Millisecond)
	}
}
