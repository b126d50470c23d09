package mcp_test

import (
	"bufio"
	"context"
	"fmt"
	"io"
	"strings"
	"sync"
	"testing"
	"time"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/internal/testsupport/leakcheck"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// plainConn is the Conn a user might write: newline-delimited JSON over an
// io.Reader and an io.Writer, with Read, Write and Close and nothing else
// (it is not a transport.FastStream).
type plainConn struct {
	in  *bufio.Reader
	rc  io.Closer
	mu  sync.Mutex // serializes writes
	out io.WriteCloser
}

func (c *plainConn) Read(ctx context.Context) (jsonrpc.Message, error) {
	line, err := c.in.ReadBytes('\n')
	if err != nil {
		if ctx.Err() != nil {
			return nil, ctx.Err()
		}
		return nil, err
	}
	return jsonrpc.Decode(line)
}

func (c *plainConn) Write(_ context.Context, m jsonrpc.Message) error {
	b, err := jsonrpc.AppendMessage(nil, m)
	if err != nil {
		return err
	}
	c.mu.Lock()
	defer c.mu.Unlock()
	_, err = c.out.Write(append(b, '\n'))
	return err
}

func (c *plainConn) Close() error {
	c.rc.Close()
	return c.out.Close()
}

// A Conn that does not implement transport.FastStream is served fully
// through Read and Write: initialize, pipelined calls that run on
// workers, an undecodable line, and a clean end once its input ends.
func TestServePlainConn(t *testing.T) {
	leakcheck.CheckAtEnd(t)
	srv := newServer(t, nil, echoTool())
	inR, inW := io.Pipe()   // client → server
	outR, outW := io.Pipe() // server → client
	conn := &plainConn{in: bufio.NewReader(inR), rc: inR, out: outW}
	if _, fast := any(conn).(transport.FastStream); fast {
		t.Fatal("plainConn is a FastStream; the test needs a plain Conn")
	}
	done := make(chan error, 1)
	go func() { done <- srv.Serve(context.Background(), conn) }()

	replies := bufio.NewReader(outR)
	next := func() map[string]any {
		t.Helper()
		type line struct {
			b   []byte
			err error
		}
		got := make(chan line, 1)
		go func() {
			b, err := replies.ReadBytes('\n')
			got <- line{b, err}
		}()
		select {
		case l := <-got:
			if l.err != nil {
				t.Fatalf("reading a reply: %v", l.err)
			}
			var m map[string]any
			if err := json.Unmarshal(l.b, &m); err != nil {
				t.Fatalf("reply %q: %v", l.b, err)
			}
			return m
		case <-time.After(5 * time.Second):
			t.Fatal("no reply within 5 s")
			return nil
		}
	}
	send := func(s string) {
		t.Helper()
		if _, err := io.WriteString(inW, s+"\n"); err != nil {
			t.Fatal(err)
		}
	}

	send(`{"jsonrpc":"2.0","id":"init","method":"initialize","params":{"protocolVersion":"2025-06-18","capabilities":{},"clientInfo":{"name":"t","version":"1"}}}`)
	if m := next(); m["id"] != "init" || m["result"] == nil {
		t.Fatalf("initialize: %v", m)
	}
	send(`{"jsonrpc":"2.0","method":"notifications/initialized"}`)

	const calls = 64
	var batch strings.Builder
	for i := range calls {
		fmt.Fprintf(&batch, `{"jsonrpc":"2.0","id":%d,"method":"tools/call","params":{"name":"echo","arguments":{"text":"call %d"}}}`+"\n", i, i)
	}
	go io.WriteString(inW, batch.String()) // the server answers while the client still writes
	seen := map[float64]bool{}
	for range calls {
		m := next()
		id, _ := m["id"].(float64)
		res, _ := m["result"].(map[string]any)
		content, _ := res["content"].([]any)
		if len(content) != 1 {
			t.Fatalf("call %v: %v", m["id"], m)
		}
		if text := content[0].(map[string]any)["text"]; text != fmt.Sprintf("call %d", int(id)) {
			t.Fatalf("call %v answered %q", m["id"], text)
		}
		seen[id] = true
	}
	if len(seen) != calls {
		t.Fatalf("%d distinct answers, want %d", len(seen), calls)
	}

	send(`{"jsonrpc":"2.0","id":7,"method":`)
	if m := next(); m["error"] == nil {
		t.Fatalf("an undecodable line answered %v", m)
	}
	send(`{"jsonrpc":"2.0","id":"p","method":"ping"}`)
	if m := next(); m["id"] != "p" || m["result"] == nil {
		t.Fatalf("ping: %v", m)
	}

	inW.Close() // the client's input ends: Serve returns nil and closes conn
	select {
	case err := <-done:
		if err != nil {
			t.Fatalf("Serve: %v", err)
		}
	case <-time.After(5 * time.Second):
		t.Fatal("Serve did not return after the input ended")
	}
	if _, err := replies.ReadBytes('\n'); err != io.EOF {
		t.Fatalf("after Serve returned, the output gave %v, want io.EOF", err)
	}
}
