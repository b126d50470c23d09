package transport_test

import (
	"bytes"
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"strings"
	"testing"
	"time"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

func TestPipeExchangesMessages(t *testing.T) {
	a, b := transport.Pipe(transport.Options{})
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()

	req := &jsonrpc.Request{ID: jsonrpc.Int64ID(1), Method: "tools/call", Params: json.RawMessage(`{"name":"echo","arguments":{"text":"` + strings.Repeat("z", 200<<10) + `"}}`)}
	if err := a.Write(ctx, req); err != nil {
		t.Fatal(err)
	}
	got, err := b.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMessage(t, req, got) {
		t.Errorf("b read %.200s, want the request sent", got)
	}

	resp := &jsonrpc.Response{ID: jsonrpc.Int64ID(1), Result: json.RawMessage(`{"content":[]}`)}
	if err := b.Write(ctx, resp); err != nil {
		t.Fatal(err)
	}
	got, err = a.Read(ctx)
	if err != nil {
		t.Fatal(err)
	}
	if !sameMessage(t, resp, got) {
		t.Errorf("a read %#v, want the response sent", got)
	}

	// Closing one end ends the other's input.
	if err := a.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
	if _, err := b.Read(ctx); !errors.Is(err, io.EOF) {
		t.Errorf("Read after the peer closed = %v, want io.EOF", err)
	}
	if err := b.Close(); err != nil {
		t.Fatalf("Close: %v", err)
	}
}

func TestPipeManyMessagesBothWays(t *testing.T) {
	a, b := transport.Pipe(transport.Options{})
	defer a.Close()
	defer b.Close()
	ctx, cancel := context.WithTimeout(context.Background(), 10*time.Second)
	defer cancel()
	const n = 500
	// b echoes every request back as a response.
	go func() {
		for {
			msg, err := b.Read(ctx)
			if err != nil {
				return
			}
			req := msg.(*jsonrpc.Request)
			b.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: req.Params})
		}
	}()
	go func() {
		for i := range n {
			a.Write(ctx, &jsonrpc.Request{ID: jsonrpc.Int64ID(int64(i)), Method: "echo", Params: json.RawMessage(`[1]`)})
		}
	}()
	for i := range n {
		msg, err := a.Read(ctx)
		if err != nil {
			t.Fatalf("response %d: %v", i, err)
		}
		if id := msg.(*jsonrpc.Response).ID; id != jsonrpc.Int64ID(int64(i)) {
			t.Fatalf("response %d has id %s", i, id)
		}
	}
}

// sameMessage reports whether two messages have the same type and encoding.
func sameMessage(t *testing.T, want, got jsonrpc.Message) bool {
	t.Helper()
	w, err := jsonrpc.Marshal(want)
	if err != nil {
		t.Fatal(err)
	}
	g, err := jsonrpc.Marshal(got)
	return err == nil && fmt.Sprintf("%T", want) == fmt.Sprintf("%T", got) && bytes.Equal(w, g)
}
