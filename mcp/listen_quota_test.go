package mcp_test

import (
	"context"
	"fmt"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/auth"
	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/protocol"
)

// listenOn opens a subscriptions/listen stream on ep as the caller ctx
// names, and returns its first message: the acknowledgement, or the
// response that refused it. Cancelling ctx ends the stream.
func listenOn(t *testing.T, ep *mcp.Endpoint, ctx context.Context, id int64) jsonrpc.Message {
	t.Helper()
	params, _ := json.Marshal(map[string]any{"_meta": modernMeta(nil), "notifications": map[string]any{"toolsListChanged": true}})
	got := make(chan jsonrpc.Message, 4)
	ep.Handle(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(id), Method: "subscriptions/listen", Params: params},
		func(m jsonrpc.Message) { got <- m })
	select {
	case m := <-got:
		return m
	case <-time.After(5 * time.Second):
		t.Errorf("listen %d: no acknowledgement and no refusal", id)
		return nil
	}
}

// acknowledged reports whether m acknowledges a listen stream.
func acknowledged(m jsonrpc.Message) bool {
	n, ok := m.(*jsonrpc.Notification)
	return ok && n.Method == protocol.NotificationSubscriptionsAcknowledged
}

// caller is one caller of a shared endpoint: the context its requests
// carry, as the HTTP helper builds it, and a cancel for each stream.
type caller struct {
	ctx     context.Context
	mu      sync.Mutex
	cancels []context.CancelFunc
}

func fromAddr(addr string) *caller {
	return &caller{ctx: auth.WithRemoteAddr(context.Background(), addr)}
}

// stream is a context for one more stream of c.
func (c *caller) stream() context.Context {
	ctx, cancel := context.WithCancel(c.ctx)
	c.mu.Lock()
	c.cancels = append(c.cancels, cancel)
	c.mu.Unlock()
	return ctx
}

// end ends c's first stream still open.
func (c *caller) end() {
	c.mu.Lock()
	defer c.mu.Unlock()
	c.cancels[0]()
	c.cancels = c.cancels[1:]
}

// endAll ends every stream of c.
func (c *caller) endAll() {
	c.mu.Lock()
	defer c.mu.Unlock()
	for _, cancel := range c.cancels {
		cancel()
	}
	c.cancels = nil
}

// With the default options, the stateless endpoint that every 2026-07-28
// client shares takes far more listen streams than MaxListenStreams
// allows one connection: 40 at once from one address are all
// acknowledged (the 17th used to be refused, for every client).
func TestSharedEndpointListenDefaults(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	ep := newServer(t, nil).NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	c := fromAddr("192.0.2.1")
	defer c.endAll()
	const n = 40
	got := make([]jsonrpc.Message, n)
	var wg sync.WaitGroup
	for i := range n {
		wg.Go(func() { got[i] = listenOn(t, ep, c.stream(), int64(i+1)) })
	}
	wg.Wait()
	for i, m := range got {
		if !acknowledged(m) {
			t.Errorf("listen %d of %d from one caller: %+v, want it acknowledged", i+1, n, m)
		}
	}
}

