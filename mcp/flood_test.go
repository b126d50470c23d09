package mcp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"runtime"
	"strings"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/mcp"
	"github.com/mcpwire/mcpwire/tool"
	"github.com/mcpwire/mcpwire/transport"
)

// 5,000 slow calls sent at once and followed by the end of input are each
// answered exactly once: with the result, the overload error, or the
// shutdown error; none is lost and none is answered twice.
func TestEOFFloodAnsweredOnce(t *testing.T) {
	const n = 5000
	slow := rawTool("slow", func(ctx context.Context, _ json.RawMessage) (*tool.Result, error) {
		select {
		case <-time.After(20 * time.Millisecond):
		case <-ctx.Done():
		}
		return tool.TextResult("done"), nil
	})
	srv := newServer(t, &mcp.Options{ShutdownGrace: 200 * time.Millisecond}, slow)
	inR, inW := io.Pipe()
	outR, outW := io.Pipe()
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), transport.NewStream(inR, outW, transport.Options{})) }()
	go func() {
		w := bufio.NewWriter(inW)
		fmt.Fprintln(w, `{"jsonrpc":"2.0","id":0,"method":"initialize","params":{"protocolVersion":"2025-11-25","capabilities":{}}}`)
		for i := 1; i <= n; i++ {
			fmt.Fprintf(w, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"slow"}}`+"\n", i)
		}
		w.Flush()
		inW.Close()
	}()
	seen := map[string]int{}
	r := transport.NewStream(outR, io.Discard, transport.Options{})
	for {
		m, err := r.Read(context.Background())
		if err != nil {
			break
		}
		if resp, ok := m.(*jsonrpc.Response); ok {
			seen[resp.ID.String()]++
		}
	}
	if err := <-done; err != nil {
		t.Fatalf("Serve: %v", err)
	}
	for i := 0; i <= n; i++ {
		if c := seen[fmt.Sprint(i)]; c != 1 {
			t.Fatalf("id %d answered %d times, want once", i, c)
		}
	}
}

// BenchmarkSoakHeap runs b.N sequential calls on one connection and
// reports the live heap after them (heap-MiB): it stays flat whatever b.N
// is, so a leak per call shows as growth between -benchtime=10000x and
// -benchtime=1000000x.
func BenchmarkSoakHeap(b *testing.B) {
	srv := newServer(b, nil, echoTool())
	c := startBench(b, srv)
	params := json.RawMessage(`{"name":"echo","arguments":{"text":"` + strings.Repeat("s", 256) + `"}}`)
	b.ReportAllocs()
	for i := 0; b.Loop(); i++ {
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i + 1)), Method: "tools/call", Params: params}); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
	runtime.GC()
	var ms runtime.MemStats
	runtime.ReadMemStats(&ms)
	b.ReportMetric(float64(ms.HeapInuse)/(1<<20), "heap-MiB")
}
