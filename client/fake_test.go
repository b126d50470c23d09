package client_test

import (
	"bytes"
	"context"
	"fmt"
	"sync"
	"testing"

	json "github.com/goccy/go-json"

	"github.com/mcpwire/mcpwire/client"
	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
	"github.com/mcpwire/mcpwire/transport"
)

// fake is a scripted server: it answers each method with a fixed result,
// written as given, and counts the requests.
type fake struct {
	era     protocol.Era
	answers map[string]string // method → result JSON
	conn    *transport.Stream

	mu    sync.Mutex
	calls map[string]int
	sent  []*jsonrpc.Request
}

const (
	legacyInit = `{"protocolVersion":"2025-11-25","capabilities":{"tools":{"listChanged":true},"resources":{"subscribe":true,"listChanged":true}},"serverInfo":{"name":"fake","version":"1"}}`
	discovered = `{"resultType":"complete","supportedVersions":["2026-07-28"],"capabilities":{"tools":{},"resources":{}},"_meta":{"io.modelcontextprotocol/serverInfo":{"name":"fake","version":"1"}}}`
)

// serveFake connects a client to a fake server in era.
func serveFake(t testing.TB, era protocol.Era, answers map[string]string, opts *client.Options) (*client.Client, *fake) {
	t.Helper()
	serverEnd, clientEnd := transport.Pipe(transport.Options{})
	f := &fake{era: era, answers: answers, conn: serverEnd, calls: map[string]int{}}
	done := make(chan struct{})
	go func() {
		defer close(done)
		f.serve()
	}()
	if opts == nil {
		opts = &client.Options{}
	}
	opts.Era = era
	if opts.Logger == nil {
		opts.Logger = quiet
	}
	c, err := client.Connect(bounded(t), client.Conn{Conn: clientEnd}, opts)
	if err != nil {
		t.Fatal(err)
	}
	t.Cleanup(func() {
		c.Close()
		serverEnd.Close()
		<-done
	})
	return c, f
}

// serve answers until the connection ends.
func (f *fake) serve() {
	ctx := context.Background()
	for {
		msg, err := f.conn.Read(ctx)
		if err != nil {
			if _, ok := err.(*jsonrpc.DecodeError); ok {
				continue
			}
			return
		}
		if n, ok := msg.(*jsonrpc.Notification); ok {
			f.mu.Lock()
			f.calls[n.Method]++
			f.mu.Unlock()
			continue
		}
		req, ok := msg.(*jsonrpc.Request)
		if !ok {
			continue
		}
		f.mu.Lock()
		f.calls[req.Method]++
		f.sent = append(f.sent, req)
		f.mu.Unlock()
		result, ok := f.answers[req.Method]
		switch {
		case ok:
		case req.Method == protocol.MethodInitialize && f.era == protocol.Legacy:
			result = legacyInit
		case req.Method == protocol.MethodDiscover && f.era == protocol.Modern:
			result = discovered
		default:
			f.conn.Write(ctx, &jsonrpc.Response{ID: req.ID, Error: &jsonrpc.Error{Code: -32601, Message: "method not found"}})
			continue
		}
		var buf bytes.Buffer
		if err := json.Compact(&buf, []byte(result)); err != nil {
			panic(fmt.Sprintf("a fake answer that is not JSON: %v", err))
		}
		f.conn.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: buf.Bytes()})
	}
}

// count returns how many requests or notifications of method the server
// got.
func (f *fake) count(method string) int {
	f.mu.Lock()
	defer f.mu.Unlock()
	return f.calls[method]
}

// notify sends the client a notification.
func (f *fake) notify(method, params string) {
	f.conn.Write(context.Background(), &jsonrpc.Notification{Method: method, Params: json.RawMessage(params)})
}