// On the shared endpoint a caller over MaxListenStreamsPerCaller is
// refused with CodeQuotaExceeded naming the limit, while other callers (at
// another address, or with a principal of their own behind the same one)
// still listen; ending one of its streams gives the caller its share back.
func TestSharedEndpointListenPerCaller(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	rec := newRecorder()
	ep := newServer(t, &mcp.Options{MaxListenStreamsPerCaller: 2, MaxListenStreamsTotal: 100, Observer: rec}).
		NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	a, b := fromAddr("192.0.2.1"), fromAddr("198.51.100.7")
	p := &caller{ctx: auth.WithPrincipal(a.ctx, &auth.Principal{Subject: "ada"})}
	defer a.endAll()
	defer b.endAll()
	defer p.endAll()
	for id := int64(1); id <= 2; id++ {
		if m := listenOn(t, ep, a.stream(), id); !acknowledged(m) {
			t.Fatalf("listen %d of caller a: %+v, want it acknowledged", id, m)
		}
	}
	r, _ := listenOn(t, ep, a.stream(), 3).(*jsonrpc.Response)
	if r == nil || r.Error == nil || r.Error.Code != mcp.CodeQuotaExceeded ||
		!strings.Contains(string(r.Error.Data), `"limit":"MaxListenStreamsPerCaller"`) || !strings.Contains(string(r.Error.Data), `"max":2`) {
		t.Fatalf("a third listen of caller a: %+v, want CodeQuotaExceeded naming MaxListenStreamsPerCaller", r)
	}
	// The response goes out before the observer hears of its end.
	if o := rec.next(t); o.end.Outcome != mcp.OutcomeError || o.end.Code != mcp.CodeQuotaExceeded || o.end.Reason != "quota" {
		t.Errorf("the refused listen ended %+v, want an error with code %d and reason quota", o.end, mcp.CodeQuotaExceeded)
	}
	if m := listenOn(t, ep, b.stream(), 4); !acknowledged(m) {
		t.Errorf("caller b, at another address: %+v, want it acknowledged", m)
	}
	if m := listenOn(t, ep, p.stream(), 5); !acknowledged(m) {
		t.Errorf("principal ada, at caller a's address: %+v, want it acknowledged", m)
	}
	a.end()
	deadline := time.Now().Add(5 * time.Second)
	for id := int64(6); ; id++ {
		if m := listenOn(t, ep, a.stream(), id); acknowledged(m) {
			break
		} else if time.Now().After(deadline) {
			t.Fatalf("caller a, after ending one of its streams: %+v, want it acknowledged", m)
		}
		rec.next(t)                       // the refusal's, so that the recorder never fills
		time.Sleep(10 * time.Millisecond) // the ended stream is let go as its call ends
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	if len(rec.overloads) != 0 {
		t.Errorf("overloads %+v: a caller over its own share is no overload", rec.overloads)
	}
}

// On the shared endpoint MaxListenStreamsTotal bounds every caller's
// streams together: one more is refused as overloaded, naming the limit,
// and the observer is told which limit it was.
func TestSharedEndpointListenTotal(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	rec := newRecorder()
	ep := newServer(t, &mcp.Options{MaxListenStreamsPerCaller: 10, MaxListenStreamsTotal: 3, Observer: rec}).
		NewEndpoint(mcp.EndpointOptions{Stateless: true})
	defer ep.Close()
	var callers []*caller
	defer func() {
		for _, c := range callers {
			c.endAll()
		}
	}()
	for i := range 3 {
		c := fromAddr(fmt.Sprintf("192.0.2.%d", i+1))
		callers = append(callers, c)
		if m := listenOn(t, ep, c.stream(), int64(i+1)); !acknowledged(m) {
			t.Fatalf("caller %d: %+v, want it acknowledged", i+1, m)
		}
	}
	r, _ := listenOn(t, ep, fromAddr("203.0.113.9").ctx, 4).(*jsonrpc.Response)
	if r == nil || r.Error == nil || r.Error.Code != jsonrpc.CodeInternalError ||
		!strings.Contains(string(r.Error.Data), `"overloaded"`) || !strings.Contains(r.Error.Message, "MaxListenStreamsTotal") {
		t.Fatalf("a fourth caller's listen: %+v, want -32603 overloaded naming MaxListenStreamsTotal", r)
	}
	if o := rec.next(t); o.end.Outcome != mcp.OutcomeOverloaded { // the response goes out before the observer hears
		t.Errorf("the refused listen ended %v, want overloaded", o.end.Outcome)
	}
	rec.mu.Lock()
	defer rec.mu.Unlock()
	want := mcp.Overload{Limit: "MaxListenStreamsTotal", Method: "subscriptions/listen", Transport: mcp.TransportHTTP}
	if len(rec.overloads) != 1 || rec.overloads[0] != want {
		t.Errorf("overloads %+v, want one of %+v", rec.overloads, want)
	}
}
