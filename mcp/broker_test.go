package mcp_test

import (
	"bytes"
	"context"
	"errors"
	"fmt"
	"io"
	"log/slog"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/fanout"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// fanoutInstance returns one instance of a deployment whose instances share b:
// a tool, a resource and a prompt, so that every capability is declared.
// It is closed at the end of the test.
func fanoutInstance(t *testing.T, b fanout.Broker, log *slog.Logger) *mcp.Server {
	t.Helper()
	srv := newServer(t, &mcp.Options{Broker: b, Logger: log},
		rawTool("t", func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }))
	srv.MustAddResource(mcp.Resource{URI: "test://doc", Name: "doc", Read: mcp.StaticRead("v1")})
	srv.MustAddPrompt(mcp.Prompt{Name: "p", Get: func(context.Context, map[string]string) (*mcp.PromptResult, error) {
		return &mcp.PromptResult{Messages: []mcp.PromptMessage{mcp.UserMessage("hi")}}, nil
	}})
	t.Cleanup(func() { srv.Close() })
	return srv
}

// fanoutNoLeaks checks, once the test's servers and connections are closed,
// that none of their goroutines is left. Call it first.
func fanoutNoLeaks(t *testing.T) {
	before := leakcheck.Snapshot()
	t.Cleanup(func() { leakcheck.Check(t, before) })
}

// fanoutConnect serves srv over a pipe until the end of the test (start, for
// tests with several clients: the leak check is noLeaks').
func fanoutConnect(t *testing.T, srv *mcp.Server) *client {
	t.Helper()
	serverSide, clientSide := transport.Pipe(transport.Options{})
	c := &client{t: t, conn: clientSide, done: make(chan error, 1), srv: srv}
	go func() { c.done <- srv.Serve(context.Background(), serverSide) }()
	t.Cleanup(func() {
		c.conn.Close()
		// A listen stream's graceful result may meet the closed pipe: a
		// race of Serve's shutdown that start's tests see too, not one of
		// fan-out's.
		if err := <-c.done; err != nil && !errors.Is(err, io.ErrClosedPipe) {
			t.Errorf("Serve: %v", err)
		}
	})
	return c
}

// listenAll opens a listen stream "L" for every list and test://doc, and
// reads its acknowledgement.
func (c *client) listenAll() {
	c.t.Helper()
	params, _ := json.Marshal(map[string]any{
		"_meta": modernMeta(nil),
		"notifications": map[string]any{
			"toolsListChanged": true, "resourcesListChanged": true, "promptsListChanged": true,
			"resourceSubscriptions": []string{"test://doc"},
		},
	})
	c.send(&jsonrpc.Request{ID: jsonrpc.StringID("L"), Method: "subscriptions/listen", Params: params})
	if n, ok := c.next(time.Second).(*jsonrpc.Notification); !ok || n.Method != "notifications/subscriptions/acknowledged" {
		c.t.Fatalf("listen: no acknowledgement: %+v", n)
	}
}

// followDoc initializes a 2025-11-25 session that follows
// test://doc.
func (c *client) followDoc() {
	c.t.Helper()
	c.initialize("2025-11-25")
	if r := c.request(jsonrpc.Int64ID(1), "resources/subscribe", map[string]any{"uri": "test://doc"}); r.Error != nil {
		c.t.Fatalf("subscribe: %v", r.Error)
	}
}

// expectNote reads one notification and checks its method and params.
func (c *client) expectNote(method, params string) {
	c.t.Helper()
	n, ok := c.next(time.Second).(*jsonrpc.Notification)
	if !ok || n.Method != method || string(n.Params) != params {
		c.t.Fatalf("got %+v, want %s %s", n, method, params)
	}
}

const (
	onL    = `{"_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}`
	docOnL = `{"uri":"test://doc","_meta":{"io.modelcontextprotocol/subscriptionId":"L"}}`
)

// A resource update raised on A reaches the listen stream and the legacy
// subscriber held on B, once each; A's own stream gets it once, not again
// on its way back from the broker.
func TestFanoutResourceUpdated(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	a, b := fanoutInstance(t, &mem, nil), fanoutInstance(t, &mem, nil)
	onA, onB, legacyB := fanoutConnect(t, a), fanoutConnect(t, b), fanoutConnect(t, b)
	onA.listenAll()
	onB.listenAll()
	legacyB.followDoc()

	a.ResourceUpdated("test://doc")
	onA.expectNote("notifications/resources/updated", docOnL)
	onB.expectNote("notifications/resources/updated", docOnL)
	legacyB.expectNote("notifications/resources/updated", `{"uri":"test://doc"}`)
	a.ResourceUpdated("test://other") // followed by no one
	onA.quiet(100 * time.Millisecond)
	onB.quiet(20 * time.Millisecond)
	legacyB.quiet(20 * time.Millisecond)
}

// A list change on A reaches B's listen stream and B's legacy session as
// it is, and leaves B's registry alone: the clients list again.
func TestFanoutListChanged(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	a, b := fanoutInstance(t, &mem, nil), fanoutInstance(t, &mem, nil)
	onA, onB, legacyB := fanoutConnect(t, a), fanoutConnect(t, b), fanoutConnect(t, b)
	onA.listenAll()
	onB.listenAll()
	legacyB.followDoc()

	a.MustAddTool(rawTool("t2", func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }))
	onA.expectNote("notifications/tools/list_changed", onL)
	onB.expectNote("notifications/tools/list_changed", onL)
	legacyB.expectNote("notifications/tools/list_changed", "")

	a.MustAddResource(mcp.Resource{URI: "test://new", Name: "new", Read: mcp.StaticRead("x")})
	onA.expectNote("notifications/resources/list_changed", onL)
	onB.expectNote("notifications/resources/list_changed", onL)
	legacyB.expectNote("notifications/resources/list_changed", "")

	a.RemovePrompt("p")
	onA.expectNote("notifications/prompts/list_changed", onL)
	onB.expectNote("notifications/prompts/list_changed", onL)
	legacyB.expectNote("notifications/prompts/list_changed", "")

	onA.quiet(100 * time.Millisecond)
	onB.quiet(20 * time.Millisecond)
	legacyB.quiet(20 * time.Millisecond)
	r := result(t, legacyB.request(jsonrpc.Int64ID(2), "tools/list", nil))
	if tools := r["tools"].([]any); len(tools) != 1 {
		t.Errorf("B's tools changed with A's: %v", tools)
	}
}

