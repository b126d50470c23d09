package jsonrpc_test

import (
	"encoding/json"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
)

// toolsCallLine is a typical tools/call request for an echo tool.
var toolsCallLine = []byte(`{"jsonrpc":"2.0","id":42,"method":"tools/call","params":{"name":"echo","arguments":{"text":"hello, world"},"_meta":{"progressToken":"p-42"}}}`)

func BenchmarkDecodeToolsCall(b *testing.B) {
	b.ReportAllocs()
	b.SetBytes(int64(len(toolsCallLine)))
	for b.Loop() {
		msg, err := jsonrpc.Decode(toolsCallLine)
		if err != nil {
			b.Fatal(err)
		}
		if _, ok := msg.(*jsonrpc.Request); !ok {
			b.Fatal("not a request")
		}
	}
}

func BenchmarkEncodeResponse(b *testing.B) {
	resp := &jsonrpc.Response{
		ID:     jsonrpc.Int64ID(42),
		Result: json.RawMessage(`{"content":[{"type":"text","text":"hello, world"}],"isError":false}`),
	}
	buf := make([]byte, 0, 256)
	b.ReportAllocs()
	for b.Loop() {
		var err error
		buf, err = jsonrpc.AppendMessage(buf[:0], resp)
		if err != nil {
			b.Fatal(err)
		}
	}
	b.SetBytes(int64(len(buf)))
}

func BenchmarkMarshalResponse(b *testing.B) {
	resp := &jsonrpc.Response{
		ID:     jsonrpc.Int64ID(42),
		Result: json.RawMessage(`{"content":[{"type":"text","text":"hello, world"}],"isError":false}`),
	}
	b.ReportAllocs()
	for b.Loop() {
		if _, err := jsonrpc.Marshal(resp); err != nil {
			b.Fatal(err)
		}
	}
}
