package mcp

import (
	"context"
	"io"
	"log/slog"
	"runtime"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// After a burst of concurrent calls the workers it started end once they
// have waited workerIdle, so the goroutine count returns to what it was;
// a call after that still finds a worker.
func TestWorkersEndAfterABurst(t *testing.T) {
	defer func(d time.Duration) { workerIdle = d }(workerIdle)
	workerIdle = 100 * time.Millisecond
	srv := NewServer(Implementation{Name: "test", Version: "1"}, &Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv.MustAddTool(tool.New("nap", "Sleeps 30 ms.", func(context.Context, struct{}) (*tool.Result, error) {
		time.Sleep(30 * time.Millisecond)
		return tool.TextResult("rested"), nil
	}))
	c := serveOnPipe(t, srv)
	call := func(id int) { c.call(id, "nap") }
	answers := func(n int) {
		for range n {
			c.answer()
		}
	}
	call(0) // the session's goroutines, before any burst
	answers(1)
	time.Sleep(3 * workerIdle)
	base := runtime.NumGoroutine()
	const burst = 16
	for i := range burst {
		call(i + 1)
	}
	answers(burst)
	if n := runtime.NumGoroutine(); n < base+4 {
		t.Fatalf("only %d goroutines during the burst (base %d): the test did not start workers", n, base)
	}
	deadline := time.Now().Add(workerIdle + 2*time.Second)
	for runtime.NumGoroutine() > base {
		if time.Now().After(deadline) {
			buf := make([]byte, 1<<16)
			t.Fatalf("%d goroutines %v after the burst, want %d:\n%s", runtime.NumGoroutine(), workerIdle+2*time.Second, base, buf[:runtime.Stack(buf, true)])
		}
		time.Sleep(10 * time.Millisecond)
	}
	call(100) // a worker is started again when needed
	answers(1)
}

// pipeClient is the client end of a server served on an in-memory pipe,
// for tests of the session's own scheduling.
type pipeClient struct {
	t    *testing.T
	conn *transport.Stream
}

// serveOnPipe serves srv on an in-memory pipe until the test ends.
func serveOnPipe(t *testing.T, srv *Server) *pipeClient {
	serverSide, client := transport.Pipe(transport.Options{})
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), serverSide) }()
	t.Cleanup(func() {
		client.Close()
		<-done
	})
	return &pipeClient{t: t, conn: client}
}

// call sends a 2026-07-28 tools/call of the named tool, with no arguments.
func (c *pipeClient) call(id int, name string) {
	params := `{"name":"` + name + `","_meta":{"io.modelcontextprotocol/protocolVersion":"2026-07-28","io.modelcontextprotocol/clientCapabilities":{}}}`
	if err := c.conn.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(id)), Method: "tools/call", Params: json.RawMessage(params)}); err != nil {
		c.t.Fatal(err)
	}
}

// answer reads one answer and fails the test unless it is a result.
func (c *pipeClient) answer() {
	msg, err := c.conn.Read(context.Background())
	if r, ok := msg.(*jsonrpc.Response); err != nil || !ok || r.Error != nil {
		c.t.Fatalf("answer: %v %+v", err, msg)
	}
}
