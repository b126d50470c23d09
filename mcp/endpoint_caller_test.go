package mcp_test

import (
	"context"
	"errors"
	"sync"
	"sync/atomic"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
)

// gate is a tool whose calls wait for release, counting how many run at
// once.
type gate struct {
	release   chan struct{}
	running   atomic.Int32
	most      atomic.Int32
	started   chan struct{} // one value per call started
	cancelled chan error    // the cause of each call cancelled
}

func newGate() *gate {
	return &gate{release: make(chan struct{}), started: make(chan struct{}, 16), cancelled: make(chan error, 16)}
}

func (g *gate) tool() tool.Tool {
	return rawTool("gate", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		n := g.running.Add(1)
		defer g.running.Add(-1)
		for {
			m := g.most.Load()
			if n <= m || g.most.CompareAndSwap(m, n) {
				break
			}
		}
		g.started <- struct{}{}
		select {
		case <-g.release:
			return tool.TextResult("open"), nil
		case <-ctx.Done():
			g.cancelled <- context.Cause(ctx)
			return nil, ctx.Err()
		}
	})
}

func (g *gate) waitStarted(t *testing.T, n int) {
	t.Helper()
	for range n {
		select {
		case <-g.started:
		case <-time.After(2 * time.Second):
			t.Fatal("a call did not start")
		}
	}
}

// With RunOnCaller, Handle runs a call on its caller's goroutine and
// returns with the response sent; once MaxConcurrentCalls calls run, the
// next one waits on its caller's goroutine for a slot, without starting;
// no more than MaxConcurrentCalls ever run.
func TestEndpointRunOnCaller(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	g := newGate()
	ep := newServer(t, &mcp.Options{MaxConcurrentCalls: 2}, g.tool(), progressTool()).
		NewEndpoint(mcp.EndpointOptions{Stateless: true, RunOnCaller: true})
	defer ep.Close()

	x := newExchange()
	ep.Handle(context.Background(), modernRequest(1, "steps", map[string]any{"progressToken": "p"}), x.send)
	if n := len(x.wait(t)); n != 4 {
		t.Errorf("%d messages, want 3 progress and the response", n)
	}

	var callers sync.WaitGroup
	var handled atomic.Int32
	held := []*exchange{newExchange(), newExchange()}
	for i, hx := range held {
		callers.Go(func() {
			ep.Handle(context.Background(), modernRequest(int64(10+i), "gate", nil), hx.send)
			handled.Add(1)
		})
	}
	g.waitStarted(t, 2)
	time.Sleep(20 * time.Millisecond)
	if n := handled.Load(); n != 0 {
		t.Fatalf("%d Handle calls returned while their calls ran; want them to run on the caller", n)
	}
	queued := newExchange()
	returned := make(chan struct{})
	go func() {
		ep.Handle(context.Background(), modernRequest(20, "gate", nil), queued.send)
		close(returned)
	}()
	time.Sleep(50 * time.Millisecond)
	select {
	case <-returned:
		t.Fatal("with every slot taken, Handle returned before its call ran")
	case <-g.started:
		t.Fatal("a third call started beside two with MaxConcurrentCalls 2")
	default:
	}
	if n := g.running.Load(); n != 2 {
		t.Errorf("%d calls running, want 2 (MaxConcurrentCalls)", n)
	}
	close(g.release)
	callers.Wait()
	<-returned
	for _, hx := range append(held, queued) {
		if r := hx.wait(t)[0].(*jsonrpc.Response); r.Error != nil {
			t.Errorf("gate: %+v", r.Error)
		}
	}
	if m := g.most.Load(); m != 2 {
		t.Errorf("at most %d calls ran at once, want 2", m)
	}
}

// Close does not wait for a call running on its caller's goroutine beyond
// the shutdown grace: the call is cancelled with ErrShuttingDown, answered
// with an error, and Handle returns.
func TestEndpointRunOnCallerClose(t *testing.T) {
	defer leakcheck.Check(t, leakcheck.Snapshot())
	g := newGate()
	ep := newServer(t, &mcp.Options{ShutdownGrace: 50 * time.Millisecond}, g.tool()).
		NewEndpoint(mcp.EndpointOptions{Stateless: true, RunOnCaller: true})
	x := newExchange()
	handled := make(chan struct{})
	go func() {
		ep.Handle(context.Background(), modernRequest(1, "gate", nil), x.send)
		close(handled)
	}()
	g.waitStarted(t, 1)
	closed := make(chan struct{})
	go func() { ep.Close(); close(closed) }()
	for _, ch := range []chan struct{}{closed, handled} {
		select {
		case <-ch:
		case <-time.After(3 * time.Second):
			t.Fatal("Close or Handle did not return")
		}
	}
	if err := <-g.cancelled; !errors.Is(err, mcp.ErrShuttingDown) {
		t.Errorf("cause: %v", err)
	}
	if r := x.wait(t)[0].(*jsonrpc.Response); r.Error == nil {
		t.Errorf("a call cut short by Close got %s", r.Result)
	}
}
