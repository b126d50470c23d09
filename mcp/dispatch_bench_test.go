package mcp

import (
	"context"
	"io"
	"log/slog"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// encodingConn is a Conn that encodes each written message into a reused
// buffer and signals the benchmark; it reads nothing.
type encodingConn struct {
	buf  []byte
	sent chan struct{}
}

func (c *encodingConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	<-ctx.Done()
	return nil, ctx.Err()
}

func (c *encodingConn) Write(_ context.Context, m jsonrpc.Message) error {
	var err error
	c.buf, err = jsonrpc.AppendMessage(c.buf[:0], m)
	c.sent <- struct{}{}
	return err
}

func (c *encodingConn) Close() error { return nil }

// echoSession is a session of a server with one typed echo tool, past
// initialize (2025-11-25), writing into an encodingConn; call handles one
// tools/call echo line and waits for its response.
func echoSession(tb testing.TB) (ss *session, call func()) {
	type echoIn struct {
		Text string `json:"text"`
	}
	srv := NewServer(Implementation{Name: "bench", Version: "1"},
		&Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv.MustAddTool(tool.New("echo", "Echoes text.", func(_ context.Context, in echoIn) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}))
	conn := &encodingConn{sent: make(chan struct{}, 1)}
	ss = newSession(srv, conn)
	ss.initialized, ss.version, ss.rev = true, protocol.Revision20251125.String(), protocol.Revision20251125
	tb.Cleanup(func() {
		var resp map[string]any
		if err := json.Unmarshal(conn.buf, &resp); err != nil || resp["result"] == nil {
			tb.Errorf("unexpected response %s", conn.buf)
		}
		close(ss.sched.jobs)
	})
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`)
	return ss, func() {
		msg, err := jsonrpc.Decode(line)
		if err != nil {
			tb.Fatal(err)
		}
		ss.handle(msg)
		<-conn.sent
	}
}

// BenchmarkDecodeDispatchEncode measures the server's own work for one
// tools/call echo, without a transport: decoding the line, routing and
// dispatching it to a worker, validating the arguments, running the typed
// handler, checking and encoding the result, and encoding the response
// line. Its allocations are the budget BENCHMARKS.md defends
// (TestToolsCallAllocations holds it).
func BenchmarkDecodeDispatchEncode(b *testing.B) {
	_, call := echoSession(b)
	b.ReportAllocs()
	b.SetBytes(int64(len(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello"}}}`)))
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		call()
	}
	b.StopTimer()
}