// Registrations made before an instance serves anything are start-up, not
// changes: they are not published. Resource updates always are.
func TestFanoutStartupNotPublished(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	a, b := fanoutInstance(t, &mem, nil), fanoutInstance(t, &mem, nil)
	onB := fanoutConnect(t, b)
	onB.listenAll()
	a.MustAddTool(rawTool("late", func(context.Context, json.RawMessage) (*tool.Result, error) { return nil, nil }))
	onB.quiet(100 * time.Millisecond)
	a.ResourceUpdated("test://doc")
	onB.expectNote("notifications/resources/updated", docOnL)
}

// Close unsubscribes: B hears no more of A, its own events still reach its
// own clients, and its relay's goroutines end.
func TestFanoutCloseUnsubscribes(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	a := fanoutInstance(t, &mem, nil)
	b := newServer(t, &mcp.Options{Broker: &mem})
	b.MustAddResource(mcp.Resource{URI: "test://doc", Name: "doc", Read: mcp.StaticRead("v1")})
	if n := mem.Subscribers(); n != 2 {
		t.Fatalf("%d subscribers, want 2", n)
	}
	onB := fanoutConnect(t, b)
	onB.listenAll()
	a.ResourceUpdated("test://doc")
	onB.expectNote("notifications/resources/updated", docOnL)

	b.Close()
	b.Close() // idempotent
	if n := mem.Subscribers(); n != 1 {
		t.Errorf("%d subscribers after Close, want 1", n)
	}
	a.ResourceUpdated("test://doc")
	onB.quiet(100 * time.Millisecond)
	b.ResourceUpdated("test://doc")
	onB.expectNote("notifications/resources/updated", docOnL)
}

// A connection that stops reading stalls delivery on its instance, never
// the broker: events pile up, coalesced and bounded, and the excess is
// dropped and logged.
func TestFanoutSlowDeliveryDoesNotBlockBroker(t *testing.T) {
	fanoutNoLeaks(t)
	var mem fanout.Memory
	logs := &fanoutLogs{}
	b := fanoutInstance(t, &mem, slog.New(slog.NewTextHandler(logs, nil)))
	serverSide, clientSide := transport.Pipe(transport.Options{MaxQueuedBytes: 256})
	done := make(chan error, 1)
	go func() { done <- b.Serve(context.Background(), serverSide) }()
	stalled := &client{t: t, conn: clientSide, srv: b}
	stalled.initialize("2025-11-25") // then reads nothing more
	t.Cleanup(func() { clientSide.Close(); <-done })

	start := time.Now()
	for i := range 5000 {
		mem.Publish(context.Background(), fanout.Event{Kind: fanout.ToolsListChanged, Origin: "other"})
		mem.Publish(context.Background(), fanout.Event{Kind: fanout.ResourceUpdated, URI: fmt.Sprintf("test://r/%d", i), Origin: "other"})
	}
	if d := time.Since(start); d > 5*time.Second {
		t.Errorf("publishing took %v: delivery blocked the broker", d)
	}
	if !strings.Contains(logs.String(), "resource updates from other instances dropped") {
		t.Errorf("no warning of dropped updates; logs:\n%s", logs)
	}
}

// fanoutLogs is a bytes.Buffer safe for concurrent use.
type fanoutLogs struct {
	mu sync.Mutex
	b  bytes.Buffer
}

func (s *fanoutLogs) Write(p []byte) (int, error) {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.Write(p)
}

func (s *fanoutLogs) String() string {
	s.mu.Lock()
	defer s.mu.Unlock()
	return s.b.String()
}

// failingBroker is a broker whose publishes fail, as one cut off from its
// network would.
type failingBroker struct {
	fanout.Memory
	mu    sync.Mutex
	tried []fanout.Event
}

func (f *failingBroker) Publish(_ context.Context, ev fanout.Event) error {
	f.mu.Lock()
	defer f.mu.Unlock()
	f.tried = append(f.tried, ev)
	return io.ErrClosedPipe
}

// A failed publish is the broker's to count; the server numbers its
// events from 1 up under one origin, raises them locally all the same, and
// Close waits for what was queued.
func TestFanoutPublishNumbersEvents(t *testing.T) {
	fanoutNoLeaks(t)
	f := &failingBroker{}
	a := fanoutInstance(t, f, nil)
	onA := fanoutConnect(t, a)
	onA.listenAll()
	for range 3 {
		a.ResourceUpdated("test://doc")
		onA.expectNote("notifications/resources/updated", docOnL)
	}
	a.Close()
	f.mu.Lock()
	defer f.mu.Unlock()
	if len(f.tried) != 3 {
		t.Fatalf("%d publishes, want 3", len(f.tried))
	}
	for i, ev := range f.tried {
		if ev.Seq != uint64(i+1) || ev.Origin == "" || ev.Origin != f.tried[0].Origin || ev.URI != "test://doc" {
			t.Errorf("publish %d: %+v", i, ev)
		}
	}
}
