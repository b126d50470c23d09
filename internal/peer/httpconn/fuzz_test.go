package httpconn

import (
	"bytes"
	"context"
	"io"
	"net/http"
	"strconv"
	"testing"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/protocol"
)

// FuzzAnswer feeds any status, content type and body to the reading of a
// request's answer: it never panics, it ends, it delivers what it reads,
// and it always answers the request (a response or a decode error with its
// id; a server/discover refused at the HTTP level always a response),
// never twice.
func FuzzAnswer(f *testing.F) {
	sse := "text/event-stream"
	f.Add(200, "application/json", []byte(`{"jsonrpc":"2.0","id":1,"result":{}}`), false)
	f.Add(200, "application/json; charset=utf-8", []byte(`{"jsonrpc":"2.0","id":2,"result":{}}`), true)
	f.Add(200, sse, []byte("id: 1\ndata: {\"jsonrpc\":\"2.0\",\"method\":\"x\"}\n\ndata: {\"jsonrpc\":\"2.0\",\"id\":1,\"result\":{}}\n\n"), false)
	f.Add(200, sse, []byte("data: {\"jsonrpc\":\"2.0\",\"id\":1,\"error\":{\"code\":1,\"message\":\"m\"}}\r\n\r\n"), true)
	f.Add(400, "application/json", []byte(`{"jsonrpc":"2.0","id":1,"error":{"code":-32022,"message":"m"}}`), true)
	f.Add(404, "text/html", []byte("<html>nope</html>"), false)
	f.Add(202, "", []byte(nil), false)
	f.Add(200, sse, []byte("event: ping\ndata: {}\n\ndata: [1,2]\n\ndata: {"), false)
	f.Add(500, "application/json", []byte(`{"jsonrpc":"2.0","id":null,"error":{"code":-32000,"message":"x"}}`), true)
	f.Fuzz(func(t *testing.T, status int, ct string, body []byte, discover bool) {
		if status < 100 || status > 999 {
			status = 200
		}
		c, err := New("http://127.0.0.1:1/mcp", Options{MaxMessageBytes: 4096})
		if err != nil {
			t.Fatal(err)
		}
		defer c.Close()
		method := protocol.MethodListTools
		if discover {
			method = protocol.MethodDiscover
		}
		id := jsonrpc.Int64ID(1)
		ctx, cancel := context.WithCancel(c.life)
		cl := &call{id: id, out: outgoing{method: method, modern: true}, ctx: ctx, cancel: cancel, sent: make(chan error, 1)}
		resp := &http.Response{StatusCode: status, Status: strconv.Itoa(status) + " Status", Header: http.Header{},
			Body: io.NopCloser(bytes.NewReader(body))}
		if ct != "" {
			resp.Header.Set("Content-Type", ct)
		}
		done := make(chan struct{})
		go func() {
			defer close(done)
			c.answer(cl, resp)
		}()
		refusal := discover && !ok(status)
		answers := 0
		for running := true; running; {
			select {
			case it := <-c.inbox:
				answers += answering(t, it, id, refusal)
			case <-done:
				running = false
			}
		}
		for len(c.inbox) > 0 {
			answers += answering(t, <-c.inbox, id, refusal)
		}
		if answers != 1 {
			t.Fatalf("%d answers to the request", answers)
		}
	})
}

// answering reports whether it answers the request id: 1 or 0. With
// refusal, the answer must be a response.
func answering(t *testing.T, it item, id jsonrpc.ID, refusal bool) int {
	switch {
	case it.msg == nil && it.err == nil:
		t.Fatal("an empty item")
	case it.err != nil:
		de, ok := it.err.(*jsonrpc.DecodeError)
		if !ok {
			t.Fatalf("a %T", it.err)
		}
		if de.ID == id {
			if refusal && bytes.Equal(de.Err.Data, failureData) {
				t.Fatal("server/discover failed instead of refused")
			}
			return 1
		}
	default:
		if r, ok := it.msg.(*jsonrpc.Response); ok && r.ID == id {
			return 1
		}
	}
	return 0
}
