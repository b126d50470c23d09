package gateway_test

import (
	"context"
	"errors"
	"net/http"
	"net/http/httptest"
	"os"
	"path/filepath"
	"slices"
	"strings"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/gateway"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcphttp"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// watched is a client of the gateway that hears its tools list_changed.
func watched(t *testing.T, g *gateway.Gateway) (*client.Client, <-chan struct{}) {
	t.Helper()
	changed := make(chan struct{}, 1)
	a, b := transport.Pipe(transport.Options{})
	go g.Server().Serve(t.Context(), a)
	c, err := client.Connect(bounded(t), client.Conn{Conn: b}, &client.Options{Era: protocol.Legacy, Logger: quiet,
		OnNotification: func(n *jsonrpc.Notification) {
			if n.Method == protocol.NotificationToolListChanged {
				select {
				case changed <- struct{}{}:
				default:
				}
			}
		}})
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() { c.Close() })
	return c, changed
}

// until lists the gateway's tools at each change until ok holds.
func until(t *testing.T, c *client.Client, changed <-chan struct{}, what string, ok func([]string) bool) {
	t.Helper()
	deadline := time.After(30 * time.Second)
	for {
		if ok(names(t, c.Tools(bounded(t)), func(t *protocol.Tool) string { return t.Name })) {
			return
		}
		select {
		case <-changed:
		case <-deadline:
			t.Fatalf("never: %s", what)
		}
	}
}

func reasonOf(err error) string {
	var je *jsonrpc.Error
	if !errors.As(err, &je) {
		return ""
	}
	var d struct {
		Reason string `json:"reason"`
	}
	json.Unmarshal(je.Data, &d)
	return d.Reason
}

// A stdio upstream that dies mid-call gives that call a clear error and
// the other upstream carries on; while it cannot start, its tools are out
// of the lists and calls to them say it is down; once it starts again,
// they are back.
func TestGatewayRestartsAStdioUpstream(t *testing.T) {
	exe, err := os.Executable()
	if err != nil {
		t.Fatal(err)
	}
	block := filepath.Join(t.TempDir(), "block")
	g, err := gateway.New(bounded(t), &gateway.Config{Upstreams: []gateway.Upstream{
		{Name: "proc", Command: []string{exe, "-test.run=^$"}, Env: map[string]string{"GATEWAY_TEST_UPSTREAM": "one", "GATEWAY_TEST_BLOCK": block}},
		{Name: "mem", Server: upstreamServer("mem", "mem://r", nil)},
	}}, &gateway.Options{Logger: quiet, HealthInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	c, changed := watched(t, g)
	ctx := bounded(t)

	os.WriteFile(block, nil, 0o644) // the next start fails
	if _, err := c.CallTool(ctx, "proc_crash", nil); err == nil || !strings.Contains(err.Error(), `upstream "proc"`) {
		t.Fatalf("the call whose upstream died: %v, want an error naming the upstream", err)
	}
	if r, err := c.CallTool(ctx, "mem_read", text{"x"}); err != nil || r.Content[0].Text.Text != "mem read x" {
		t.Fatalf("the other upstream: %+v, %v", r, err)
	}
	until(t, c, changed, "proc's tools withdrawn", func(tools []string) bool { return !slices.Contains(tools, "proc_whoami") })
	if _, err := c.CallTool(ctx, "proc_whoami", nil); reasonOf(err) != "upstream_down" || !strings.Contains(err.Error(), `upstream "proc" is down`) {
		t.Fatalf("a call while down: %v", err)
	}

	os.Remove(block) // it can start again
	until(t, c, changed, "proc's tools back", func(tools []string) bool { return slices.Contains(tools, "proc_whoami") })
	if r, err := c.CallTool(ctx, "proc_whoami", nil); err != nil || r.Content[0].Text.Text != "stdio one" {
		t.Fatalf("after the restart: %+v, %v", r, err)
	}
}

// freezable serves an MCP endpoint that can stop answering (every request
// held until its client gives up).
type freezable struct {
	h      http.Handler
	frozen atomic.Bool
	stop   chan struct{} // closed at the end: held requests let go
}

func (f *freezable) ServeHTTP(w http.ResponseWriter, r *http.Request) {
	if f.frozen.Load() {
		select {
		case <-r.Context().Done():
		case <-f.stop:
		}
		return
	}
	f.h.ServeHTTP(w, r)
}

// An HTTP upstream that stops answering is down (tools out, calls told)
// and back when it answers again.
func TestGatewayRetriesAnHTTPUpstream(t *testing.T) {
	f := &freezable{h: mcphttp.NewHandler(upstreamServer("web", "web://r", nil), &mcphttp.Options{Logger: quiet}), stop: make(chan struct{})}
	web := httptest.NewServer(f)
	defer web.Close()
	defer close(f.stop)
	g, err := gateway.New(bounded(t), &gateway.Config{Upstreams: []gateway.Upstream{{Name: "web", URL: web.URL}}},
		&gateway.Options{Logger: quiet, HealthInterval: 200 * time.Millisecond})
	if err != nil {
		t.Fatal(err)
	}
	defer g.Close()
	c, changed := watched(t, g)
	if _, err := c.CallTool(bounded(t), "web_read", text{"x"}); err != nil {
		t.Fatal(err)
	}
	f.frozen.Store(true)
	until(t, c, changed, "web's tools withdrawn", func(tools []string) bool { return !slices.Contains(tools, "web_read") })
	if _, err := c.CallTool(bounded(t), "web_read", text{"x"}); reasonOf(err) != "upstream_down" {
		t.Fatalf("a call while down: %v", err)
	}
	f.frozen.Store(false)
	until(t, c, changed, "web's tools back", func(tools []string) bool { return slices.Contains(tools, "web_read") })
	ctx, cancel := context.WithTimeout(t.Context(), 20*time.Second)
	defer cancel()
	if r, err := c.CallTool(ctx, "web_read", text{"y"}); err != nil || r.Content[0].Text.Text != "web read y" {
		t.Fatalf("after it answers again: %+v, %v", r, err)
	}
}
