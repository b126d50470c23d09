package mcp

import (
	"context"
	"io"
	"log/slog"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/tool"
)

// BenchmarkDecodeDispatchEncodeList is BenchmarkDecodeDispatchEncode for
// a tools/list of one tool: decoding the line, routing it, the handler
// (the page cache) and encoding the response line, on the read loop.
func BenchmarkDecodeDispatchEncodeList(b *testing.B) {
	type echoIn struct {
		Text string `json:"text" jsonschema:"the text to echo"`
	}
	srv := NewServer(Implementation{Name: "bench", Version: "1"},
		&Options{Logger: slog.New(slog.NewTextHandler(io.Discard, nil))})
	srv.MustAddTool(tool.New("echo", "Echoes text.", func(_ context.Context, in echoIn) (*tool.Result, error) {
		return tool.TextResult(in.Text), nil
	}))
	conn := &encodingConn{sent: make(chan struct{}, 1)}
	ss := newSession(srv, conn)
	ss.initialized, ss.version, ss.rev = true, protocol.Revision20251125.String(), protocol.Revision20251125
	line := []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/list","params":{}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		msg, err := jsonrpc.Decode(line)
		if err != nil {
			b.Fatal(err)
		}
		ss.handle(msg)
		<-conn.sent
	}
	b.StopTimer()
	close(ss.sched.jobs)
}
