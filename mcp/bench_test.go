package mcp_test

import (
	"context"
	"strconv"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/tool"
)

// echoTool is the benchmark's tool: one text block holding the input.
func echoTool() tool.Tool {
	return tool.Tool{
		Name:        "echo",
		InputSchema: json.RawMessage(`{"type":"object","properties":{"text":{"type":"string"}},"required":["text"]}`),
		Handler: func(_ context.Context, args json.RawMessage) (*tool.Result, error) {
			var in struct {
				Text string `json:"text"`
			}
			if err := json.Unmarshal(args, &in); err != nil {
				return nil, err
			}
			return tool.TextResult(in.Text), nil
		},
	}
}

// BenchmarkToolsCallEcho measures one sequential tools/call echo round trip
// through the whole stack: framing, decoding, dispatch, the handler,
// encoding and the writer, over an in-memory pipe.
func BenchmarkToolsCallEcho(b *testing.B) {
	t := &testing.T{}
	srv := newServer(t, nil, echoTool())
	c := startBench(b, srv)
	params := json.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		id := jsonrpc.Int64ID(int64(i + 1))
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: id, Method: "tools/call", Params: params}); err != nil {
			b.Fatal(err)
		}
		m, err := c.Read(context.Background())
		if err != nil {
			b.Fatal(err)
		}
		if r, ok := m.(*jsonrpc.Response); !ok || r.Error != nil || r.ID.Key() != strconv.Itoa(i+1) {
			b.Fatalf("unexpected reply %#v", m)
		}
	}
}

// BenchmarkToolsCallEchoPipelined keeps 64 calls outstanding.
func BenchmarkToolsCallEchoPipelined(b *testing.B) {
	t := &testing.T{}
	srv := newServer(t, nil, echoTool())
	c := startBench(b, srv)
	params := json.RawMessage(`{"name":"echo","arguments":{"text":"hello"}}`)
	b.ReportAllocs()
	b.ResetTimer()
	done := make(chan error, 1)
	go func() {
		for i := 0; i < b.N; i++ {
			if _, err := c.Read(context.Background()); err != nil {
				done <- err
				return
			}
		}
		done <- nil
	}()
	sem := make(chan struct{}, 64)
	for i := 0; i < b.N; i++ {
		sem <- struct{}{}
		go func() { <-sem }()
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i + 1)), Method: "tools/call", Params: params}); err != nil {
			b.Fatal(err)
		}
	}
	if err := <-done; err != nil {
		b.Fatal(err)
	}
}

// BenchmarkToolsCallEcho8MiB echoes an 8 MiB string; B/op shows how many
// times the message is copied on the way through.
func BenchmarkToolsCallEcho8MiB(b *testing.B) {
	t := &testing.T{}
	srv := newServer(t, nil, echoTool())
	c := startBench(b, srv)
	text := make([]byte, 8<<20)
	for i := range text {
		text[i] = 'a' + byte(i%26)
	}
	params := json.RawMessage(`{"name":"echo","arguments":{"text":"` + string(text) + `"}}`)
	b.SetBytes(int64(len(params)))
	b.ReportAllocs()
	b.ResetTimer()
	for i := 0; i < b.N; i++ {
		if err := c.Write(context.Background(), &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i + 1)), Method: "tools/call", Params: params}); err != nil {
			b.Fatal(err)
		}
		if _, err := c.Read(context.Background()); err != nil {
			b.Fatal(err)
		}
	}
}
