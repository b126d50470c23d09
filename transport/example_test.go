package transport_test

import (
	"context"
	"encoding/json"
	"errors"
	"fmt"
	"io"
	"os"
	"strings"

	"github.com/mcpwire/mcpwire/jsonrpc"
	"github.com/mcpwire/mcpwire/transport"
)

// A server loop over any reader and writer: requests are answered, and bad
// lines get their error response without ending the loop.
func ExampleNewStream() {
	input := strings.Join([]string{
		`{"jsonrpc":"2.0","id":1,"method":"ping"}`,
		``,
		`not json`,
		`{"jsonrpc":"2.0","id":2,"method":"ping"}` + "\r",
	}, "\n")
	s := transport.NewStream(strings.NewReader(input), os.Stdout, transport.Options{})
	ctx := context.Background()
	for {
		msg, err := s.Read(ctx)
		var de *jsonrpc.DecodeError
		switch {
		case errors.Is(err, io.EOF):
			s.Close()
			return
		case errors.As(err, &de):
			s.Write(ctx, de.Response())
		case err != nil:
			fmt.Println("read:", err)
			return
		default:
			if req, ok := msg.(*jsonrpc.Request); ok {
				s.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
			}
		}
	}
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{}}
	// {"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error: invalid JSON at byte 0"}}
	// {"jsonrpc":"2.0","id":2,"result":{}}
}

func ExamplePipe() {
	client, server := transport.Pipe(transport.Options{})
	defer client.Close()
	defer server.Close()
	ctx := context.Background()

	go func() {
		msg, _ := server.Read(ctx)
		req := msg.(*jsonrpc.Request)
		server.Write(ctx, &jsonrpc.Response{ID: req.ID, Result: req.Params})
	}()

	client.Write(ctx, &jsonrpc.Request{ID: jsonrpc.StringID("a"), Method: "echo", Params: json.RawMessage(`{"text":"hi"}`)})
	msg, _ := client.Read(ctx)
	out, _ := jsonrpc.Marshal(msg)
	fmt.Println(string(out))
	// Output: {"jsonrpc":"2.0","id":"a","result":{"text":"hi"}}
}

// The same loop with Each: every message is handled on the goroutine that
// read it, and a slow one detaches first so that reading goes on.
func ExampleStream_Each() {
	input := `{"jsonrpc":"2.0","id":1,"method":"ping"}` + "\n" + `not json` + "\n" + `{"jsonrpc":"2.0","id":2,"method":"slow"}` + "\n"
	out := struct{ io.Writer }{os.Stdout} // not closed by Close: printed to below
	s := transport.NewStream(strings.NewReader(input), out, transport.Options{})
	ctx := context.Background()
	done := make(chan struct{})
	err := s.Each(ctx, func(msg jsonrpc.Message, err error, detach func()) {
		var de *jsonrpc.DecodeError
		if errors.As(err, &de) {
			s.WriteNow(ctx, de.Response())
			return
		}
		req := msg.(*jsonrpc.Request)
		if req.Method == "slow" {
			detach() // reading goes on elsewhere while this works
			defer close(done)
		}
		s.WriteNow(ctx, &jsonrpc.Response{ID: req.ID, Result: json.RawMessage(`{}`)})
	})
	<-done
	s.Close()
	fmt.Println("Each:", err)
	// Output:
	// {"jsonrpc":"2.0","id":1,"result":{}}
	// {"jsonrpc":"2.0","error":{"code":-32700,"message":"parse error: invalid JSON at byte 0"}}
	// {"jsonrpc":"2.0","id":2,"result":{}}
	// Each: <nil>
}
